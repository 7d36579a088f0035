import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import type { z } from 'zod';
import { ForbiddenError, UnprocessableError, ValidationError } from '../../core/errors/app-error';
import { inTransaction } from '../../core/firebase/firebase';
import type { Page } from '../firestore/paginate';
import { geohashOf, distanceMeters } from '../geo/geo';
import { transition } from '../state-machine/state-machine';
import { foldedWords, foldText, matchesSearch, searchTermOf, searchTermsOf } from '../text/text';
import { iso } from '../time/time';
import { catalogAccess, isAdmin, refuseNarrowedAdmin, type Caller, type CatalogDeps } from './catalog.access';
import { catalogMachine, type CatalogAction, type CatalogActor, type CatalogPhoto, type CatalogRecord, type CatalogStatus } from './catalog.model';
import { catalogNearby, type NearbyQueryOf } from './catalog.nearby';
import { catalogRepo, type NearbyFields } from './catalog.repo';
import { isIndexable } from '../geo/cell-index';
import type { CatalogSpec } from './catalog.spec';
import type { CatalogBaseBodySchema, CatalogBasePatchSchema } from './catalog.schemas';
import { isOpenAt, type OpeningHours } from './hours';

export { defineCatalog, type CatalogSpec } from './catalog.spec';
export type { CatalogDeps } from './catalog.access';

type BaseBody = z.output<typeof CatalogBaseBodySchema>;
type BasePatch = z.output<typeof CatalogBasePatchSchema>;

