import type { HandoverCodeState } from '../../platform/kits/handover/handover';
import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { ORDER_STATUSES } from './orders.machine';

export { ORDER_HANDOVERS, ORDER_RATINGS, ORDERS } from './orders.collections';

export const ORDER_PAYMENT_METHODS = ['CASH', 'WALLET', 'GATEWAY'] as const;
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number];
export const ORDER_PROVIDERS = ['VNPAY', 'MOMO', 'MOCK'] as const;
export const SELLER_KINDS = ['MERCHANT', 'PHARMACY'] as const;
export const CANCELLERS = ['CONSUMER', 'STORE', 'ADMIN', 'SYSTEM'] as const;
/** Why the service itself called an order off (apps say it in their language). */
export const ORDER_SYSTEM_REASONS = {
  CONFIRM_TIMEOUT: 'The store did not confirm the order in time',
  PAYMENT_FAILED: 'The payment failed or expired',
} as const;
export type OrderSystemReason = keyof typeof ORDER_SYSTEM_REASONS;
const SYSTEM_REASON_CODES = Object.keys(ORDER_SYSTEM_REASONS) as [OrderSystemReason, ...OrderSystemReason[]];

const place = () => z.object({ lat: describe(z.number(), 'Latitude (WGS 84).'), lng: describe(z.number(), 'Longitude (WGS 84).'), address: z.string() });
const line = () =>
  z.object({
    itemKey: z.string(),
    name: z.string(),
    quantity: z.number(),
    unitPriceVnd: describe(z.number(), 'VND.'),
    lineTotalVnd: describe(z.number(), 'VND.'),
    options: z.array(
      z.object({
        group: z.string(),
        groupName: z.string(),
        choices: z.array(z.object({ key: z.string(), name: z.string(), priceDeltaVnd: z.number() })),
      }),
    ),
    requiresPrescription: z.boolean(),
    note: z.optional(z.string()),
  });

/** The courier search's and the pickup window's fields (absent on orders placed before them). */
const courierSearchFields = () => ({
  pickupBy: describe(
    z.optional(nullableTimestamp('a COURIER_ASSIGNED order not picked up by then is released (the search runs again).')),
    'Firestore Timestamp or null: the end of the pickup window (ORDER_PICKUP_WINDOW_MIN after the assignment or the store saying ready, whichever is later).',
  ),
  formerDriverIds: describe(
    z.optional(z.array(z.string())),
    'Couriers who gave the order up or were released from it (the latest 20): never offered it again.',
  ),
  courierAttempt: describe(z.optional(z.number()), "The courier search's round (each round's task is its own)."),
  courierRetryAt: describe(
    z.optional(nullableTimestamp('the next courier search after nobody was free (or at once after a courier left).')),
    'Firestore Timestamp or null: the next courier search after nobody was free, or after a courier left.',
  ),
  courierSearchFrom: nullableTimestamp('when the search for a courier starts (while PREPARING).'),
});

