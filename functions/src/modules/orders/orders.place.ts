import type { Transaction } from 'firebase-admin/firestore';
import type { OrderSettings } from './orders.config';
import { newHandoverCodeState } from '../../platform/kits/handover/handover';
import type { OrderPaymentMethod, OrderRecord } from './orders.model';
import { sellerKeyOf } from './orders.model';
import type { PricedLine, SellerRef } from './orders.ports';
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
   */
  payment: { method: OrderPaymentMethod; provider: 'VNPAY' | 'MOMO' | 'MOCK' | null; paymentId: string | null };
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
    payment: { ...draft.payment },
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

/** Writes the order, its first history line and its delivery code in the caller's transaction (reads nothing). */
export function txPlace(tx: Transaction, draft: OrderDraft, settings: Pick<OrderSettings, 'confirmTimeoutSec'>): void {
  const record = orderOf(draft, settings);
  ordersRepo.txCreate(tx, record, draft.consumerId);
  ordersRepo.txCreateHandover(tx, draft.id, { ...newHandoverCodeState(), createdAt: draft.at, updatedAt: draft.at });
}
