import { exactVnd, rateTimes, roundExact, sumExact, vnd, type Vnd } from '../../platform/kits/money/money';
import type { CartSettings } from './cart.config';
import type { LineOption, LineRequest, SellerRef } from './cart.ports';

export { CARTS, CART_CHECKOUTS } from './cart.collections';

/** One line of a cart: what the consumer chose. Prices, names and availability are never stored: the seller prices them on every read. */
export interface CartLineRecord {
  id: string;
  itemKey: string;
  quantity: number;
  /** Sorted by group, choices sorted: two lines with the same item, options and note are one line. */
  options: LineOption[];
  note: string | null;
  addedAt: number;
}

export interface CartRecord {
  id: string;
  userId: string;
  seller: SellerRef;
  lines: CartLineRecord[];
  /** Grows with every change: checkout places exactly the lines it priced. */
  revision: number;
  createdAt: number;
  updatedAt: number;
}

/** One payment a checkout attempt makes (recorded under its key before it is made, so a crash cannot hide it). */
export interface CheckoutPayment {
  /** The payment's Idempotency-Key (`<orderId>:<attemptAt>`): asking again with it finds the payment. */
  key: string;
  method: 'WALLET' | 'GATEWAY';
  provider: 'VNPAY' | 'MOMO' | 'MOCK' | null;
  amount: number;
  /** The payment's id once known (null: made or not, the key tells). */
  id: string | null;
  /** The order took it (its payment). */
  taken: boolean;
  /** Nothing left to give back: released, refunded, expired, or never made. */
  settled: boolean;
}

/** `cart_checkouts/{orderId}`: what a checkout of that order took, so that whatever no order took is given back. */
export interface CheckoutRecord {
  id: string;
  userId: string;
  /** The latest attempt's start: the check runs CART_CHECKOUT_CHECK_SEC after it. */
  attemptAt: number;
  /** The order was placed (in the transaction that placed it): its voucher use and payment are the order's. */
  placed: boolean;
  /** A voucher use may be held under `ORDER:<id>` (given back unless the order took it). */
  voucher: boolean;
  payments: CheckoutPayment[];
  /** A check giving things back right now (a new attempt waits for it). */
  sweepingAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export const cartIdOf = (userId: string, seller: SellerRef) => `${userId}_${seller.kind}_${seller.id}`;
export const voucherReferenceOf = (orderId: string) => `ORDER:${orderId}`;

/** Options as stored and compared: groups in order, choices in order, no empty group. */
export function normalizeOptions(options: readonly LineOption[] | undefined): LineOption[] {
  return (options ?? [])
    .map((o) => ({ group: o.group, choices: [...new Set(o.choices)].sort() }))
    .filter((o) => o.choices.length > 0)
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
}

/** Two lines are the same line when item, options and note are. */
export const lineIdentity = (line: Pick<CartLineRecord, 'itemKey' | 'options' | 'note'>) => JSON.stringify([line.itemKey, line.options, line.note ?? '']);

export const lineRequestOf = (line: CartLineRecord): LineRequest => ({
  itemKey: line.itemKey,
  quantity: line.quantity,
  ...(line.options.length > 0 ? { options: line.options } : {}),
  ...(line.note ? { note: line.note } : {}),
});

/**
 * The delivery fee for a distance: the base covers the first `baseM` metres, each further metre costs
 * perKmVnd / 1,000, exactly, then the whole is rounded up to `stepVnd`.
 */
export function deliveryFeeFor(distanceM: number, d: CartSettings['delivery']): Vnd {
  const beyond = Math.max(0, Math.ceil(distanceM) - d.baseM);
  return roundExact(sumExact(exactVnd(vnd(d.baseVnd)), rateTimes(vnd(d.perKmVnd), beyond, 1000)), 'up', d.stepVnd);
}

export interface Pricing {
  itemsVnd: number;
  deliveryFeeVnd: number;
  serviceFeeVnd: number;
  discountVnd: number;
  totalVnd: number;
}

/** The total: items and fees, less the discount (never below zero). */
export function pricingOf(parts: Omit<Pricing, 'totalVnd'>): Pricing {
  const gross = parts.itemsVnd + parts.deliveryFeeVnd + parts.serviceFeeVnd;
  return { ...parts, discountVnd: Math.min(parts.discountVnd, gross), totalVnd: Math.max(0, gross - parts.discountVnd) };
}

/** What is still to give back: payments no order took, and the voucher use of an order never placed. */
export const outstanding = (r: Pick<CheckoutRecord, 'placed' | 'voucher' | 'payments'>) =>
  (!r.placed && r.voucher) || r.payments.some((p) => !p.taken && !p.settled);
