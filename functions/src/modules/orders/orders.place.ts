import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError } from '../../platform/core/errors/app-error';
import type { OrderSettings } from './orders.config';
import { newHandoverCodeState } from '../../platform/kits/handover/handover';
import type { PaymentStatus } from '../payments';
import type { OrderStatus } from './orders.machine';
import { type OrderPaymentMethod, type OrderRecord } from './orders.model';
import { sellerKeyOf } from './orders.model';
import type { PricedLine, SellerRef, SellersPort } from './orders.ports';
import { ordersRepo } from './orders.repo';

/** An order as checkout has priced and paid for it (cart/checkout builds it; this module owns the stored shape). */
export interface OrderDraft {
  /** Chosen by checkout: stableId of (caller, Idempotency-Key), so a retry names the same order. */
  id: string;
  consumerId: string;
  seller: SellerRef;
  partnerId: string;
  sellerName: string;
  pickup: { lat: number; lng: number; address: string };
  dropoff: {
    lat: number;
    lng: number;
    address: string;
    recipientName: string | null;
    phone: string | null;
    note: string | null;
    addressId: string | null;
  };
  distanceM: number;
  lines: PricedLine[];
  pricing: { itemsVnd: number; deliveryFeeVnd: number; serviceFeeVnd: number; discountVnd: number; totalVnd: number };
  voucher: { code: string; redemptionId: string; promotionId: string } | null;
  /**
   * WALLET: the hold (AUTHORIZED) of the total; GATEWAY: the gateway payment (PENDING until paid); CASH: none (the
   * courier collects it). The payment is taken for the platform (no payee): orders pays the store and the courier out.
   * `status`: the payment's status at checkout, for the caller's records only (not stored: a gateway payment's outcome
   * reaches the order through the payments trigger, a MOCK one's too).
   */
  payment: { method: OrderPaymentMethod; provider: 'VNPAY' | 'MOMO' | 'MOCK' | null; paymentId: string | null; status?: PaymentStatus | null };
  /** Required by checkout when a line requires a prescription. */
  prescriptionMediaId: string | null;
  note: string | null;
  prepTimeMin: number;
  /** Epoch ms. */
  at: number;
}