/** `orders/{orderId}`: the order its consumer and its courier listen to (store staff read it through the API). */
export const orderDocument = lazySchema(() =>
  describe(
    z.object({
      consumerId: describe(z.string(), 'Who ordered.'),
      partnerId: describe(z.string(), 'The partner that owns the store.'),
      seller: describe(z.object({ kind: z.enum(SELLER_KINDS), id: z.string() }), 'The store (a merchant or a pharmacy store).'),
      sellerKey: describe(z.string(), '`KIND:id` of the store (its queue).'),
      sellerName: z.string(),
      participants: describe(z.array(z.string()), 'The consumer and, once assigned, the courier: who may read this document (firestore.rules).'),
      status: describe(
        z.enum(ORDER_STATUSES),
        'AWAITING_PAYMENT → PLACED → CONFIRMED → PREPARING → READY_FOR_PICKUP → COURIER_ASSIGNED → PICKED_UP → DELIVERED; REJECTED; CANCELLED.',
      ),
      pickup: describe(place(), "The store's address."),
      dropoff: describe(
        z.object({
          lat: z.number(),
          lng: z.number(),
          address: z.string(),
          recipientName: z.nullable(z.string()),
          phone: z.nullable(z.string()),
          note: z.nullable(z.string()),
          addressId: z.nullable(z.string()),
        }),
        'Where it goes.',
      ),
      distanceM: describe(z.number(), 'Store to drop-off, metres.'),
      lines: z.array(line()),
      pricing: describe(
        z.object({ itemsVnd: z.number(), deliveryFeeVnd: z.number(), serviceFeeVnd: z.number(), discountVnd: z.number(), totalVnd: z.number() }),
        'VND, computed at checkout.',
      ),
      voucher: z.nullable(z.object({ code: z.string(), redemptionId: z.string(), promotionId: z.string() })),
      payment: describe(
        z.object({ method: z.enum(ORDER_PAYMENT_METHODS), provider: z.nullable(z.enum(ORDER_PROVIDERS)), paymentId: z.nullable(z.string()) }),
        'WALLET: the hold; GATEWAY: the gateway payment; CASH: the payment recorded on delivery.',
      ),
      prescriptionMediaId: z.nullable(z.string()),
      note: z.nullable(z.string()),
      prepTimeMin: describe(z.number(), "The store's preparation time, minutes."),
      driverId: describe(z.nullable(z.string()), 'The courier (account id), once assigned.'),
      courier: describe(z.nullable(z.object({ name: z.string() })), "The courier's card for the consumer."),
      proof: describe(z.nullable(z.object({ kind: z.enum(['CODE', 'PHOTO']), mediaId: z.nullable(z.string()) })), 'How the hand-over was proved.'),
      cancelledBy: z.nullable(z.enum(CANCELLERS)),
      cancelReason: describe(z.nullable(z.string()), "A person's words, or the service's reason in English (`cancelReasonCode`)."),
      cancelReasonCode: z.nullable(z.enum(SYSTEM_REASON_CODES)),
      settlement: describe(
        z.object({
          stockReturned: z.boolean(),
          payment: z.nullable(z.enum(['RELEASED', 'REFUNDED', 'CAPTURED', 'COLLECTED', 'PAID', 'NONE'])),
          paymentId: z.nullable(z.string()),
          voucherReleased: z.boolean(),
          paidOut: z.boolean(),
        }),
        'What happened to the money, stock and voucher (each done once).',
      ),
      confirmBy: nullableTimestamp('a PLACED order not confirmed by then is cancelled.'),
      ...courierSearchFields(),
      placedAt: nullableTimestamp('when the store got the order (paid, for a gateway payment).'),
      confirmedAt: nullableTimestamp('when the store confirmed.'),
      preparingAt: nullableTimestamp('when the store started preparing.'),
      readyAt: nullableTimestamp('when the store said it was ready (or the courier picked it up).'),
      assignedAt: nullableTimestamp('when the courier was assigned.'),
      pickedUpAt: nullableTimestamp('when the courier picked it up.'),
      deliveredAt: nullableTimestamp('when it was delivered.'),
      endedAt: nullableTimestamp('when it was delivered, rejected or cancelled.'),
      createdAt: timestamp('when it was placed at checkout.'),
      updatedAt: timestamp('last change.'),
    }),
    'An order, read live by its consumer and its courier (status, courier, times).',
  ),
);
export type OrderRecord = Identified & RecordOf<typeof orderDocument>;

/** `order_handovers/{orderId}` (API only): the delivery code the consumer tells the courier, and wrong tries (the handover kit's state). */
export interface HandoverRecord extends HandoverCodeState {
  createdAt: number;
  updatedAt: number;
}

/** `order_ratings/{orderId}` (API only): the consumer's stars for the store and the courier, once. */
export interface RatingRecord {
  orderId: string;
  consumerId: string;
  partnerId: string;
  sellerKey: string;
  driverId: string | null;
  store: { stars: number; comment: string | null };
  courier: { stars: number; comment: string | null } | null;
  ratedAt: number;
}

export const sellerKeyOf = (seller: { kind: string; id: string }) => `${seller.kind}:${seller.id}`;
