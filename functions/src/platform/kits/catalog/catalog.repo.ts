import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { db } from '../../core/firebase/firebase';
import { listedGeohash, readCells, writeCellIndex, type IndexedChange } from '../geo/cell-index';
import { paginate, type Page, type PageRequest } from '../firestore/paginate';
import { readRecord, typedCollection } from '../firestore/records';
import { EVENTS, type TransitionEvent } from '../state-machine/state-machine';
import type { CatalogAction, CatalogRecord, CatalogStatus } from './catalog.model';

/** What `nearby` reads of each record in the circle: all a view shows, not the search terms. */
const NEARBY_FIELDS = [
  'partnerId',
  'name',
  'description',
  'address',
  'phone',
  'lat',
  'lng',
  'photos',
  'hours',
  'status',
  'statusReason',
  'ratingAvg',
  'ratingCount',
  'details',
  'createdAt',
  'updatedAt',
  'geohash',
] as const;
export type NearbyFields<D> = Pick<CatalogRecord<D>, 'id' | (typeof NEARBY_FIELDS)[number]>;

const newestFirst = [{ field: 'updatedAt', direction: 'desc' as const }];

// One repo per catalog collection. `nearby` reads its cell index by id. Queries and their composite indexes
// (firestore.indexes.json, per collection): search (status, terms array-contains, nameFolded), a partner's list (partnerId,
// updatedAt desc), moderation (status, updatedAt desc) and (status, partnerId, updatedAt desc).
export function catalogRepo<D>(collection: string) {
  const records = () => typedCollection<CatalogRecord<D>>(collection);
  return {
    newId: () => db().collection(collection).doc().id,
    ref: (id: string) => db().collection(collection).doc(id),
    get: (id: string, tx?: Transaction) => readRecord(records().doc(id), tx),
    async getMany(ids: readonly string[]): Promise<Array<CatalogRecord<D> | undefined>> {
      if (ids.length === 0) return [];
      const snaps = await db().getAll(...ids.map((id) => records().doc(id)));
      return snaps.map((s) => (s.exists ? (s.data() as CatalogRecord<D>) : undefined));
    },
    /** The record and the documents of `also` in one getAll (each snapshot keeps its reference's converter). */
    async getWith(id: string, also: readonly DocumentReference[]): Promise<[CatalogRecord<D> | undefined, DocumentSnapshot[]]> {
      const [snap, ...rest] = await db().getAll(records().doc(id), ...also);
      return [snap.exists ? (snap.data() as CatalogRecord<D>) : undefined, rest];
    },
    create(tx: Transaction, record: CatalogRecord<D>): void {
      tx.create(records().doc(record.id), record);
    },
    /** Named fields only (dotted paths reach into `details`): never the whole record read earlier. */
    update(tx: Transaction, id: string, fields: Record<string, unknown>): void {
      tx.update(db().collection(collection).doc(id), fields);
    },
    /** Records by id with what `nearby` shows (not their search terms, the largest field); gone: undefined. */
    async nearbyByIds(ids: readonly string[]): Promise<Array<NearbyFields<D> | undefined>> {
      if (ids.length === 0) return [];
      const snaps = await db().getAll(...ids.map((id) => db().collection(collection).doc(id)), { fieldMask: [...NEARBY_FIELDS] });
      return snaps.map((d) => (d.exists ? { ...(d.data() as Omit<NearbyFields<D>, 'id'>), id: d.id } : undefined));
    },
    /** The geohash cell index of the ACTIVE records (geo/cell-index.ts) that `nearby` reads. */
    cells: (hashes: readonly string[]) => readCells(collection, hashes),
    /** Where the cell index lists the record now (its cell read in the transaction): undefined when it does not. */
    listedGeohash: (tx: Transaction, record: { id: string; geohash: string }) => listedGeohash(tx, collection, record),
    /** Keeps the cell index in step, in the transaction that writes the records' status or position. */
    writeCells(tx: Transaction, changes: readonly IndexedChange[]): void {
      writeCellIndex(tx, collection, changes);
    },
    searchActive(term: string, request: PageRequest): Promise<Page<CatalogRecord<D>>> {
      const query = records().where('status', '==', 'ACTIVE').where('terms', 'array-contains', term);
      return paginate(query, [{ field: 'nameFolded', direction: 'asc' }], request, (d) => d.data());
    },
    ofPartner(partnerId: string, request: PageRequest): Promise<Page<CatalogRecord<D>>> {
      return paginate(records().where('partnerId', '==', partnerId), newestFirst, request, (d) => d.data());
    },
    list(filter: { status?: CatalogStatus; partnerId?: string }, request: PageRequest): Promise<Page<CatalogRecord<D>>> {
      let query: FirebaseFirestore.Query<CatalogRecord<D>> = records();
      if (filter.status) query = query.where('status', '==', filter.status);
      if (filter.partnerId) query = query.where('partnerId', '==', filter.partnerId);
      return paginate(query, newestFirst, request, (d) => d.data());
    },
    async events(id: string): Promise<Array<TransitionEvent<CatalogStatus, CatalogAction>>> {
      const snap = await records().doc(id).collection(EVENTS).orderBy('at', 'desc').limit(100).get();
      return snap.docs.map((d) => d.data() as TransitionEvent<CatalogStatus, CatalogAction>);
    },
  };
}
export type CatalogRepo<D> = ReturnType<typeof catalogRepo<D>>;
