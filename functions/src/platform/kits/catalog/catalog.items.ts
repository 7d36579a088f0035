import type { Transaction } from 'firebase-admin/firestore';
import type { z } from 'zod';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors/app-error';
import { inTransaction } from '../../core/firebase/firebase';
import type { NearbyQuery } from '../geo/geo';
import { foldText, matchesSearch, searchTermOf, searchTermsOf } from '../text/text';
import { iso } from '../time/time';
import type { Caller } from './catalog.access';
import type { CatalogRecord } from './catalog.model';
import { inStockOf, itemsRepo, type CatalogItemRecord } from './catalog.items.repo';
import { itemsStock } from './catalog.items.stock';
import type { CatalogService } from './catalog.service';
import type { CatalogItemsSpec } from './catalog.spec';

// A catalog record's child items (catalog.spec.ts, CatalogItemsSpec): put, remove, list, availability, stock.

export { inStockOf, type CatalogItemRecord, type ItemQuantity } from './catalog.items.repo';
type ItemRecord = CatalogItemRecord;
/** An item as stored, with the body's fields typed (its photoIds stored as `photos`). */
export type StoredItem<B extends z.ZodObject> = CatalogItemRecord & Omit<z.output<B>, 'photoIds'>;

export type ItemsListQuery = { q?: string; inStock?: boolean; limit: number; cursor?: string };
export type ItemsSearchQuery = NearbyQuery & { q: string };