export function createCatalogService<D extends z.ZodObject, F extends z.ZodObject>(spec: CatalogSpec<D, F>, deps: CatalogDeps) {
  type Details = z.output<D>;
  type Rec = CatalogRecord<Details>;
  const repo = catalogRepo<Details>(spec.collection);
  const now = deps.now ?? Date.now;
  const detailKeys = Object.keys(spec.details.shape);
  const access = catalogAccess(spec.noun, repo, deps, spec.hideFromOthers);
  const { notFound, manages, managed, editable, actorLabels } = access;

  function view(record: Rec | NearbyFields<Details>, at: number, distanceM?: number) {
    return {
      ...(record.details as Details),
      id: record.id,
      partnerId: record.partnerId,
      name: record.name,
      description: record.description,
      address: record.address,
      phone: record.phone,
      location: { lat: record.lat, lng: record.lng },
      photos: record.photos,
      openingHours: record.hours,
      openNow: isOpenAt(record.hours, at),
      status: record.status,
      statusReason: record.statusReason,
      rating: { average: record.ratingAvg, count: record.ratingCount },
      ...(distanceM !== undefined ? { distanceM: Math.round(distanceM) } : {}),
      createdAt: iso(record.createdAt),
      updatedAt: iso(record.updatedAt),
    };
  }
  const nearby = catalogNearby(spec, repo, view);

  /** The caller's READY image uploads, in order (422 otherwise); photos in `kept` (already attached) need no new check. */
  async function photosOf(caller: Caller, ids: readonly string[], tx: Transaction, kept: readonly CatalogPhoto[] = []): Promise<CatalogPhoto[]> {
    const distinct = [...new Set(ids)];
    const found = await Promise.all(distinct.map((id) => kept.find((p) => p.id === id) ?? deps.photo(caller.userId, id, tx)));
    const missing = distinct.filter((_, i) => !found[i]);
    if (missing.length > 0) throw new UnprocessableError('Photos must be your READY image uploads', { photoIds: missing }).withCode('CATALOG_PHOTO_INVALID');
    return found as CatalogPhoto[];
  }

  const ownOperation = new Set<string>(spec.ownOperationFields ?? []);
  const pickDetails = (body: Record<string, unknown>, skip: ReadonlySet<string> = new Set()) =>
    Object.fromEntries(detailKeys.filter((k) => body[k] !== undefined && !skip.has(k)).map((k) => [k, body[k]]));

  /**
   * Where the cell index should list a record: ACTIVE ones only. A change takes out what the index lists (read in
   * the transaction), not what the record says, so a record written before the index never makes a count negative.
   */
  const activeOnly = (r: Rec | undefined) => (r?.status === 'ACTIVE' ? r : undefined);
  const indexGeohashOf = (r: Pick<Rec, 'status' | 'geohash'>) => (r.status === 'ACTIVE' && isIndexable(r.geohash) ? r.geohash : undefined);

  async function move(id: string, caller: Caller, action: CatalogAction, reason: string | null) {
    const t = now();
    const { after } = await inTransaction(async (tx) => {
      const record = await repo.get(id, tx);
      if (!record) return access.refuse(record, caller);
      const roles: CatalogActor[] = [];
      if (isAdmin(caller)) roles.push('ADMIN');
      if (action === 'archive') {
        if (await manages(record, caller, tx)) roles.push('MANAGER');
        else access.refuse(record, caller);
      }
      // What the index lists (a transition refused for want of a role reads nothing more).
      const listed = roles.length > 0 ? await repo.listedGeohash(tx, record) : undefined;
      return transition(
        catalogMachine,
        {
          load: async () => record,
          save: (t2, next) => {
            repo.update(t2, id, { status: next.status, statusReason: next.statusReason, updatedAt: next.updatedAt });
            repo.writeCells(t2, [{ id, before: listed, after: indexGeohashOf(next) }]);
          },
          ref: () => repo.ref(id),
        },
        {
          action,
          by: caller.userId,
          rolesOf: () => roles,
          apply: (r, to) => ({ ...r, status: to, statusReason: action === 'hide' ? reason : null, updatedAt: t }),
          now: t,
          reason,
          missing: notFound,
        },
        tx,
      );
    });
    return view(after, t);
  }

  return {
    spec,
    view,

    /** `options.id`: a fixed id (seed data); otherwise a new one. */
    async create(caller: Caller, body: BaseBody & Record<string, unknown>, options: { id?: string } = {}) {
      const t = now();
      const details = { ...(spec.detailDefaults ?? {}), ...pickDetails(body) } as Details;
      spec.check?.(details);
      if (spec.partnerRequired && !body.partnerId)
        throw new ValidationError(`A ${spec.noun} belongs to a partner`, [{ field: 'body.partnerId', message: 'is required' }]);
      const record = await inTransaction(async (tx) => {
        const partnerId = body.partnerId ?? null;
        if (partnerId ? !(await deps.partnerRole(partnerId, caller.userId, tx)) : !isAdmin(caller)) {
          if (!partnerId) refuseNarrowedAdmin(caller);
          throw new ForbiddenError(
            partnerId
              ? `You are not the owner or staff of partner ${partnerId} (or it is not approved)`
              : `Name the partnerId you add this ${spec.noun} for; only administrators add curated ones`,
          ).withCode('CATALOG_NOT_MANAGER');
        }
        const created: Rec = {
          id: options.id ?? repo.newId(),
          partnerId,
          name: body.name,
          nameFolded: foldText(body.name),
          terms: searchTermsOf(body.name),
          description: body.description ?? null,
          address: body.address ?? null,
          phone: body.phone ?? null,
          lat: body.location.lat,
          lng: body.location.lng,
          geohash: geohashOf(body.location),
          photos: body.photoIds ? await photosOf(caller, body.photoIds, tx) : [],
          hours: body.openingHours ?? null,
          status: 'ACTIVE',
          statusReason: null,
          ratingAvg: 0,
          ratingCount: 0,
          details,
          createdBy: caller.userId,
          createdAt: t,
          updatedAt: t,
        };
        repo.create(tx, created);
        repo.writeCells(tx, [{ id: created.id, after: indexGeohashOf(created) }]);
        return created;
      });
      return view(record, t);
    },

    async get(id: string, caller: Caller) {
      const record = await repo.get(id);
      if (!record || !(await access.visible(record, caller))) throw notFound();
      return view(record, now());
    },

    async update(id: string, caller: Caller, patch: BasePatch & Record<string, unknown>) {
      const t = now();
      const after = await inTransaction(async (tx) => {
        const record = await managed(id, caller, tx);
        editable(record);
        const listed = patch.location ? await repo.listedGeohash(tx, record) : undefined;
        const fields: Record<string, unknown> = { updatedAt: t };
        if (patch.name !== undefined) Object.assign(fields, { name: patch.name, nameFolded: foldText(patch.name), terms: searchTermsOf(patch.name) });
        if (patch.description !== undefined) fields.description = patch.description;
        if (patch.address !== undefined) fields.address = patch.address;
        if (patch.phone !== undefined) fields.phone = patch.phone;
        if (patch.openingHours !== undefined) fields.hours = patch.openingHours;
        if (patch.location) Object.assign(fields, { lat: patch.location.lat, lng: patch.location.lng, geohash: geohashOf(patch.location) });
        if (patch.photoIds) fields.photos = await photosOf(caller, patch.photoIds, tx);
        const changed = pickDetails(patch, ownOperation);
        const details = { ...(record.details as object), ...changed } as Details;
        spec.check?.(details);
        for (const [key, value] of Object.entries(changed)) fields[`details.${key}`] = value;
        repo.update(tx, id, fields);
        if (patch.location) repo.writeCells(tx, [{ id, before: listed, after: indexGeohashOf({ ...record, geohash: fields.geohash as string }) }]);
        const { hours, ...plain } = fields;
        return { ...record, ...plain, ...(hours !== undefined ? { hours: hours as OpeningHours | null } : {}), details } as Rec;
      });
      return view(after, t);
    },

    archive: (id: string, caller: Caller) => move(id, caller, 'archive', null),
    hide: (id: string, caller: Caller, reason: string) => move(id, caller, 'hide', reason),
    restore: (id: string, caller: Caller) => move(id, caller, 'restore', null),

    /** Active records within the radius that pass the filters, nearest first (catalog.nearby.ts). */
    nearby: (
      query: NearbyQueryOf<F>,
      caller: Caller,
      options: { budget: number; stuckEnds?: boolean },
    ): Promise<Page<ReturnType<typeof view>> & { reads: number }> => nearby(query, caller, { ...options, at: now() }),

    /** Name search: the longest word narrows the query (array-contains), the others filter the page. */
    async search(query: { q: string; lat?: number; lng?: number; limit: number; cursor?: string }, caller: Caller) {
      const t = now();
      const term = searchTermOf(query.q);
      if (!term) return { items: [], nextCursor: null };
      const page = await repo.searchActive(term, {
        limit: query.limit,
        cursor: query.cursor,
        query: `${spec.collection}:search:${foldedWords(query.q).join(' ')}`,
        caller: caller.userId,
      });
      const center = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
      return {
        items: page.items.filter((r) => matchesSearch(r.name, query.q)).map((r) => view(r, t, center ? distanceMeters(center, r) : undefined)),
        nextCursor: page.nextCursor,
      };
    },

    async mine(query: { partnerId: string; limit: number; cursor?: string }, caller: Caller) {
      if (!(await deps.partnerRole(query.partnerId, caller.userId)))
        throw new ForbiddenError(`You are not the owner or staff of partner ${query.partnerId}`).withCode('CATALOG_NOT_MANAGER');
      const t = now();
      const page = await repo.ofPartner(query.partnerId, {
        limit: query.limit,
        cursor: query.cursor,
        query: `${spec.collection}:mine:${query.partnerId}`,
        caller: caller.userId,
      });
      return { items: page.items.map((r) => view(r, t)), nextCursor: page.nextCursor };
    },

    async adminList(query: { status?: CatalogStatus; partnerId?: string; limit: number; cursor?: string }, caller: Caller) {
      const t = now();
      const page = await repo.list(query, {
        limit: query.limit,
        cursor: query.cursor,
        query: `${spec.collection}:admin:${query.status ?? ''}:${query.partnerId ?? ''}`,
        caller: caller.userId,
      });
      return { items: page.items.map((r) => view(r, t)), nextCursor: page.nextCursor };
    },

    async events(id: string, caller: Caller) {
      const record = await repo.get(id);
      if (!record || (!isAdmin(caller) && !(await manages(record, caller)))) return access.refuse(record, caller);
      const events = await repo.events(id);
      const by = await actorLabels(
        record,
        caller,
        events.map((e) => e.by),
      );
      return events.map((e) => ({ ...e, by: by(e.by), at: iso(e.at), reason: e.reason ?? null }));
    },

    actorLabels: (record: Rec, caller: Caller, actors: readonly string[]) => actorLabels(record, caller, actors),

    /**
     * A change of the vertical's own fields by the record's managers (live free spaces, prices), in a transaction:
     * `change` reads what it needs and may write beside the record (a price history line); it returns the fields.
     */
    async changeDetails(
      id: string,
      caller: Caller,
      change: (record: Rec, tx: Transaction, at: number) => Promise<Partial<Details>> | Partial<Details>,
      options: { adminsToo?: boolean } = {},
    ) {
      const t = now();
      const after = await inTransaction(async (tx) => {
        const record = await managed(id, caller, tx, options.adminsToo);
        editable(record);
        const changed = await change(record, tx, t);
        const details = { ...(record.details as object), ...changed } as Details;
        spec.check?.(details);
        const fields: Record<string, unknown> = { updatedAt: t };
        for (const [key, value] of Object.entries(changed)) fields[`details.${key}`] = value;
        repo.update(tx, id, fields);
        return { ...record, details, updatedAt: t };
      });
      return view(after, t);
    },

    photosOf,

    /** The record, for a manager's change beside it (a store's products); 403/404/409 as for an edit. */
    async managedForChange(id: string, caller: Caller, tx: Transaction): Promise<Rec> {
      const record = await managed(id, caller, tx);
      editable(record);
      return record;
    },

    /** Active records by id (missing or not active: undefined), for other modules' references. */
    async activeByIds(ids: readonly string[]): Promise<Array<Rec | undefined>> {
      return (await repo.getMany(ids)).map(activeOnly);
    },
    /** An active record (missing or not active: undefined) read with the documents of `also`, in one round trip. */
    async activeWith(id: string, also: readonly DocumentReference[]): Promise<[Rec | undefined, DocumentSnapshot[]]> {
      const [record, rest] = await repo.getWith(id, also);
      return [activeOnly(record), rest];
    },
    getRecord: (id: string, tx?: Transaction) => repo.get(id, tx),
    /**
     * Stores a rating aggregate computed at `asOf` (the aggregate query's read time) unless a later one is stored:
     * triggers finishing out of order leave the newest figures. False when the record is gone or newer figures stand.
     */
    async applyRating(id: string, rating: { average: number; count: number; asOf: number }): Promise<boolean> {
      return inTransaction(async (tx) => {
        const record = await repo.get(id, tx);
        if (!record || (record.ratingAsOf ?? 0) >= rating.asOf) return false;
        repo.update(tx, id, { ratingAvg: rating.average, ratingCount: rating.count, ratingAsOf: rating.asOf });
        return true;
      });
    },
    /** Whether the caller sees what only managers see: an administrator with catalog.manage, or the record's manager. */
    async seesManagerFields(id: string, caller: Caller): Promise<boolean> {
      if (isAdmin(caller)) return true;
      const record = await repo.get(id);
      return record !== undefined && (await manages(record, caller));
    },
    /** Whether the caller manages the record (its partner's owner or staff; administrators for curated ones). */
    async isManagedBy(id: string, caller: Caller, tx?: Transaction): Promise<boolean> {
      const record = await repo.get(id, tx);
      return record !== undefined && (await manages(record, caller, tx));
    },
  };
}
export type CatalogService<D extends z.ZodObject = z.ZodObject, F extends z.ZodObject = z.ZodObject> = ReturnType<typeof createCatalogService<D, F>>;

/** The catalog's service, built on first use (one per process: catalogs take no configuration). */
export function catalogServiceOnce<D extends z.ZodObject, F extends z.ZodObject>(spec: CatalogSpec<D, F>, deps: () => CatalogDeps): () => CatalogService<D, F> {
  let service: CatalogService<D, F> | undefined;
  return () => (service ??= createCatalogService(spec, deps()));
}
