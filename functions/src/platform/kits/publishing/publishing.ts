import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError, NotFoundError, PayloadTooLargeError } from '../../core/errors/app-error';
import { logger } from '../../core/logging/logger';
import { db, inTransaction } from '../../core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../firestore/paginate';
import { readRecord, typedCollection } from '../firestore/records';
import { transition, type Machine, type TransitionEvent } from '../state-machine/state-machine';
import {
  publishingMachine,
  VERSIONS,
  EDITOR,
  sameContent,
  type AuditAction,
  type AuditRecord,
  type Change,
  type Changed,
  type Content,
  type ContentRecord,
  type PublisherSpec,
  type PublishingAction,
  type PublishingStatus,
  type VersionRecord,
} from './publishing.model';

export * from './publishing.model';

// Content the operators publish (banners, pages, app config…): one editable draft, immutable numbered versions, one
// of them live. Publishing copies the draft into a new version and makes it live; rolling back makes an older
// version's content live again as a new version (history only grows); every change is one transaction that also
// appends a line to the module's audit trail (who did what, which version). Moves follow publishingMachine (publishing.model.ts).

const versionId = (version: number) => `v${String(version).padStart(6, '0')}`;

export function createPublisher<C extends Content>(spec: PublisherSpec<C>) {
  const records = () => typedCollection<ContentRecord<C>>(spec.collection);
  const audits = () => typedCollection<AuditRecord>(spec.audit);
  const versionsOf = (id: string) => db().collection(spec.collection).doc(id).collection(VERSIONS);
  const machine: Machine<PublishingStatus, PublishingAction, 'EDITOR'> = publishingMachine(spec.codes, spec.kind);
  const missing = () => new NotFoundError(`No such ${spec.kind}`);

  function audit(tx: Transaction, record: ContentRecord<C>, action: AuditAction, change: Change, version: number | null): void {
    const ref = audits().doc();
    tx.create(ref, {
      id: ref.id,
      kind: spec.kind,
      entityId: record.id,
      entity: `${spec.kind}:${record.id}`,
      action,
      by: change.by,
      at: change.now,
      version,
      revision: record.revision,
      note: change.note ?? null,
    });
  }

  function fresh(id: string, content: C, change: Change): ContentRecord<C> {
    return {
      id,
      status: 'DRAFT',
      draft: content,
      revision: 1,
      live: null,
      liveVersion: null,
      liveRevision: null,
      latestVersion: 0,
      index: null,
      createdBy: change.by,
      createdAt: change.now,
      updatedBy: change.by,
      updatedAt: change.now,
      publishedBy: null,
      publishedAt: null,
    };
  }

  /** One move through the machine on a record already read in `tx` (the store answers that read). */
  async function move(
    tx: Transaction,
    loaded: ContentRecord<C>,
    action: PublishingAction,
    change: Change,
    apply: (record: ContentRecord<C>) => ContentRecord<C>,
    alongside: (tx: Transaction, next: ContentRecord<C>, event: TransitionEvent<PublishingStatus, PublishingAction>) => void,
    tolerant?: 'target',
  ): Promise<Changed<C>> {
    const ref = records().doc(loaded.id);
    const result = await transition(
      machine,
      {
        load: async () => loaded,
        save: (t, next) => t.set(ref, next),
        ref: () => ref,
        alongside: (t, next, _previous, event) => alongside(t, next, event),
      },
      {
        action,
        by: change.by,
        rolesOf: () => EDITOR,
        apply: (record, to) => ({ ...apply(record), status: to, updatedBy: change.by, updatedAt: change.now }),
        now: change.now,
        reason: change.note ?? null,
        missing,
        tolerant,
      },
      tx,
    );
    return { record: result.after, changed: result.changed };
  }

  function liveAt(tx: Transaction, next: ContentRecord<C>, version: VersionRecord<C>, action: AuditAction, change: Change): void {
    tx.create(versionsOf(next.id).doc(versionId(version.version)), version);
    audit(tx, next, action, change, version.version);
    spec.onLive?.(tx, next.id, { content: version.content, version: version.version, at: change.now });
  }

  async function load(tx: Transaction, id: string): Promise<ContentRecord<C>> {
    const record = await readRecord(records().doc(id), tx);
    if (!record) throw missing();
    return record;
  }

  const maxBytes = spec.maxDraftBytes ?? 256 * 1024;
  /** Refuses a draft too large for its document (413, nothing written). */
  function sized(draft: C): C {
    const bytes = Buffer.byteLength(JSON.stringify(draft), 'utf8');
    if (bytes > maxBytes) throw new PayloadTooLargeError(`The ${spec.kind} is ${bytes} bytes; at most ${maxBytes}`);
    return draft;
  }

  /** A read that reached its budget may have left records out: said in the logs. */
  function capped<T>(items: T[], max: number, what: string): T[] {
    if (items.length >= max) logger.warn('publishing: read budget reached, records may be left out', { kind: spec.kind, what, max });
    return items;
  }

  /** The stored record, or (a singleton never edited) the one `initial` would start: nothing written. */
  async function orInitial(
    id: string,
    initial: (() => C) | undefined,
    change: Change,
    tx?: Transaction,
  ): Promise<{ record: ContentRecord<C>; stored: boolean }> {
    const stored = await readRecord(records().doc(id), tx);
    if (stored) return { record: stored, stored: true };
    if (!initial) throw missing();
    return { record: fresh(id, initial(), { ...change, by: 'system:defaults' }), stored: false };
  }

  function checkRevision(record: ContentRecord<C>, revision: number | undefined): void {
    if (revision !== undefined && revision !== record.revision)
      throw new ConflictError(`The ${spec.kind}'s draft changed since revision ${revision}: read it again`, { revision: record.revision }).withCode(
        spec.codes.revision,
      );
  }

  return {
    machine,
    /** A new DRAFT (audit CREATE). `replayOwn`: an id the same editor created already answers that record (a retried create). */
    create: (id: string, content: C, change: Change, options: { replayOwn?: boolean } = {}) =>
      inTransaction(async (tx) => {
        const ref = records().doc(id);
        const existing = await readRecord(ref, tx);
        if (existing) {
          if (options.replayOwn && existing.createdBy === change.by) return existing;
          throw new ConflictError(`This ${spec.kind} exists already`, { id, status: existing.status }).withCode(spec.codes.exists);
        }
        const record = fresh(id, sized(content), change);
        tx.create(ref, record);
        audit(tx, record, 'CREATE', change, null);
        return record;
      }),

    /**
     * Changes the draft (audit EDIT, one more revision); an unchanged draft writes nothing. `revision`: refused (409)
     * unless the draft is still at it. `initial`: a missing record starts as that draft (singletons such as one app
     * config per surface), created with the edit (audit CREATE then EDIT).
     */
    edit: (id: string, change: Change & { revision?: number; initial?: () => C }, next: (draft: C) => C) =>
      inTransaction(async (tx) => {
        const { record, stored } = await orInitial(id, change.initial, change, tx);
        if (record.status === 'ARCHIVED')
          throw new ConflictError(`An archived ${spec.kind} is not edited: restore it first`, { status: record.status, allowed: ['restore'] }).withCode(
            spec.codes.status,
          );
        checkRevision(record, change.revision);
        const draft = next(record.draft);
        if (sameContent(draft, record.draft)) return record;
        const created = stored ? record : { ...record, createdBy: change.by, updatedBy: change.by };
        const updated: ContentRecord<C> = { ...created, draft: sized(draft), revision: record.revision + 1, updatedBy: change.by, updatedAt: change.now };
        tx.set(records().doc(id), updated);
        if (!stored) audit(tx, created, 'CREATE', change, null);
        audit(tx, updated, 'EDIT', change, null);
        return updated;
      }),

    /** The stored record, or the singleton `initial` would start (not stored: revision 1, nothing live). */
    read: (id: string, initial?: () => C, now = Date.now()) => orInitial(id, initial, { by: 'system:defaults', now }).then((r) => r.record),

    /**
     * Makes the draft live as a new version; the draft already live (same revision) answers `changed: false`.
     * `initial`: a singleton never edited is created with its first publish.
     */
    publish: (id: string, change: Change & { revision?: number; initial?: () => C }) =>
      inTransaction(async (tx): Promise<Changed<C>> => {
        const found = await orInitial(id, change.initial, change, tx);
        const record = found.stored ? found.record : { ...found.record, createdBy: change.by, updatedBy: change.by };
        checkRevision(record, change.revision);
        if (record.status === 'PUBLISHED' && record.liveRevision === record.revision) return { record, changed: false };
        const version = record.latestVersion + 1;
        return move(
          tx,
          record,
          'publish',
          change,
          (r) => ({
            ...r,
            live: r.draft,
            liveVersion: version,
            liveRevision: r.revision,
            latestVersion: version,
            index: spec.indexOf?.(r.draft) ?? {},
            publishedBy: change.by,
            publishedAt: change.now,
          }),
          (t, next) => {
            if (!found.stored) audit(t, record, 'CREATE', change, null);
            liveAt(
              t,
              next,
              { version, content: next.draft, revision: next.revision, rollbackOf: null, by: change.by, at: change.now, note: change.note ?? null },
              'PUBLISH',
              change,
            );
          },
        );
      }),

    /**
     * Makes version `version`'s content live again, as a new version that names it (`rollbackOf`); the draft becomes
     * that content too. When that content is live already: `changed: false`.
     */
    rollback: (id: string, target: number, change: Change & { revision?: number }) =>
      inTransaction(async (tx): Promise<Changed<C>> => {
        const record = await load(tx, id);
        checkRevision(record, change.revision);
        const old = (await tx.get(versionsOf(id).doc(versionId(target)))).data() as VersionRecord<C> | undefined;
        if (!old) throw new NotFoundError(`This ${spec.kind} has no version ${target}`).withCode(spec.codes.version);
        if (record.status === 'PUBLISHED' && sameContent(record.live, old.content)) return { record, changed: false };
        const version = record.latestVersion + 1;
        return move(
          tx,
          record,
          'rollback',
          change,
          (r) => ({
            ...r,
            draft: old.content,
            revision: r.revision + 1,
            live: old.content,
            liveVersion: version,
            liveRevision: r.revision + 1,
            latestVersion: version,
            index: spec.indexOf?.(old.content) ?? {},
            publishedBy: change.by,
            publishedAt: change.now,
          }),
          (t, next) =>
            liveAt(
              t,
              next,
              { version, content: old.content, revision: null, rollbackOf: target, by: change.by, at: change.now, note: change.note ?? null },
              'ROLLBACK',
              change,
            ),
        );
      }),

    /** Takes the live content down (the draft and versions stay); again: `changed: false`. */
    unpublish: (id: string, change: Change) =>
      inTransaction(async (tx) =>
        move(
          tx,
          await load(tx, id),
          'unpublish',
          change,
          (r) => ({ ...r, live: null, liveVersion: null, liveRevision: null, index: null }),
          (t, next) => {
            audit(t, next, 'UNPUBLISH', change, null);
            spec.onLive?.(t, next.id, null);
          },
          'target',
        ),
      ),

    /** Retires a record that is not live (unpublish it first); again: `changed: false`. */
    archive: (id: string, change: Change) =>
      inTransaction(async (tx) =>
        move(
          tx,
          await load(tx, id),
          'archive',
          change,
          (r) => r,
          (t, next) => audit(t, next, 'ARCHIVE', change, null),
          'target',
        ),
      ),

    /** An archived record back to DRAFT (its versions and trail kept; nothing live); again: `changed: false`. */
    restore: (id: string, change: Change) =>
      inTransaction(async (tx) =>
        move(
          tx,
          await load(tx, id),
          'restore',
          change,
          (r) => r,
          (t, next) => audit(t, next, 'RESTORE', change, null),
          'target',
        ),
      ),

    /** An id for a record made without a key. */
    newId: () => records().doc().id,
    get: (id: string, tx?: Transaction) => readRecord(records().doc(id), tx),
    /** Several records by id, in order (undefined where missing). */
    async getAll(ids: readonly string[]): Promise<Array<ContentRecord<C> | undefined>> {
      if (ids.length === 0) return [];
      const snaps = await db().getAll(...ids.map((id) => records().doc(id)));
      return snaps.map((s) => (s.exists ? (s.data() as ContentRecord<C>) : undefined));
    },
    /** Records newest-changed first, optionally in one status and with `index`-independent equality filters on the draft. */
    list(request: PageRequest, filters: { status?: PublishingStatus; draft?: Record<string, string> } = {}): Promise<Page<ContentRecord<C>>> {
      let query: FirebaseFirestore.Query<ContentRecord<C>> = records();
      if (filters.status) query = query.where('status', '==', filters.status);
      for (const [field, value] of Object.entries(filters.draft ?? {})) query = query.where(`draft.${field}`, '==', value);
      return paginate(query, [{ field: 'updatedAt', direction: 'desc' }], request, (d) => d.data());
    },
    /**
     * The live records whose `index` fields equal `equals` and, with `above`, whose `index.<field>` is above a value
     * (ordered by it: an end time, so records long ended are never read); at most `max` (a read budget).
     */
    async liveWhere(equals: Record<string, string>, max: number, above?: { field: string; value: number }): Promise<Array<ContentRecord<C>>> {
      let query: FirebaseFirestore.Query<ContentRecord<C>> = records();
      for (const [field, value] of Object.entries(equals)) query = query.where(`index.${field}`, '==', value);
      if (above) query = query.where(`index.${above.field}`, '>', above.value).orderBy(`index.${above.field}`);
      const snap = await query.limit(max).get();
      return capped(snap.docs, max, 'liveWhere')
        .map((d) => d.data())
        .filter((r) => r.status === 'PUBLISHED' && r.live !== null);
    },
    /** Every live record by id, at most `max` (a read budget); `fields`: only those (a summary, fewer bytes read). */
    async liveAll(max: number, fields?: readonly string[]): Promise<Array<ContentRecord<C>>> {
      const query = records().where('status', '==', 'PUBLISHED');
      const snap = await (fields ? query.select(...fields) : query).limit(max).get();
      return capped(snap.docs, max, 'liveAll').map((d) => ({ ...(d.data() as ContentRecord<C>), id: d.id }));
    },
    /** A record's versions, newest first. */
    versions(id: string, request: PageRequest): Promise<Page<VersionRecord<C>>> {
      return paginate(versionsOf(id) as FirebaseFirestore.CollectionReference<VersionRecord<C>>, [{ field: 'version', direction: 'desc' }], request, (d) =>
        d.data(),
      );
    },
  };
}
export type Publisher<C extends Content> = ReturnType<typeof createPublisher<C>>;

/** The audit trail of a module's records, newest first: all, one kind, one record (`<kind>:<id>`) or one editor's. */
export function auditTrail(collection: string, request: PageRequest, filter: { kind?: string; entity?: string; by?: string } = {}): Promise<Page<AuditRecord>> {
  let query: FirebaseFirestore.Query<AuditRecord> = typedCollection<AuditRecord>(collection);
  if (filter.entity) query = query.where('entity', '==', filter.entity);
  else if (filter.kind) query = query.where('kind', '==', filter.kind);
  if (filter.by) query = query.where('by', '==', filter.by);
  return paginate(query, [{ field: 'at', direction: 'desc' }], request, (d) => d.data());
}