/** The items of one catalog's records: put, remove and list by the records' rules, availability, stock, the nearby search. */
export function createCatalogItemsService<B extends z.ZodObject, V extends z.ZodObject, P extends string, N extends string>(
  items: CatalogItemsSpec<B, V, P, N>,
  records: CatalogService,
  now: () => number = Date.now,
) {
  const repo = itemsRepo(items);
  const viewKeys = Object.keys(items.view.shape);
  const hidden = new Set(items.managerFields ?? []);
  const prefix = `${records.spec.tag}:${items.nouns}`;
  const filtersInStock = Boolean(items.stock || items.availability);
  const view = (item: ItemRecord) => ({
    [items.parentField]: item[items.parentField] as string,
    [items.keyField]: item[items.keyField] as string,
    ...(Object.fromEntries(viewKeys.map((k) => [k, item[k]])) as z.output<V>),
    updatedAt: iso(item.updatedAt),
  });
  type View = ReturnType<typeof view>;
  /** The view without the managers' fields (counted stock), for everyone else. */
  const publicView = (item: ItemRecord): View =>
    hidden.size === 0 ? view(item) : (Object.fromEntries(Object.entries(view(item)).filter(([k]) => !hidden.has(k))) as View);
  const notFound = () => new NotFoundError(`No such ${items.noun} in this ${items.parentNoun}`);

  async function refuseBeyondCap(parentId: string, key: string): Promise<void> {
    const max = items.maxPerRecord;
    if (max === undefined || (await repo.get(parentId, key)) || (await repo.count(parentId)) < max) return;
    throw new ConflictError(`A ${items.parentNoun} holds at most ${max} ${items.nouns}: remove one first`, { limit: max });
  }

  return {
    items,
    records,
    view,
    publicView,
    ...itemsStock(items, repo),
    /** Items of a record by key, in the transaction when given (one read of them all); missing keys are absent. */
    read: (parentId: string, keys: readonly string[], tx?: Transaction) => repo.getMany(parentId, keys, tx) as Promise<Map<string, StoredItem<B>>>,

    /**
     * An active record (missing or not active: undefined) and its items by key, in one read of them all: a booking's
     * record and the item it books (a clinic and its doctor, a hotel and its room type). `R`: the vertical's record
     * type, as its own catalog service reads the same documents.
     */
    async activeWithItems<R extends CatalogRecord<unknown> = CatalogRecord<Record<string, unknown>>>(parentId: string, keys: readonly string[]) {
      const { refs, found } = repo.byKeys(parentId, keys);
      const [record, snaps] = await records.activeWith(parentId, refs);
      return { record: record as R | undefined, items: found(snaps) as Map<string, StoredItem<B>> };
    },

    /** The items of several records at once (a search answering each record's items): every item, no order. */
    ofRecords: (parentIds: readonly string[]) => repo.ofParents(parentIds) as Promise<Array<StoredItem<B>>>,

    /** Adds or replaces the item: by the record's managers (403/404/409 as for an edit of the record). */
    async put(parentId: string, key: string, caller: Caller, body: z.output<B>) {
      const { photoIds, ...fields } = body as Record<string, unknown> & { name: string; stock?: number | null; available?: boolean; photoIds?: string[] };
      await refuseBeyondCap(parentId, key);
      const item = await inTransaction(async (tx) => {
        const record = await records.managedForChange(parentId, caller, tx);
        items.check?.(body, record);
        const before = items.photos ? await repo.get(parentId, key, tx) : undefined;
        const photos = items.photos ? await records.photosOf(caller, photoIds ?? [], tx, before?.photos ?? []) : undefined;
        const stored: ItemRecord = {
          [items.parentField]: parentId,
          [items.keyField]: key,
          ...fields,
          ...(photos ? { photos } : {}),
          nameFolded: foldText(fields.name),
          terms: searchTermsOf(fields.name),
          ...(filtersInStock ? { inStock: inStockOf(items, fields) } : {}),
          updatedBy: caller.userId,
          updatedAt: now(),
        };
        repo.put(tx, stored);
        return stored;
      });
      return view(item);
    },

    async remove(parentId: string, key: string, caller: Caller) {
      await inTransaction(async (tx) => {
        await records.managedForChange(parentId, caller, tx);
        if (!(await repo.get(parentId, key, tx))) throw notFound();
        repo.remove(tx, parentId, key);
      });
      return { deleted: true as const };
    },

    /**
     * Turns items on or off in one transaction (a kitchen out of an ingredient), by the record's managers: every key
     * must be an item of the record (400 naming `{field}.{i}.{keyField}` otherwise, nothing changed).
     */
    async setAvailability(parentId: string, caller: Caller, changes: ReadonlyArray<{ key: string; available: boolean }>, field = 'body.items') {
      if (!items.availability) throw new Error(`The ${items.nouns} of ${records.spec.nouns} declare no availability`);
      const t = now();
      const changed = await inTransaction(async (tx) => {
        await records.managedForChange(parentId, caller, tx);
        const found = await repo.getMany(
          parentId,
          changes.map((c) => c.key),
          tx,
        );
        const missing = changes.flatMap((c, i) => (found.has(c.key) ? [] : [{ field: `${field}.${i}.${items.keyField}`, message: notFound().message }]));
        if (missing.length > 0) throw new ValidationError(`No such ${items.nouns} in this ${items.parentNoun}`, missing);
        return changes.map(({ key, available }) => {
          const fields = { available, inStock: inStockOf(items, { ...found.get(key)!, available }), updatedBy: caller.userId, updatedAt: t };
          repo.update(tx, parentId, key, fields);
          return { ...found.get(key)!, ...fields };
        });
      });
      return changed.map(view);
    },

    /** Every item of a record as stored (at most maxPerRecord, else 500), by name: a whole menu; the caller checks visibility. */
    all: (parentId: string) => repo.all(parentId, items.maxPerRecord ?? 500) as Promise<Array<StoredItem<B>>>,

    /** A record's items by name (404 unless the record is visible to the caller). */
    async list(parentId: string, caller: Caller, query: ItemsListQuery) {
      await records.get(parentId, caller);
      const shown = hidden.size > 0 && !(await records.seesManagerFields(parentId, caller)) ? publicView : view;
      const term = query.q ? searchTermOf(query.q) : undefined;
      const page = await repo.ofParent(
        parentId,
        { term, inStock: filtersInStock ? query.inStock : undefined },
        { limit: query.limit, cursor: query.cursor, query: `${prefix}:${parentId}:${term ?? ''}:${query.inStock ?? ''}`, caller: caller.userId },
      );
      return { items: page.items.filter((p) => !query.q || matchesSearch(p.name, query.q)).map(shown), nextCursor: page.nextCursor };
    },

    /**
     * Active records within the radius having a matching item (in stock), nearest first, with those items (at most
     * `perRecord` each). Under the nearby read budget: the records are paged by distance (the catalog's nearby), then
     * each one's matching items are read, until `limit` records are found or `budget` documents read; in a dense area
     * the farther records are left out. `reads` is for tests and the bench, not the API.
     */
    async searchNearby(query: ItemsSearchQuery, caller: Caller, options: { budget: number }) {
      const perRecord = items.nearbySearch?.perRecord ?? 20;
      const term = searchTermOf(query.q);
      const found: Array<{ [K in P]: ReturnType<typeof records.view> } & { [K in N]: View[] }> = [];
      let reads = 0;
      let cursor: string | undefined;
      while (term && found.length < query.limit && reads < options.budget) {
        const page = await records.nearby(
          { lat: query.lat, lng: query.lng, radiusM: query.radiusM, limit: 20, ...(cursor ? { cursor } : {}) } as never,
          caller,
          { budget: options.budget - reads, stuckEnds: true },
        );
        reads += page.reads;
        // The page's records in parallel, each within an equal share of what is left (a record costs at least one read).
        const near = page.items.slice(0, Math.max(0, options.budget - reads));
        const share = near.length > 0 ? Math.max(1, Math.min(perRecord, Math.floor((options.budget - reads) / near.length))) : 0;
        const lines = await Promise.all(near.map((record) => repo.matching(record.id, term, share)));
        lines.forEach((hits, i) => {
          reads += Math.max(1, hits.length);
          const matching = hits.filter((p) => matchesSearch(p.name, query.q));
          if (matching.length > 0 && found.length < query.limit)
            found.push({ [items.parentNoun]: near[i], [items.nouns]: matching.map(publicView) } as { [K in P]: ReturnType<typeof records.view> } & {
              [K in N]: View[];
            });
        });
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return { items: found, reads };
    },
  };
}
export type CatalogItemsService<
  B extends z.ZodObject = z.ZodObject,
  V extends z.ZodObject = z.ZodObject,
  P extends string = string,
  N extends string = string,
> = ReturnType<typeof createCatalogItemsService<B, V, P, N>>;
