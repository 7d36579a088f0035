import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { paginate, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import type { TargetType } from '../favorites';
import { REVIEW_HIDES, REVIEWS, type HideRecord, type ReviewRecord } from './reviews.model';

// Loaded on first use: no Firestore client code at import.
const aggregateField = () => firestoreApi().AggregateField;
const reviews = () => typedCollection<ReviewRecord>(REVIEWS);
const hides = () => plainCollection<HideRecord>(REVIEW_HIDES);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];
const visibleOf = (type: TargetType, targetId: string) =>
  reviews().where('targetType', '==', type).where('targetId', '==', targetId).where('status', '==', 'VISIBLE');

export const reviewsRepo = {
  get: (id: string, tx?: Transaction) => readRecord(reviews().doc(id), tx),
  create(tx: Transaction, record: ReviewRecord): void {
    tx.create(reviews().doc(record.id), record);
  },
  update(tx: Transaction, id: string, fields: Partial<Omit<ReviewRecord, 'id'>>): void {
    tx.update(db().collection(REVIEWS).doc(id), fields);
  },
  remove(tx: Transaction, id: string): void {
    tx.delete(db().collection(REVIEWS).doc(id));
  },
  /** Visible reviews of a record, newest first; index (targetType, targetId, status, createdAt desc). */
  ofTarget: (type: TargetType, targetId: string, request: PageRequest) => paginate(visibleOf(type, targetId), newestFirst, request, (d) => d.data()),
  /** Index (userId, createdAt desc). */
  ofUser: (userId: string, request: PageRequest) => paginate(reviews().where('userId', '==', userId), newestFirst, request, (d) => d.data()),
  /** Count and average stars of the visible reviews, with the read time of the figures. */
  async aggregate(type: TargetType, targetId: string): Promise<{ count: number; average: number | null; readTime: number }> {
    const snap = await visibleOf(type, targetId)
      .aggregate({ count: aggregateField().count(), average: aggregateField().average('stars') })
      .get();
    return { count: snap.data().count, average: snap.data().average, readTime: snap.readTime.toMillis() };
  },
  /** How many visible reviews give each number of stars (1..5). */
  async histogram(type: TargetType, targetId: string): Promise<number[]> {
    return Promise.all([1, 2, 3, 4, 5].map(async (stars) => (await visibleOf(type, targetId).where('stars', '==', stars).count().get()).data().count));
  },

  /** The moderator's hide of this author's review of this record (kept after the review is deleted). */
  hide: (reviewId: string, tx?: Transaction) => readRecord(hides().doc(reviewId), tx),
  txHide(tx: Transaction, record: HideRecord): void {
    tx.set(hides().doc(record.reviewId), record);
  },
};
