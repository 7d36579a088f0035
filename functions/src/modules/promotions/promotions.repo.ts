import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import { paginate, type PageRequest } from '../../platform/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/firestore/records';
import {
  PROMOTION_CODES,
  PROMOTION_REDEMPTIONS,
  PROMOTION_SHARDS,
  PROMOTION_USAGE,
  PROMOTIONS,
  type PromotionRecord,
  type RedemptionRecord,
} from './promotions.model';

const promotions = () => typedCollection<PromotionRecord>(PROMOTIONS);
const redemptions = () => typedCollection<RedemptionRecord>(PROMOTION_REDEMPTIONS);
const shard = (promotionId: string, n: number) => plainCollection<{ remaining: number }>(PROMOTIONS).doc(promotionId).collection(PROMOTION_SHARDS).doc(String(n));
const usage = (promotionId: string, userId: string) => plainCollection<{ count: number }>(PROMOTION_USAGE).doc(`${promotionId}_${userId}`);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

export const promotionsRepo = {
  newId: () => db().collection(PROMOTIONS).doc().id,
  newRedemptionId: () => db().collection(PROMOTION_REDEMPTIONS).doc().id,
  get: (id: string, tx?: Transaction) => readRecord(promotions().doc(id), tx),
  async byCode(code: string, tx?: Transaction): Promise<PromotionRecord | undefined> {
    const link = await readRecord(plainCollection<{ promotionId: string }>(PROMOTION_CODES).doc(code), tx);
    return link ? promotionsRepo.get(link.promotionId, tx) : undefined;
  },
  create(tx: Transaction, record: PromotionRecord, shards: number[]): void {
    tx.create(db().collection(PROMOTION_CODES).doc(record.code), { promotionId: record.id });
    tx.create(promotions().doc(record.id), record);
    shards.forEach((remaining, n) => tx.create(shard(record.id, n), { remaining }));
  },
  codeTaken: async (code: string, tx: Transaction) => (await tx.get(db().collection(PROMOTION_CODES).doc(code))).exists,
  update(tx: Transaction, id: string, fields: Partial<Omit<PromotionRecord, 'id' | 'code'>>): void {
    tx.update(db().collection(PROMOTIONS).doc(id), fields);
  },
  /** Active vouchers not ended yet, ending soonest first; index (status, endsAt). */
  async activeEndingAfter(now: number, limit: number): Promise<PromotionRecord[]> {
    const snap = await promotions().where('status', '==', 'ACTIVE').where('endsAt', '>', now).orderBy('endsAt').limit(limit).get();
    return snap.docs.map((d) => d.data());
  },
  /** Index (partnerId, createdAt desc); all vouchers when partnerId is undefined. */
  list(partnerId: string | null | undefined, request: PageRequest) {
    const query = partnerId === undefined ? promotions() : promotions().where('partnerId', '==', partnerId);
    return paginate(query, newestFirst, request, (d) => d.data());
  },

  /** Uses left per shard, read outside a transaction (a hint of where to try). */
  async shardsLeft(promotionId: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const snaps = await db().getAll(...Array.from({ length: count }, (_, n) => shard(promotionId, n)));
    return snaps.map((s) => (s.data()?.remaining as number | undefined) ?? 0);
  },
  async shardRemaining(tx: Transaction, promotionId: string, n: number): Promise<number> {
    return (await tx.get(shard(promotionId, n))).data()?.remaining ?? 0;
  },
  setShard(tx: Transaction, promotionId: string, n: number, remaining: number): void {
    tx.set(shard(promotionId, n), { remaining });
  },
  async usageOf(promotionId: string, userId: string, tx?: Transaction): Promise<number> {
    return (await readRecord(usage(promotionId, userId), tx))?.count ?? 0;
  },
  async usagesOf(promotionIds: readonly string[], userId: string): Promise<number[]> {
    if (promotionIds.length === 0) return [];
    const snaps = await db().getAll(...promotionIds.map((id) => usage(id, userId)));
    return snaps.map((s) => (s.data()?.count as number | undefined) ?? 0);
  },
  setUsage(tx: Transaction, promotionId: string, userId: string, count: number): void {
    tx.set(usage(promotionId, userId), { count });
  },
  getRedemption: (id: string, tx?: Transaction) => readRecord(redemptions().doc(id), tx),
  createRedemption(tx: Transaction, record: RedemptionRecord): void {
    tx.create(redemptions().doc(record.id), record);
  },
  updateRedemption(tx: Transaction, id: string, fields: Pick<RedemptionRecord, 'status' | 'releasedAt'>): void {
    tx.update(db().collection(PROMOTION_REDEMPTIONS).doc(id), fields);
  },
  /** Index (userId, createdAt desc). */
  redemptionsOf: (userId: string, request: PageRequest) => paginate(redemptions().where('userId', '==', userId), newestFirst, request, (d) => d.data()),
  /** Uses counted from the redemption records (for managers' figures). Index (promotionId, status). */
  async redeemedCount(promotionId: string): Promise<number> {
    return (await redemptions().where('promotionId', '==', promotionId).where('status', '==', 'REDEEMED').count().get()).data().count;
  },
};
