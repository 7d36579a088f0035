import type { DocumentData, DocumentReference, Transaction } from 'firebase-admin/firestore';
import type { AuthContext } from '../../core/auth/access-token';
import { holdsPermission, type AdminPermission } from '../../core/auth/roles';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';
import { db, inTransaction, isAlreadyExists } from '../../core/firebase/firebase';
import { paginate, type Page } from '../firestore/paginate';
import { stableId } from '../ids/stable-id';

// Moderation queues: someone reports a target (a message, a review, a post, a ride in distress…), the report waits
// in a queue administrators page through, and one of them resolves it with an outcome. One kit for every kind of
// target, with one rule for repeats on both sides:
// - a report's id is derived from its reporter and target (and an optional key), so a repeat, including two
//   identical reports racing, lands on the same document: the first report stands and the repeat gets it back
//   (`created: false`; routes answer 200 where the first answer was 201);
// - resolving again with the outcome the report has is a no-op (`changed: false`); with another outcome it is 409.
// Resolution and the queue check the administrator's permission here as well as at the route.

/** The stored status of a report not resolved yet. */
export const OPEN = 'OPEN';

export interface Resolution<O extends string> {
  outcome: O;
  /** The administrator who resolved it. */
  by: string;
  at: number;
  /** The administrator's note (queues that take one). */
  note: string | null;
}

export interface Report<D, O extends string> {
  id: string;
  targetId: string;
  reporterId: string;
  createdAt: number;
  /** null while the report is open. */
  resolution: Resolution<O> | null;
  /** What the kind of target adds (reason, excerpt, location…). */
  detail: D;
}

/** How a queue's reports are stored: queues that predate the kit keep their documents' fields. */
export interface ReportLayout<D, O extends string> {
  /** The stored field naming the target (a target's open reports are queried on it). */
  targetField: string;
  /** The stored `status` field: OPEN while open, otherwise per outcome (the queue is listed by it). */
  statusOf(outcome: O | null): string;
  toDocument(report: Report<D, O>): DocumentData;
  fromDocument(id: string, data: DocumentData): Report<D, O>;
}

export type Moderator = Pick<AuthContext, 'userId' | 'roles' | 'permissions'>;

export interface ReportQueueDefinition<D, O extends string> {
  /** Names the queue: its cursors' list name (`{name}:{status}`) and the scope of its default report ids. */
  name: string;
  collection: string;
  outcomes: readonly O[];
  /** The administrators' permission that lists and resolves it. */
  permission: AdminPermission;
  /** By creation time: `desc` newest first (the default), `asc` oldest first. Each needs its index (status, createdAt). */
  order?: 'asc' | 'desc';
  /** Default: `{ targetId, reporterId, status, outcome, resolvedBy, resolvedAt, resolutionNote, createdAt, detail }`. */
  layout?: ReportLayout<D, O>;
  /** The document id of a reporter's report of a target; default: stableId over the queue, reporter, target and key. */
  reportId?: (targetId: string, reporterId: string, key?: string) => string;
  /** The code of the 409 when a report is resolved already with another outcome (default: CONFLICT). */
  resolvedCode?: ErrorCode;
  clock?: () => number;
}

export interface FileInput<D> {
  targetId: string;
  reporterId: string;
  /** A further part of the id (e.g. an Idempotency-Key), for queues that take several reports per reporter and target. */
  key?: string;
  detail: D;
}

export interface ResolveOptions<D, O extends string, T> {
  note?: string | null;
  /** Close every open report of the target with the same outcome (e.g. the review is hidden for all of them). */
  wholeTarget?: boolean;
  /**
   * What the outcome does to the target, in the same transaction, before the reports are written (reads first):
   * given the report and every report it closes. Not called for a repeat.
   */
  alongside?: (tx: Transaction, report: Report<D, O>, closing: Array<Report<D, O>>, resolution: Resolution<O>) => Promise<T>;
}

export interface Resolved<D, O extends string, T> {
  report: Report<D, O>;
  /** The reports this call closed (none for a repeat). */
  closed: Array<Report<D, O>>;
  changed: boolean;
  /** What `alongside` returned (undefined for a repeat). */
  effect: T | undefined;
}

/** 403 unless the caller is an administrator holding the queue's permission. */
export function assertModerator(caller: Moderator, permission: AdminPermission): void {
  if (!caller.roles.includes('ADMIN')) throw new ForbiddenError('Requires one of the roles: ADMIN').withCode('ROLE_REQUIRED');
  if (!holdsPermission(caller.permissions, permission)) throw new ForbiddenError(`Requires the admin permission ${permission}`).withCode('PERMISSION_REQUIRED');
}

/** The layout of queues made with the kit: lifecycle fields at the top, the target kind's own under `detail`. */
export function defaultLayout<D, O extends string>(): ReportLayout<D, O> {
  return {
    targetField: 'targetId',
    statusOf: (outcome) => outcome ?? OPEN,
    toDocument: (r) => ({
      targetId: r.targetId,
      reporterId: r.reporterId,
      status: r.resolution?.outcome ?? OPEN,
      outcome: r.resolution?.outcome ?? null,
      resolvedBy: r.resolution?.by ?? null,
      resolvedAt: r.resolution?.at ?? null,
      resolutionNote: r.resolution?.note ?? null,
      createdAt: r.createdAt,
      detail: r.detail,
    }),
    fromDocument: (id, d) => ({
      id,
      targetId: d.targetId,
      reporterId: d.reporterId,
      createdAt: d.createdAt,
      resolution: d.outcome ? { outcome: d.outcome, by: d.resolvedBy, at: d.resolvedAt, note: d.resolutionNote ?? null } : null,
      detail: d.detail,
    }),
  };
}

