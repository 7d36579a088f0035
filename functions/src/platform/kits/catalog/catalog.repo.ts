import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../core/firebase/firebase';
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

// One repo per catalog collection. Queries and their composite indexes (firestore.indexes.json, per collection):
// nearby (status, geohash, __name__), search (status, terms array-contains, nameFolded), a partner's list (partnerId,
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
    create(tx: Transaction, record: CatalogRecord<D>): void {
      tx.create(records().doc(record.id), record);
    },
    /** Named fields only (dotted paths reach into `details`): never the whole record read earlier. */
    update(tx: Transaction, id: string, fields: Record<string, unknown>): void {
      tx.update(db().collection(collection).doc(id), fields);
    },
    /**
     * At most `max` ACTIVE records in one geohash range, by geohash then id (the geo kit pages by distance over these),
     * without their search terms (the largest field); `afterId` / `endId` resume or stop inside a geohash (records
     * stacked at one spot page through). Index (status, geohash, __name__): hidden and archived records cost no read.
     */
    async inRange(start: string, end: string, max: number, afterId?: string, endId?: string): Promise<Array<NearbyFields<D>>> {
      const { FieldPath } = firestoreApi();
      const ordered = db().collection(collection).where('status', '==', 'ACTIVE').orderBy('geohash').orderBy(FieldPath.documentId());
      const started = afterId !== undefined ? ordered.startAfter(start, afterId) : ordered.startAt(start);
      const ended = endId !== undefined ? started.endAt(end, endId) : started.endAt(end);
      const snap = await ended
        .limit(max)
        .select(...NEARBY_FIELDS)
        .get();
      return snap.docs.map((d) => ({ ...(d.data() as Omit<NearbyFields<D>, 'id'>), id: d.id }));
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
