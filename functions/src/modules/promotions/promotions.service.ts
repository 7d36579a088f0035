import { randomInt } from 'node:crypto';
import { stableId } from '../../platform/kits/ids/stable-id';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { assertPermission } from '../../platform/core/auth/guard';
import { AppError, ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import {
  discountFor,
  MAX_SHARDS,
  normalizeCode,
  PAYABLE_VERTICAL,
  shardSizes,
  type Payable,
  type PayableRef,
  type PromotionRecord,
  type PromotionVertical,
  type RedemptionRecord,
} from './promotions.model';
import { promotionsRepo } from './promotions.repo';
import type { PromotionBodySchema, PromotionPatchSchema, RedeemBodySchema, ValidateBodySchema } from './promotions.schemas';

type Caller = Pick<AuthContext, 'userId' | 'roles' | 'permissions'>;
type Purchase = { vertical: PromotionVertical; amount: number; partnerId?: string };
const isAdmin = (caller: Caller) => caller.roles.includes('ADMIN');
/** The admin path (platform vouchers, any partner's) needs promotions.manage: 403 PERMISSION_REQUIRED otherwise. */
const asAdmin = (caller: Caller) => {
  assertPermission(caller as AuthContext, 'promotions.manage');
  return true;
};
/** Rounds of "read, pick a shard with uses left, write on the versions read" before answering 503 CONTENDED. */
const REDEEM_ROUNDS = 20;

export function promotionView(p: PromotionRecord) {
  return {
    id: p.id,
    code: p.code,
    title: p.title,
    description: p.description,
    kind: p.kind,
    value: p.value,
    maxDiscount: p.maxDiscount,
    minSpend: p.minSpend,
    startsAt: iso(p.startsAt),
    endsAt: iso(p.endsAt),
    perUserLimit: p.perUserLimit,
    totalLimit: p.totalLimit,
    verticals: p.verticals,
    partnerId: p.partnerId,
    status: p.status,
  };
}

const redemptionView = (r: RedemptionRecord) => ({
  id: r.id,
  promotionId: r.promotionId,
  code: r.code,
  vertical: r.vertical,
  amount: r.amount,
  discount: r.discount,
  finalAmount: r.amount - r.discount,
  reference: r.reference,
  payable: r.payable ?? null,
  status: r.status,
  createdAt: iso(r.createdAt),
  releasedAt: isoOrNull(r.releasedAt),
});

const unknownCode = () => new NotFoundError('No such voucher').withCode('PROMOTION_NOT_FOUND');

/** Why a voucher does not apply to this purchase now (or nothing: it applies). */
function checkApplies(p: PromotionRecord | undefined, purchase: Purchase, at: number): asserts p is PromotionRecord {
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

function checkUserUses(p: PromotionRecord, used: number): void {
  if (used >= p.perUserLimit)
    throw new ConflictError('You have used this voucher as often as it allows', { perUserLimit: p.perUserLimit }).withCode('PROMOTION_USER_LIMIT');
}

const exhausted = () => new ConflictError('The voucher has no uses left').withCode('PROMOTION_EXHAUSTED');

export interface PromotionsDeps {
  partnerRole(partnerId: string, userId: string): Promise<'OWNER' | 'STAFF' | undefined>;
  /** The payable as its module knows it (undefined: none such). */
  payable(ref: PayableRef): Promise<Payable | undefined>;
  now?: () => number;
}

export function createPromotionsService(deps: PromotionsDeps) {
  const now = deps.now ?? Date.now;

  /** The caller's own payable, or 404 (someone else's is as unknown as a missing one). */
  async function ownPayable(userId: string, ref: PayableRef): Promise<Payable> {
    const payable = await deps.payable(ref);
    if (!payable || payable.ownerId !== userId) throw new NotFoundError(`No such ${ref.kind.toLowerCase()} of yours`).withCode('PROMOTION_PAYABLE_NOT_FOUND');
    return payable;
  }

  async function assertManager(caller: Caller, partnerId: string | null): Promise<void> {
    // A partner's own staff manage its vouchers; anyone else's path is the administrators' (with the permission).
    if (partnerId !== null && (await deps.partnerRole(partnerId, caller.userId))) return;
    if (isAdmin(caller) && asAdmin(caller)) return;
    throw new ForbiddenError(
      partnerId ? `You are not the owner or staff of partner ${partnerId}` : 'Platform vouchers are the administrators’: name your partnerId',
    ).withCode('PROMOTION_NOT_MANAGER');
  }

  async function managed(caller: Caller, id: string): Promise<PromotionRecord> {
    const p = await promotionsRepo.get(id);
    if (!p) {
      if (isAdmin(caller)) asAdmin(caller); // a narrowed admin learns nothing, not even whether it exists
      throw new NotFoundError('No such voucher');
    }
    await assertManager(caller, p.partnerId);
    return p;
  }

  async function withStats(p: PromotionRecord) {
    const [redeemed, left] = await Promise.all([promotionsRepo.redeemedCount(p.id), promotionsRepo.shardsLeft(p.id, p.shardCount)]);
    return { ...promotionView(p), stats: { redeemed, remaining: p.totalLimit === null ? null : left.reduce((a, b) => a + b, 0) }, createdAt: iso(p.createdAt) };
  }

  return {
    async validate(userId: string, body: z.output<typeof ValidateBodySchema>) {
      const t = now();
      const p = await promotionsRepo.byCode(normalizeCode(body.code));
      checkApplies(p, body, t);
      const [used, left] = await Promise.all([promotionsRepo.usageOf(p.id, userId), promotionsRepo.shardsLeft(p.id, p.shardCount)]);
      checkUserUses(p, used);
      if (p.totalLimit !== null && left.every((n) => n <= 0)) throw exhausted();
      const discount = discountFor(p, body.amount);
      return { promotionId: p.id, code: p.code, title: p.title, amount: body.amount, discount, finalAmount: body.amount - discount };
    },

    /**
     * Takes one use. Everything it depends on is read at once (voucher, the user's count, the reference, the
     * shards), then the shard's decrement, the user's count and the redemption are written in one batch that
     * holds only if the shard and the count are still as read: no transaction, so redemptions of one voucher never
     * wait on each other's locks; one that lost a race reads again and tries another shard. The total and
     * per-user limits hold under any number of parallel redemptions.
     */
    async redeem(userId: string, body: z.output<typeof RedeemBodySchema>) {
      const payable = await ownPayable(userId, body.payable);
      if (payable.voided)
        throw new ConflictError(`This ${body.payable.kind.toLowerCase()} was cancelled or refunded`, { status: payable.status }).withCode(
          'PROMOTION_PAYABLE_CLOSED',
        );
      const purchase: Purchase = {
        vertical: PAYABLE_VERTICAL[body.payable.kind],
        amount: payable.amount,
        ...(payable.partnerId ? { partnerId: payable.partnerId } : {}),
      };
      const reference = `${body.payable.kind}:${body.payable.id}`;
      const first = await promotionsRepo.byCode(normalizeCode(body.code));
      checkApplies(first, purchase, now());
      const id = stableId({ scope: first.id, caller: userId, key: reference });
      for (let round = 0; round < REDEEM_ROUNDS; round += 1) {
        const state = await promotionsRepo.redemptionState(first.id, first.shardCount, userId, id, reference);
        if (state.earlier) return redemptionView(state.earlier); // the same use for the same reference: answered again
        if (state.claimedBy !== undefined && state.claimedBy !== id)
          throw new ConflictError(`A voucher is already used on this ${body.payable.kind.toLowerCase()}`).withCode('PROMOTION_PAYABLE_TAKEN');
        if (payable.settled)
          throw new ConflictError(`This ${body.payable.kind.toLowerCase()} is paid already: a voucher applies only before payment`, {
            status: payable.status,
          }).withCode('PROMOTION_PAYABLE_SETTLED');
        const t = now();
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
          payable: body.payable,
          shard,
          status: 'REDEEMED',
          createdAt: t,
          releasedAt: null,
        };
        try {
          await promotionsRepo.commitRedemption(record, { usage: state.usage, shard: shard === null ? undefined : state.shards[shard] });
          return redemptionView(record);
        } catch (err) {
          // Someone else took that use, counted this user's, or wrote this reference first: read again.
          if (![5, 6, 9].includes((err as { code?: number }).code ?? -1)) throw err;
        }
      }
      throw new AppError(503, 'Many people are using this voucher right now: retry in a moment', undefined, { 'Retry-After': '1' }).withCode('CONTENDED');
    },

    /**
     * Gives a use back once its payable was cancelled or refunded (checked on the server, 409 PROMOTION_RELEASE_REFUSED
     * otherwise): once; a released use stays released. A called-off payable never comes back, so the check may precede
     * the transaction.
     */
    async release(userId: string, redemptionId: string) {
      const t = now();
      const before = await promotionsRepo.getRedemption(redemptionId);
      if (!before || before.userId !== userId) throw new NotFoundError('No such redemption');
      if (before.status === 'REDEEMED') {
        const payable = before.payable ? await deps.payable(before.payable) : undefined;
        if (!payable?.voided) {
          throw new ConflictError('A use comes back only when what it was used on is cancelled or refunded', { status: payable?.status ?? null }).withCode(
            'PROMOTION_RELEASE_REFUSED',
          );
        }
      }
      const after = await inTransaction(async (tx) => {
        const r = await promotionsRepo.getRedemption(redemptionId, tx);
        if (!r || r.userId !== userId) throw new NotFoundError('No such redemption');
        if (r.status === 'RELEASED') return r;
        const used = await promotionsRepo.usageOf(r.promotionId, userId, tx);
        const freeClaim = await promotionsRepo.releaseClaim(tx, r.reference, r.id);
        const remaining = r.shard === null ? null : await promotionsRepo.shardRemaining(tx, r.promotionId, r.shard);
        if (r.shard !== null) promotionsRepo.setShard(tx, r.promotionId, r.shard, remaining! + 1);
        promotionsRepo.setUsage(tx, r.promotionId, userId, Math.max(0, used - 1));
        promotionsRepo.updateRedemption(tx, r.id, { status: 'RELEASED', releasedAt: t });
        freeClaim();
        return { ...r, status: 'RELEASED' as const, releasedAt: t };
      });
      return redemptionView(after);
    },

    async myRedemptions(userId: string, query: { limit: number; cursor?: string }) {
      const page = await promotionsRepo.redemptionsOf(userId, { ...query, query: 'promotions:redemptions', caller: userId });
      return { items: page.items.map(redemptionView), nextCursor: page.nextCursor };
    },

    /** Vouchers I can use now: active, started, not ended, with uses left for me (platform and partner vouchers). */
    async available(userId: string, vertical?: PromotionVertical) {
      const t = now();
      const open = (await promotionsRepo.activeEndingAfter(t, 200)).filter((p) => p.startsAt <= t && (!vertical || p.verticals.includes(vertical)));
      const [used, left] = await Promise.all([
        promotionsRepo.usagesOf(
          open.map((p) => p.id),
          userId,
        ),
        Promise.all(open.map((p) => promotionsRepo.shardsLeft(p.id, p.shardCount))),
      ]);
      return open
        .map((p, i) => ({ ...promotionView(p), usesLeftForMe: p.perUserLimit - used[i], exhausted: p.totalLimit !== null && left[i].every((n) => n <= 0) }))
        .filter((p) => p.usesLeftForMe > 0 && !p.exhausted);
    },

    async create(caller: Caller, body: z.output<typeof PromotionBodySchema>) {
      const partnerId = body.partnerId ?? null;
      await assertManager(caller, partnerId);
      const t = now();
      const shardCount = body.totalLimit === undefined ? 0 : Math.min(MAX_SHARDS, body.totalLimit);
      const record: PromotionRecord = {
        id: promotionsRepo.newId(),
        code: normalizeCode(body.code),
        title: body.title,
        description: body.description ?? null,
        kind: body.kind,
        value: body.value,
        maxDiscount: body.maxDiscount ?? null,
        minSpend: body.minSpend,
        startsAt: Date.parse(body.startsAt),
        endsAt: Date.parse(body.endsAt),
        perUserLimit: body.perUserLimit,
        totalLimit: body.totalLimit ?? null,
        shardCount,
        verticals: [...new Set(body.verticals)],
        partnerId,
        status: 'ACTIVE',
        createdBy: caller.userId,
        createdAt: t,
        updatedAt: t,
      };
      await inTransaction(async (tx) => {
        if (await promotionsRepo.codeTaken(record.code, tx)) throw new ConflictError(`The code ${record.code} is taken`).withCode('PROMOTION_CODE_TAKEN');
        promotionsRepo.create(tx, record, body.totalLimit === undefined ? [] : shardSizes(body.totalLimit, shardCount));
      });
      return withStats(record);
    },

    async list(caller: Caller, query: { partnerId?: string; limit: number; cursor?: string }) {
      if (query.partnerId === undefined && !(isAdmin(caller) && asAdmin(caller)))
        throw new ForbiddenError('Name the partnerId whose vouchers you list').withCode('PROMOTION_NOT_MANAGER');
      if (query.partnerId !== undefined) await assertManager(caller, query.partnerId);
      const page = await promotionsRepo.list(query.partnerId, {
        limit: query.limit,
        cursor: query.cursor,
        query: `promotions:manage:${query.partnerId ?? '*'}`,
        caller: caller.userId,
      });
      return { items: await Promise.all(page.items.map(withStats)), nextCursor: page.nextCursor };
    },

    get: async (caller: Caller, id: string) => withStats(await managed(caller, id)),

    async update(caller: Caller, id: string, patch: z.output<typeof PromotionPatchSchema>) {
      await managed(caller, id);
      const t = now();
      const after = await inTransaction(async (tx) => {
        const p = await promotionsRepo.get(id, tx);
        if (!p) throw new NotFoundError('No such voucher');
        const fields: Partial<PromotionRecord> = { updatedAt: t };
        if (patch.title !== undefined) fields.title = patch.title;
        if (patch.description !== undefined) fields.description = patch.description;
        if (patch.status !== undefined) fields.status = patch.status;
        if (patch.minSpend !== undefined) fields.minSpend = patch.minSpend;
        if (patch.maxDiscount !== undefined) fields.maxDiscount = patch.maxDiscount;
        if (patch.perUserLimit !== undefined) fields.perUserLimit = patch.perUserLimit;
        if (patch.endsAt !== undefined) {
          const endsAt = Date.parse(patch.endsAt);
          if (endsAt <= p.startsAt) throw new UnprocessableError('endsAt must be after startsAt', { startsAt: iso(p.startsAt) });
          fields.endsAt = endsAt;
        }
        promotionsRepo.update(tx, id, fields);
        return { ...p, ...fields };
      });
      return withStats(after);
    },
  };
}
