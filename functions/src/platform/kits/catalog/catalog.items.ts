import type { Transaction } from 'firebase-admin/firestore';
import type { z } from 'zod';
import { NotFoundError } from '../../core/errors/app-error';
import { inTransaction } from '../../core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../firestore/paginate';
import { plainCollection, readRecord } from '../firestore/records';
import type { NearbyQuery } from '../geo/geo';
import { foldText, matchesSearch, searchTermOf, searchTermsOf } from '../text/text';
import { iso } from '../time/time';
import type { Caller } from './catalog.access';
import type { CatalogService } from './catalog.service';
import type { CatalogItemsSpec } from './catalog.spec';

// A catalog record's child items (catalog.spec.ts, CatalogItemsSpec): stored flat, one document per record and key.

type ItemRecord = Record<string, unknown> & { name: string; nameFolded: string; terms: string[]; inStock?: boolean; updatedBy: string; updatedAt: number };

/** Index: (parentField, terms array-contains, inStock, nameFolded) and its subsets, per items collection. */
function itemsRepo(items: CatalogItemsSpec) {
  const docs = () => plainCollection<ItemRecord>(items.collection);
  const idOf = (parentId: string, key: string) => `${parentId}_${key}`;
  return {
    get: (parentId: string, key: string, tx?: Transaction) => readRecord(docs().doc(idOf(parentId, key)), tx),
    put(tx: Transaction, item: ItemRecord): void {
      tx.set(docs().doc(idOf(String(item[items.parentField]), String(item[items.keyField]))), item);
    },
    remove(tx: Transaction, parentId: string, key: string): void {
      tx.delete(docs().doc(idOf(parentId, key)));
    },
    ofParent(parentId: string, filter: { term?: string; inStock?: boolean }, request: PageRequest): Promise<Page<ItemRecord>> {
      let query: FirebaseFirestore.Query<ItemRecord> = docs().where(items.parentField, '==', parentId);
      if (filter.term) query = query.where('terms', 'array-contains', filter.term);
      if (filter.inStock) query = query.where('inStock', '==', true);
      return paginate(query, [{ field: 'nameFolded', direction: 'asc' }], request, (d) => d.data());
    },
    /** At most `max` of a record's items with the word (in stock, with stock), by name. */
    async matching(parentId: string, term: string, max: number): Promise<ItemRecord[]> {
      let query: FirebaseFirestore.Query<ItemRecord> = docs().where(items.parentField, '==', parentId).where('terms', 'array-contains', term);
      if (items.stock) query = query.where('inStock', '==', true);
      const snap = await query.orderBy('nameFolded').limit(max).get();
      return snap.docs.map((d) => d.data());
    },
  };
}

export type ItemsListQuery = { q?: string; inStock?: boolean; limit: number; cursor?: string };
export type ItemsSearchQuery = NearbyQuery & { q: string };

/** The items of one catalog's records: put, remove and list by the records' rules, and the nearby search. */
export function createCatalogItemsService<B extends z.ZodObject, V extends z.ZodObject, P extends string, N extends string>(
  items: CatalogItemsSpec<B, V, P, N>,
  records: CatalogService,
  now: () => number = Date.now,
) {
  const repo = itemsRepo(items);
  const viewKeys = Object.keys(items.view.shape);
  const prefix = `${records.spec.tag}:${items.nouns}`;
  const view = (item: ItemRecord) => ({
    [items.parentField]: item[items.parentField] as string,
    [items.keyField]: item[items.keyField] as string,
    ...(Object.fromEntries(viewKeys.map((k) => [k, item[k]])) as z.output<V>),
    updatedAt: iso(item.updatedAt),
  });
  type View = ReturnType<typeof view>;

  return {
    items,
    records,
    view,

    /** Adds or replaces the item: by the record's managers (403/404/409 as for an edit of the record). */
    async put(parentId: string, key: string, caller: Caller, body: z.output<B>) {
      const fields = body as Record<string, unknown> & { name: string; stock?: number };
      const item: ItemRecord = {
        [items.parentField]: parentId,
        [items.keyField]: key,
        ...fields,
        nameFolded: foldText(fields.name),
        terms: searchTermsOf(fields.name),
        ...(items.stock ? { inStock: (fields.stock ?? 0) > 0 } : {}),
        updatedBy: caller.userId,
        updatedAt: now(),
      };
      await inTransaction(async (tx) => {
        await records.managedForChange(parentId, caller, tx);
        repo.put(tx, item);
      });
      return view(item);
    },

    async remove(parentId: string, key: string, caller: Caller) {
      await inTransaction(async (tx) => {
        await records.managedForChange(parentId, caller, tx);
        if (!(await repo.get(parentId, key, tx))) throw new NotFoundError(`No such ${items.noun} in this ${items.parentNoun}`);
        repo.remove(tx, parentId, key);
      });
      return { deleted: true as const };
    },

    /** A record's items by name (404 unless the record is visible to the caller). */
    async list(parentId: string, caller: Caller, query: ItemsListQuery) {
      await records.get(parentId, caller);
      const term = query.q ? searchTermOf(query.q) : undefined;
      const page = await repo.ofParent(
        parentId,
        { term, inStock: items.stock ? query.inStock : undefined },
        { limit: query.limit, cursor: query.cursor, query: `${prefix}:${parentId}:${term ?? ''}:${query.inStock ?? ''}`, caller: caller.userId },
      );
      return { items: page.items.filter((p) => !query.q || matchesSearch(p.name, query.q)).map(view), nextCursor: page.nextCursor };
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
          { budget: options.budget - reads },
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
            found.push({ [items.parentNoun]: near[i], [items.nouns]: matching.map(view) } as { [K in P]: ReturnType<typeof records.view> } & {
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