/** Where a queue's reports are: reads by id and by target, through the queue's layout. */
function reportStore<D, O extends string>(collectionName: string, layout: ReportLayout<D, O>) {
  const collection = () => db().collection(collectionName);
  const ref = (id: string): DocumentReference => collection().doc(id);
  return {
    collection,
    ref,
    async read(id: string, tx?: Transaction): Promise<Report<D, O> | undefined> {
      const snap = tx ? await tx.get(ref(id)) : await ref(id).get();
      return snap.exists ? layout.fromDocument(snap.id, snap.data()!) : undefined;
    },
    async openOf(targetId: string, tx: Transaction): Promise<Array<Report<D, O>>> {
      const snap = await tx.get(collection().where(layout.targetField, '==', targetId).where('status', '==', OPEN));
      return snap.docs.map((d) => layout.fromDocument(d.id, d.data()));
    },
  };
}

/** The 409 of a report resolved already with another outcome. */
function resolvedConflict<D, O extends string>(report: Report<D, O>, layout: ReportLayout<D, O>, code: ErrorCode | undefined) {
  const status = layout.statusOf(report.resolution!.outcome);
  const error = new ConflictError(`The report is ${status} already`, { status, outcome: report.resolution!.outcome });
  return code ? error.withCode(code) : error;
}

export function defineReportQueue<D, O extends string>(definition: ReportQueueDefinition<D, O>) {
  const layout = definition.layout ?? defaultLayout<D, O>();
  const now = definition.clock ?? Date.now;
  const { collection, ref, read, openOf } = reportStore(definition.collection, layout);
  const byDefault = (targetId: string, reporterId: string, key?: string) =>
    stableId({ scope: definition.name, caller: reporterId, key: key === undefined ? [targetId] : [targetId, key], prefix: 'r_' });
  const reportId = definition.reportId ?? byDefault;

  return {
    name: definition.name,
    permission: definition.permission,
    reportId,
    get: read,
    openOf,

    /**
     * Files a report, once per reporter and target (and key). `guard` runs first in the transaction (membership,
     * visibility…); a repeat then returns the first report unchanged (`created: false`).
     */
    async file(input: FileInput<D>, guard?: (tx: Transaction) => Promise<void>): Promise<{ report: Report<D, O>; created: boolean }> {
      const id = reportId(input.targetId, input.reporterId, input.key);
      const attempt = () =>
        inTransaction(async (tx) => {
          await guard?.(tx);
          const existing = await read(id, tx);
          if (existing) return { report: existing, created: false };
          const report: Report<D, O> = { id, targetId: input.targetId, reporterId: input.reporterId, createdAt: now(), resolution: null, detail: input.detail };
          tx.create(ref(id), layout.toDocument(report));
          return { report, created: true };
        });
      try {
        return await attempt();
      } catch (err) {
        // The identical report won the race after this transaction read: run again, it reads the winner.
        if (!isAlreadyExists(err)) throw err;
        return attempt();
      }
    },

    /** One page of the queue: the reports with a stored status (every status without one), by creation time. */
    async list(caller: Moderator, query: { status?: string; limit: number; cursor?: string }): Promise<Page<Report<D, O>>> {
      assertModerator(caller, definition.permission);
      const request = { limit: query.limit, cursor: query.cursor, query: `${definition.name}:${query.status ?? ''}`, caller: caller.userId };
      const filtered = query.status === undefined ? collection() : collection().where('status', '==', query.status);
      return paginate(filtered, [{ field: 'createdAt', direction: definition.order ?? 'desc' }], request, (d) => layout.fromDocument(d.id, d.data()));
    },

    /** Resolves an open report with an outcome, by whom and when (see the repeat rule above). */
    async resolve<T = undefined>(caller: Moderator, id: string, outcome: O, options: ResolveOptions<D, O, T> = {}): Promise<Resolved<D, O, T>> {
      assertModerator(caller, definition.permission);
      if (!definition.outcomes.includes(outcome)) throw new Error(`${definition.name}: no outcome ${outcome}`);
      return inTransaction(async (tx) => {
        const current = await read(id, tx);
        if (!current) throw new NotFoundError('No such report');
        if (current.resolution) {
          if (current.resolution.outcome === outcome) return { report: current, closed: [], changed: false, effect: undefined };
          throw resolvedConflict(current, layout, definition.resolvedCode);
        }
        const others = options.wholeTarget ? (await openOf(current.targetId, tx)).filter((r) => r.id !== id) : [];
        const resolution: Resolution<O> = { outcome, by: caller.userId, at: now(), note: options.note ?? null };
        const closing = [current, ...others];
        const effect = options.alongside ? await options.alongside(tx, current, closing, resolution) : undefined;
        const closed = closing.map((r) => ({ ...r, resolution }));
        for (const r of closed) tx.set(ref(r.id), layout.toDocument(r), { merge: true });
        return { report: closed[0], closed, changed: true, effect };
      });
    },
  };
}

export type ReportQueue<D, O extends string> = ReturnType<typeof defineReportQueue<D, O>>;
