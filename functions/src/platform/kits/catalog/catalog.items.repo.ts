import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../firestore/paginate';
import { inQueryChunks, plainCollection, readRecord } from '../firestore/records';
import type { CatalogPhoto } from './catalog.model';
import type { CatalogItemsSpec } from './catalog.spec';

// Where a catalog's child items are stored: flat, one document `{recordId}_{key}` per record and key.

/** An item as stored: the body's fields (without photoIds) and the kit's. */
export type CatalogItemRecord = Record<string, unknown> & {
  name: string;
  nameFolded: string;
  terms: string[];
  inStock?: boolean;
  stock?: number | null;
  available?: boolean;
  photos?: CatalogPhoto[];
  updatedBy: string;
  updatedAt: number;
};
/** A quantity wanted of one item (an order line). */
export type ItemQuantity = { key: string; quantity: number };

/** Whether an item can be had: available (with availability) and, with stock, not counted or above 0. */
export function inStockOf(
  items: Pick<CatalogItemsSpec, 'stock' | 'availability'>,
  fields: { stock?: number | null; available?: boolean },
): boolean | undefined {
  if (!items.stock && !items.availability) return undefined;
  const stocked = !items.stock || (items.stock === 'optional' && fields.stock == null) || (fields.stock ?? 0) > 0;
  return stocked && (!items.availability || fields.available !== false);
}

/** Index: (parentField, terms array-contains, inStock, nameFolded) and its subsets, per items collection. */
export function itemsRepo(items: CatalogItemsSpec) {
  const docs = () => plainCollection<CatalogItemRecord>(items.collection);
  const idOf = (parentId: string, key: string) => `${parentId}_${key}`;
  /** The references of a record's items by key, and the map of those found from their snapshots (read elsewhere). */
  const byKeys = (parentId: string, keys: readonly string[]) => {
    const distinct = [...new Set(keys)];
    return {
      refs: distinct.map((key) => docs().doc(idOf(parentId, key))),
      found: (snaps: readonly DocumentSnapshot[]) =>
        new Map(snaps.flatMap((snap, i) => (snap.exists ? [[distinct[i], snap.data() as CatalogItemRecord] as const] : []))),
    };
  };
  return {
    get: (parentId: string, key: string, tx?: Transaction) => readRecord(docs().doc(idOf(parentId, key)), tx),
    /** Items by key (one read of them all, in the transaction when given); missing keys are absent from the map. */
    async getMany(parentId: string, keys: readonly string[], tx?: Transaction): Promise<Map<string, CatalogItemRecord>> {
      const { refs, found } = byKeys(parentId, keys);
      if (refs.length === 0) return new Map();
      return found(tx ? await tx.getAll(...refs) : await docs().firestore.getAll(...refs));
    },
    byKeys,
    update(tx: Transaction, parentId: string, key: string, fields: Record<string, unknown>): void {
      tx.update(docs().doc(idOf(parentId, key)), fields);
    },
    /** At most `max` of a record's items, by name (index parentField, nameFolded). */
    async all(parentId: string, max: number): Promise<CatalogItemRecord[]> {
      const snap = await docs().where(items.parentField, '==', parentId).orderBy('nameFolded').limit(max).get();
      return snap.docs.map((d) => d.data());
    },
    /** The items of several records (30 records a query, read side by side; no order). */
    async ofParents(parentIds: readonly string[]): Promise<CatalogItemRecord[]> {
      const distinct = [...new Set(parentIds)];
      const snaps = await Promise.all(inQueryChunks(distinct).map((chunk) => docs().where(items.parentField, 'in', chunk).get()));
      return snaps.flatMap((snap) => snap.docs.map((d) => d.data()));
    },
    async count(parentId: string): Promise<number> {
      return (await docs().where(items.parentField, '==', parentId).count().get()).data().count;
    },
    put(tx: Transaction, item: CatalogItemRecord): void {
      tx.set(docs().doc(idOf(String(item[items.parentField]), String(item[items.keyField]))), item);
    },
    remove(tx: Transaction, parentId: string, key: string): void {
      tx.delete(docs().doc(idOf(parentId, key)));
    },
    ofParent(parentId: string, filter: { term?: string; inStock?: boolean }, request: PageRequest): Promise<Page<CatalogItemRecord>> {
      let query: FirebaseFirestore.Query<CatalogItemRecord> = docs().where(items.parentField, '==', parentId);
      if (filter.term) query = query.where('terms', 'array-contains', filter.term);
      if (filter.inStock) query = query.where('inStock', '==', true);
      return paginate(query, [{ field: 'nameFolded', direction: 'asc' }], request, (d) => d.data());
    },
    /** At most `max` of a record's items with the word (in stock, with stock or availability), by name. */
    async matching(parentId: string, term: string, max: number): Promise<CatalogItemRecord[]> {
      let query: FirebaseFirestore.Query<CatalogItemRecord> = docs().where(items.parentField, '==', parentId).where('terms', 'array-contains', term);
      if (items.stock || items.availability) query = query.where('inStock', '==', true);
      const snap = await query.orderBy('nameFolded').limit(max).get();
      return snap.docs.map((d) => d.data());
    },
  };
}
