import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { assertPermission } from '../../platform/core/auth/guard';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import {
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
import { checkApplies, previewUse, releaseUse, takeUse, type Purchase } from './promotions.redemption';
import { promotionsRepo } from './promotions.repo';
import type { PromotionBodySchema, PromotionPatchSchema, RedeemBodySchema, ValidateBodySchema } from './promotions.schemas';

type Caller = Pick<AuthContext, 'userId' | 'roles' | 'permissions'>;
const isAdmin = (caller: Caller) => caller.roles.includes('ADMIN');
/** The admin path (platform vouchers, any partner's) needs promotions.manage: 403 PERMISSION_REQUIRED otherwise. */
const asAdmin = (caller: Caller) => {
  assertPermission(caller as AuthContext, 'promotions.manage');
  return true;
};

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
    // Two aggregate queries (a read each per 1,000 entries), not one read per shard of each voucher listed.
    const [redeemed, remaining] = await Promise.all([
      promotionsRepo.redeemedCount(p.id),
      p.totalLimit === null ? Promise.resolve(null) : promotionsRepo.remainingTotal(p.id),
    ]);
    return { ...promotionView(p), stats: { redeemed, remaining }, createdAt: iso(p.createdAt) };
  }

  return {
    async validate(userId: string, body: z.output<typeof ValidateBodySchema>) {
      const { promotion: p, discount } = await previewUse(userId, body.code, body, now());
      return { promotionId: p.id, code: p.code, title: p.title, amount: body.amount, discount, finalAmount: body.amount - discount };
    },

    /** Takes one use on the caller's payable (promotions.redemption: the limits hold under any number of parallel redemptions). */
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
      const first = await promotionsRepo.byCode(normalizeCode(body.code));
      checkApplies(first, purchase, now());
      const noun = body.payable.kind.toLowerCase();
      const record = await takeUse({
        first,
        userId,
        purchase,
        reference: `${body.payable.kind}:${body.payable.id}`,
        payable: body.payable,
        retake: false,
        noun,
        now,
        check: () => {
          if (payable.settled)
            throw new ConflictError(`This ${noun} is paid already: a voucher applies only before payment`, { status: payable.status }).withCode(
              'PROMOTION_PAYABLE_SETTLED',
            );
        },
      });
      return redemptionView(record);
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
        return releaseUse(tx, r, t, null);
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
      const used = await promotionsRepo.usagesOf(
        open.map((p) => p.id),
        userId,
      );
      const mine = open
        .map((p, i) => ({ ...promotionView(p), usesLeftForMe: p.perUserLimit - used[i], limited: p.totalLimit !== null }))
        .filter((p) => p.usesLeftForMe > 0);
      // A voucher with a total limit costs one read to tell it is not used up (its shards' query), not one per shard.
      const left = await Promise.all(mine.map((p) => (p.limited ? promotionsRepo.anyLeft(p.id) : true)));
      return mine.filter((_, i) => left[i]).map(({ limited: _limited, ...p }) => p);
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