/** The stored order of a draft: PLACED, or AWAITING_PAYMENT for a gateway payment (its outcome moves it on). */
export function orderOf(draft: OrderDraft, settings: Pick<OrderSettings, 'confirmTimeoutSec'>): OrderRecord {
  const awaiting = draft.payment.method === 'GATEWAY';
  const at = draft.at;
  return {
    id: draft.id,
    consumerId: draft.consumerId,
    partnerId: draft.partnerId,
    seller: { kind: draft.seller.kind, id: draft.seller.id },
    sellerKey: sellerKeyOf(draft.seller),
    sellerName: draft.sellerName,
    participants: [draft.consumerId],
    status: awaiting ? 'AWAITING_PAYMENT' : 'PLACED',
    pickup: { lat: draft.pickup.lat, lng: draft.pickup.lng, address: draft.pickup.address },
    dropoff: { ...draft.dropoff },
    distanceM: draft.distanceM,
    lines: draft.lines.map((l) => ({ ...l, options: l.options.map((o) => ({ ...o, choices: o.choices.map((c) => ({ ...c })) })) })),
    pricing: { ...draft.pricing },
    voucher: draft.voucher ? { ...draft.voucher } : null,
    payment: { method: draft.payment.method, provider: draft.payment.provider, paymentId: draft.payment.paymentId },
    prescriptionMediaId: draft.prescriptionMediaId,
    note: draft.note,
    prepTimeMin: draft.prepTimeMin,
    driverId: null,
    courier: null,
    proof: null,
    cancelledBy: null,
    cancelReason: null,
    cancelReasonCode: null,
    settlement: { stockReturned: false, payment: null, paymentId: null, voucherReleased: false, paidOut: false },
    confirmBy: awaiting ? null : at + settings.confirmTimeoutSec * 1000,
    courierSearchFrom: null,
    placedAt: awaiting ? null : at,
    confirmedAt: null,
    preparingAt: null,
    readyAt: null,
    assignedAt: null,
    pickedUpAt: null,
    deliveredAt: null,
    endedAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Writes the order, its first history line and its delivery code in the caller's transaction (reads nothing); answers
 * what it wrote, the stored order and its delivery code, for the caller's answer without reading them back.
 */
export function txPlace(tx: Transaction, draft: OrderDraft, settings: Pick<OrderSettings, 'confirmTimeoutSec'>): { record: OrderRecord; handoverCode: string } {
  const record = orderOf(draft, settings);
  const handover = newHandoverCodeState();
  ordersRepo.txCreate(tx, record, draft.consumerId);
  ordersRepo.txCreateHandover(tx, draft.id, { ...handover, createdAt: draft.at, updatedAt: draft.at });
  return { record, handoverCode: handover.code };
}

/** Unconfirmed orders: they hold the store's stock (and the consumer's money) until the store answers. */
export const PENDING_STATUSES: readonly OrderStatus[] = ['AWAITING_PAYMENT', 'PLACED'];

const closed = (details: { openNow: boolean; paused: boolean; active: boolean }, message: string) =>
  new ConflictError(message, details).withCode('ORDER_SELLER_CLOSED');

/**
 * In the placing transaction, before any of its writes: the store read again (a store paused, closed, archived or
 * hidden since the quote gets no order: 409 ORDER_SELLER_CLOSED) and the consumer's unconfirmed orders counted (409
 * ORDER_TOO_MANY_PENDING at the limit; a PLACED order past its `confirmBy` is about to expire and does not count). The
 * queries' results are read in the transaction, so of two checkouts at the limit's edge one commits and the other is
 * retried and refused.
 */
export async function txCheckPlacing(
  tx: Transaction,
  draft: Pick<OrderDraft, 'consumerId' | 'seller'>,
  deps: { sellers: Pick<SellersPort, 'get'>; settings: Pick<OrderSettings, 'maxPendingPerConsumer'>; now?: () => number },
): Promise<void> {
  const max = deps.settings.maxPendingPerConsumer;
  const at = (deps.now ?? Date.now)();
  const [seller, open] = await Promise.all([deps.sellers.get(draft.seller, tx), ordersRepo.txCountPending(tx, draft.consumerId, at, max)]);
  if (!seller) throw closed({ openNow: false, paused: false, active: false }, 'The store is no longer on the platform');
  if (!seller.accepting) throw closed({ openNow: seller.openNow, paused: seller.paused, active: true }, `${seller.name} is not taking orders now`);
  if (open >= max)
    throw new ConflictError(`You have ${max} orders waiting for their store already: wait until one is confirmed or cancel one`, {
      maxPending: max,
    }).withCode('ORDER_TOO_MANY_PENDING');
}

/** One line of a past order as a cart line asks for it again (item, options, note), with the name it had then. */
export interface OrderLineRequest {
  itemKey: string;
  name: string;
  quantity: number;
  options?: Array<{ group: string; choices: string[] }>;
  note?: string;
}

/** What reordering needs of one of the consumer's orders (any status): its store and its lines; undefined when not theirs. */
export async function orderLinesFor(orderId: string, consumerId: string): Promise<{ seller: SellerRef; lines: OrderLineRequest[] } | undefined> {
  const order = await ordersRepo.get(orderId);
  if (!order || order.consumerId !== consumerId) return undefined;
  return {
    seller: { kind: order.seller.kind, id: order.seller.id },
    lines: order.lines.map((l) => ({
      itemKey: l.itemKey,
      name: l.name,
      quantity: l.quantity,
      ...(l.options.length > 0 ? { options: l.options.map((o) => ({ group: o.group, choices: o.choices.map((c) => c.key) })) } : {}),
      ...(l.note ? { note: l.note } : {}),
    })),
  };
}
