import { clampVnd, percentOf, percentToBp, vnd, type Vnd } from '../../platform/kits/money/money';
import { MODULE_LISTS } from '../../platform/core/module/module-lists.generated';

// `promotions/{id}`: vouchers; `promotions/{id}/shards/{n}`: the uses left, split so that redemptions of one
// voucher write to different documents (a document takes about one write per second); `promotion_codes/{CODE}`:
// code → id (codes are unique); `promotion_usage/{promotionId}_{userId}`: uses per user;
// `promotion_redemptions/{id}`: each use (the discount given, and for what). All API only.
export const PROMOTIONS = 'promotions';
export const PROMOTION_SHARDS = 'shards';
export const PROMOTION_CODES = 'promotion_codes';
export const PROMOTION_USAGE = 'promotion_usage';
export const PROMOTION_REDEMPTIONS = 'promotion_redemptions';
/** One per payable (id `KIND:id`): the redemption used on it. A payable takes one voucher. */
export const PROMOTION_PAYABLES = 'promotion_payables';

export const PROMOTION_VERTICALS = MODULE_LISTS.promotionVerticals; // claimed by the module definitions (`promotionVerticals`)
export type PromotionVertical = (typeof PROMOTION_VERTICALS)[number];
export const DISCOUNT_KINDS = ['PERCENT', 'FIXED'] as const;
export type PromotionStatus = 'ACTIVE' | 'INACTIVE';

/** Shards of a limited voucher: up to 20, never more than its uses. */
export const MAX_SHARDS = 20;

export interface PromotionRecord {
  id: string;
  code: string;
  title: string;
  description: string | null;
  kind: (typeof DISCOUNT_KINDS)[number];
  /** PERCENT: 1..100; FIXED: VND. */
  value: number;
  /** Cap of a PERCENT discount, VND (null: none). */
  maxDiscount: number | null;
  minSpend: number;
  startsAt: number;
  endsAt: number;
  perUserLimit: number;
  /** Uses in all (null: unlimited). */
  totalLimit: number | null;
  shardCount: number;
  verticals: PromotionVertical[];
  /** The partner whose sales it applies to (null: a platform voucher, any seller). */
  partnerId: string | null;
  status: PromotionStatus;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** What a voucher is used on: a payable of the caller's the server knows (RIDE today; ORDER and BOOKING to come). */
export const PAYABLE_KINDS = ['RIDE'] as const;
export type PayableKind = (typeof PAYABLE_KINDS)[number];
export interface PayableRef {
  kind: PayableKind;
  id: string;
}
/** A payable as its module reports it: owner, amount and seller as the server knows them, and whether it was called off or refunded. */
export interface Payable {
  ownerId: string;
  partnerId: string | null;
  amount: number;
  status: string;
  voided: boolean;
  /** Paid already (a completed ride): a voucher can no longer lower what was charged. */
  settled?: boolean;
}
export const PAYABLE_VERTICAL: Record<PayableKind, PromotionVertical> = { RIDE: 'RIDE' };

export interface RedemptionRecord {
  id: string;
  promotionId: string;
  code: string;
  userId: string;
  vertical: PromotionVertical;
  /** The payable's amount as the server knew it when the use was taken. */
  amount: number;
  discount: number;
  /** `KIND:id` of the payable (older uses: the client's reference). */
  reference: string;
  /** The payable the use is bound to (absent on uses taken before binding: never given back). */
  payable?: PayableRef;
  shard: number | null;
  status: 'REDEEMED' | 'RELEASED';
  createdAt: number;
  releasedAt: number | null;
  /** Why a use was given back by the system (a checkout that failed, an order cancelled); absent on the user's own release. */
  releaseReason?: string | null;
}

/** Codes compare in upper case without spaces: "tet 2027" is TET2027. */
export const normalizeCode = (code: string) => code.replace(/\s+/g, '').toUpperCase();

/**
 * What a voucher takes off, as the arithmetic sees it: a share in basis points (PERCENT) or an amount (FIXED), at
 * most `cap`. Vouchers are created, stored and shown with whole percents (the API's `value`): converted here.
 */
export type Discount = { kind: 'PERCENT'; basisPoints: number; cap: Vnd | null } | { kind: 'FIXED'; amount: Vnd; cap: Vnd | null };

export function discountOf(p: Pick<PromotionRecord, 'kind' | 'value' | 'maxDiscount'>): Discount {
  const cap = p.maxDiscount === null ? null : vnd(p.maxDiscount);
  return p.kind === 'PERCENT' ? { kind: 'PERCENT', basisPoints: percentToBp(p.value), cap } : { kind: 'FIXED', amount: vnd(p.value), cap };
}

/** The discount on `amount` VND: a share rounded down to whole đồng, never above the cap or the amount. */
export function applyDiscount(d: Discount, amount: Vnd): Vnd {
  const raw = d.kind === 'PERCENT' ? percentOf(amount, d.basisPoints, 'down') : d.amount;
  return clampVnd(raw, { max: d.cap === null ? amount : clampVnd(d.cap, { max: amount }) });
}

/** The discount of a voucher on `amount` VND (an integer, never more than the amount). */
export function discountFor(p: Pick<PromotionRecord, 'kind' | 'value' | 'maxDiscount'>, amount: number): number {
  return applyDiscount(discountOf(p), vnd(amount));
}

/** How `total` uses split over `count` shards (the first ones take the remainder). */
export function shardSizes(total: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.floor(total / count) + (i < total % count ? 1 : 0));
}
