import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { paginate, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import {
  PROMOTION_CODES,
  PROMOTION_PAYABLES,
  PROMOTION_REDEMPTIONS,
  PROMOTION_SHARDS,
  PROMOTION_USAGE,
  PROMOTIONS,
  type PromotionRecord,
  type RedemptionRecord,
} from './promotions.model';

const promotions = () => typedCollection<PromotionRecord>(PROMOTIONS);
const redemptions = () => typedCollection<RedemptionRecord>(PROMOTION_REDEMPTIONS);
const shard = (promotionId: string, n: number) =>
  plainCollection<{ remaining: number }>(PROMOTIONS).doc(promotionId).collection(PROMOTION_SHARDS).doc(String(n));
const usage = (promotionId: string, userId: string) => plainCollection<{ count: number }>(PROMOTION_USAGE).doc(`${promotionId}_${userId}`);
const payableClaim = (reference: string) => plainCollection<{ redemptionId: string }>(PROMOTION_PAYABLES).doc(reference);
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

  /**
   * What a redemption reads before its conditional write: the voucher, the user's count, an earlier redemption of
   * the same reference and every shard, each with its version (update time) for the write's preconditions.
   */
  async redemptionState(promotionId: string, shardCount: number, userId: string, redemptionId: string, reference: string) {
    const refs = [
      promotions().doc(promotionId),
      usage(promotionId, userId),
      redemptions().doc(redemptionId),
      payableClaim(reference),
      ...Array.from({ length: shardCount }, (_, n) => shard(promotionId, n)),
    ];
    const [promo, used, earlier, claim, ...shards] = await db().getAll(...refs);
    return {
      /** The redemption already used on this payable (this one or another voucher's). */
      claimedBy: claim.exists ? (claim.get('redemptionId') as string) : undefined,
      promotion: promo.exists ? (promo.data() as PromotionRecord) : undefined,
      usage: { count: (used.get('count') as number | undefined) ?? 0, version: used.exists ? used.updateTime : undefined },
      earlier: earlier.exists ? (earlier.data() as RedemptionRecord) : undefined,
      earlierVersion: earlier.exists ? earlier.updateTime : undefined,
      shards: shards.map((snap) => ({ remaining: (snap.get('remaining') as number | undefined) ?? 0, version: snap.updateTime })),
    };
  },
  /**
   * One use, written at once and only if nothing it read has changed since (no transaction, no locks: a redemption
   * that lost a race fails its precondition and reads again). Throws the commit's error (FAILED_PRECONDITION,
   * ALREADY_EXISTS, NOT_FOUND) for the caller to sort out. `replaces`: the version of a use of the same id given back
   * earlier, taken again (only if unchanged since read).
   */
  async commitRedemption(
    record: RedemptionRecord,
    reads: {
      usage: { count: number; version?: FirebaseFirestore.Timestamp };
      shard?: { remaining: number; version?: FirebaseFirestore.Timestamp };
      replaces?: FirebaseFirestore.Timestamp;
    },
  ): Promise<void> {
    const batch = db().batch();
    if (record.shard !== null && reads.shard) {
      batch.update(
        shard(record.promotionId, record.shard),
        { remaining: reads.shard.remaining - 1 },
        reads.shard.version ? { lastUpdateTime: reads.shard.version } : {},
      );
    }
    const counter = usage(record.promotionId, record.userId);
    if (reads.usage.version) batch.update(counter, { count: reads.usage.count + 1 }, { lastUpdateTime: reads.usage.version });
    else batch.create(counter, { count: 1 });
    if (reads.replaces) {
      const { id: _id, ...fields } = record;
      batch.update(db().collection(PROMOTION_REDEMPTIONS).doc(record.id), { ...fields, releaseReason: null }, { lastUpdateTime: reads.replaces });
    } else batch.create(redemptions().doc(record.id), record);
    // One voucher per payable: a second one (or a parallel one) fails here with ALREADY_EXISTS.
    batch.create(payableClaim(record.reference), { redemptionId: record.id });
    await batch.commit();
  },

  /** Whether any shard has a use left: one document read at most (a query of one), not one per shard. */
  async anyLeft(promotionId: string): Promise<boolean> {
    const snap = await db().collection(PROMOTIONS).doc(promotionId).collection(PROMOTION_SHARDS).where('remaining', '>', 0).limit(1).select().get();
    return !snap.empty;
  },
  /** Uses left over every shard: one aggregate query (billed a read per 1,000 shards), not a read per shard. */
  async remainingTotal(promotionId: string): Promise<number> {
    const { AggregateField } = firestoreApi();
    const snap = await db()
      .collection(PROMOTIONS)
      .doc(promotionId)
      .collection(PROMOTION_SHARDS)
      .aggregate({ left: AggregateField.sum('remaining') })
      .get();
    return Math.round(snap.data().left ?? 0);
  },
  /** Uses left per shard, read outside a transaction (a hint of where to try). */
  async shardsLeft(promotionId: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const snaps = await db().getAll(...Array.from({ length: count }, (_, n) => shard(promotionId, n)));
    return snaps.map((s) => (s.data()?.remaining as number | undefined) ?? 0);
  },
  /** Frees the payable for another voucher when its use is given back (only the claim of this redemption). */
  async releaseClaim(tx: Transaction, reference: string, redemptionId: string): Promise<() => void> {
    const claim = await readRecord(payableClaim(reference), tx);
    return () => {
      if (claim?.redemptionId === redemptionId) tx.delete(payableClaim(reference));
    };
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
  /** The redemption holding a reference (`ORDER:<id>`), if any. */
  claimOf: (reference: string, tx?: Transaction) => readRecord(payableClaim(reference), tx),
  updateRedemption(tx: Transaction, id: string, fields: Pick<RedemptionRecord, 'status' | 'releasedAt' | 'releaseReason'>): void {
    tx.update(db().collection(PROMOTION_REDEMPTIONS).doc(id), fields);
  },
  /** Index (userId, createdAt desc). */
  redemptionsOf: (userId: string, request: PageRequest) => paginate(redemptions().where('userId', '==', userId), newestFirst, request, (d) => d.data()),
  /** Uses counted from the redemption records (for managers' figures). Index (promotionId, status). */
  async redeemedCount(promotionId: string): Promise<number> {
    return (await redemptions().where('promotionId', '==', promotionId).where('status', '==', 'REDEEMED').count().get()).data().count;
  },
};
