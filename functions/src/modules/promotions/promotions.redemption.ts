import { randomInt } from 'node:crypto';
import type { Transaction } from 'firebase-admin/firestore';
import { AppError, ConflictError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { stableId } from '../../platform/kits/ids/stable-id';
import { iso } from '../../platform/kits/time/time';
import { discountFor, normalizeCode, type PayableRef, type PromotionRecord, type PromotionVertical, type RedemptionRecord } from './promotions.model';
import { promotionsRepo } from './promotions.repo';

// Taking and giving back one use of a voucher, shared by the consumer's redemption on a ride (promotions.service) and
// the commands other modules call for a purchase being created (promotions.commands: checkout's reservation).

export type Purchase = { vertical: PromotionVertical; amount: number; partnerId?: string };

/** Rounds of "read, pick a shard with uses left, write on the versions read" before answering 503 CONTENDED. */
const REDEEM_ROUNDS = 20;

export const unknownCode = () => new NotFoundError('No such voucher').withCode('PROMOTION_NOT_FOUND');
export const exhausted = () => new ConflictError('The voucher has no uses left').withCode('PROMOTION_EXHAUSTED');

/** Why a voucher does not apply to this purchase now (or nothing: it applies). */
export function checkApplies(p: PromotionRecord | undefined, purchase: Purchase, at: number): asserts p is PromotionRecord {
  if (!p || p.status !== 'ACTIVE') throw unknownCode();
  if (at < p.startsAt) throw new ConflictError('The voucher is not valid yet', { startsAt: iso(p.startsAt) }).withCode('PROMOTION_NOT_STARTED');
  if (at >= p.endsAt) throw new ConflictError('The voucher has expired', { endsAt: iso(p.endsAt) }).withCode('PROMOTION_EXPIRED');
  if (!p.verticals.includes(purchase.vertical))
    throw new UnprocessableError(`The voucher is not for ${purchase.vertical}`, { verticals: p.verticals }).withCode('PROMOTION_NOT_APPLICABLE');
  if (p.partnerId !== null && p.partnerId !== purchase.partnerId)
    throw new UnprocessableError('The voucher is for another seller’s purchases').withCode('PROMOTION_NOT_APPLICABLE');
  if (purchase.amount < p.minSpend)
    throw new UnprocessableError(`The voucher needs a purchase of at least ${p.minSpend} ₫`, { minSpend: p.minSpend }).withCode('PROMOTION_MIN_SPEND');
}

export function checkUserUses(p: PromotionRecord, used: number): void {
  if (used >= p.perUserLimit)
    throw new ConflictError('You have used this voucher as often as it allows', { perUserLimit: p.perUserLimit }).withCode('PROMOTION_USER_LIMIT');
}

/** What a voucher would take off a purchase now, for this user (nothing is used): the checks of a redemption, read once. */
export async function previewUse(userId: string, code: string, purchase: Purchase, at: number) {
  const p = await promotionsRepo.byCode(normalizeCode(code));
  checkApplies(p, purchase, at);
  const [used, left] = await Promise.all([promotionsRepo.usageOf(p.id, userId), promotionsRepo.shardsLeft(p.id, p.shardCount)]);
  checkUserUses(p, used);
  if (p.totalLimit !== null && left.every((n) => n <= 0)) throw exhausted();
  return { promotion: p, discount: discountFor(p, purchase.amount) };
}

export interface TakeUse {
  /** The voucher as read by its code, its terms already checked once. */
  first: PromotionRecord;
  userId: string;
  purchase: Purchase;
  /** What the use is for (`RIDE:<id>`, `ORDER:<id>`): one voucher per reference, one use per voucher and reference. */
  reference: string;
  payable?: PayableRef;
  /** A use of this reference given back is taken again (a checkout retried); otherwise it is answered as it stands. */
  retake: boolean;
  /** Checks of the purchase made each round after the reference's own state (a ride paid meanwhile). */
  check?: () => void;
  /** The purchase in messages ("ride", "purchase"). */
  noun: string;
  now: () => number;
}

/**
 * Takes one use. Everything it depends on is read at once (voucher, the user's count, the reference, the shards),
 * then the shard's decrement, the user's count and the redemption are written in one batch that holds only if the
 * shard and the count are still as read: no transaction, so redemptions of one voucher never wait on each other's
 * locks; one that lost a race reads again and tries another shard. The total and per-user limits hold under any
 * number of parallel redemptions.
 */
export async function takeUse(input: TakeUse): Promise<RedemptionRecord> {
  const { first, userId, purchase, reference } = input;
  const id = stableId({ scope: first.id, caller: userId, key: reference });
  for (let round = 0; round < REDEEM_ROUNDS; round += 1) {
    const state = await promotionsRepo.redemptionState(first.id, first.shardCount, userId, id, reference);
    if (state.earlier && (state.earlier.status === 'REDEEMED' || !input.retake)) return state.earlier; // the same use for the same reference
    if (state.claimedBy !== undefined && state.claimedBy !== id)
      throw new ConflictError(`A voucher is already used on this ${input.noun}`).withCode('PROMOTION_PAYABLE_TAKEN');
    input.check?.();
    const t = input.now();
    const p = state.promotion;
    checkApplies(p, purchase, t);
    checkUserUses(p, state.usage.count);
    const candidates = state.shards.flatMap((s, i) => (s.remaining > 0 ? [i] : []));
    if (p.totalLimit !== null && candidates.length === 0) throw exhausted();
    const shard = p.totalLimit === null ? null : candidates[randomInt(candidates.length)];
    const record: RedemptionRecord = {
      id,
      promotionId: p.id,
      code: p.code,
      userId,
      vertical: purchase.vertical,
      amount: purchase.amount,
      discount: discountFor(p, purchase.amount),
      reference,
      ...(input.payable ? { payable: input.payable } : {}),
      shard,
      status: 'REDEEMED',
      createdAt: t,
      releasedAt: null,
    };
    try {
      await promotionsRepo.commitRedemption(record, {
        usage: state.usage,
        shard: shard === null ? undefined : state.shards[shard],
        replaces: state.earlier ? state.earlierVersion : undefined,
      });
      return record;
    } catch (err) {
      // Someone else took that use, counted this user's, or wrote this reference first: read again.
      if (![5, 6, 9].includes((err as { code?: number }).code ?? -1)) throw err;
    }
  }
  throw new AppError(503, 'Many people are using this voucher right now: retry in a moment', undefined, { 'Retry-After': '1' }).withCode('CONTENDED');
}

/**
 * Gives a use back in the caller's transaction (after its own reads of the redemption): the use returns to the voucher
 * and to the user's count, and the reference is free for another voucher. Reads first, then writes.
 */
export async function releaseUse(tx: Transaction, r: RedemptionRecord, at: number, reason: string | null): Promise<RedemptionRecord> {
  const used = await promotionsRepo.usageOf(r.promotionId, r.userId, tx);
  const freeClaim = await promotionsRepo.releaseClaim(tx, r.reference, r.id);
  const remaining = r.shard === null ? null : await promotionsRepo.shardRemaining(tx, r.promotionId, r.shard);
  if (r.shard !== null) promotionsRepo.setShard(tx, r.promotionId, r.shard, remaining! + 1);
  promotionsRepo.setUsage(tx, r.promotionId, r.userId, Math.max(0, used - 1));
  promotionsRepo.updateRedemption(tx, r.id, { status: 'RELEASED', releasedAt: at, releaseReason: reason });
  freeClaim();
  return { ...r, status: 'RELEASED', releasedAt: at, releaseReason: reason };
}
