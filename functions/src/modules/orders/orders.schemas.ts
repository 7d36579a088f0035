import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { ORDER_ACTIONS, ORDER_STATUSES } from './orders.machine';
import { CANCELLERS, ORDER_PAYMENT_METHODS, ORDER_PROVIDERS, ORDER_SYSTEM_REASONS, SELLER_KINDS } from './orders.model';

const Vnd = z.number().int().describe('VND');

/** `status=PLACED,CONFIRMED`: one or more statuses (at most 10), comma-separated. */
const StatusFilterSchema = z
  .string()
  .transform((s) => [...new Set(s.split(',').map((x) => x.trim()))])
  .pipe(z.array(z.enum(ORDER_STATUSES)).min(1).max(10))
  .optional()
  .describe('One or more statuses, comma-separated (e.g. `PLACED,CONFIRMED`)');

export const OrderListQuerySchema = PageQuerySchema.extend({ status: StatusFilterSchema });

export const AdminOrderListQuerySchema = PageQuerySchema.extend({
  status: StatusFilterSchema,
  consumerId: DocumentIdSchema.optional(),
  driverId: DocumentIdSchema.optional(),
  partnerId: DocumentIdSchema.optional(),
  sellerKind: z.enum(SELLER_KINDS).optional(),
  sellerId: DocumentIdSchema.optional(),
})
  .refine((q) => [q.consumerId, q.driverId, q.partnerId, q.sellerId].filter(Boolean).length <= 1, {
    message: 'filter by at most one of consumerId, driverId, partnerId, sellerId',
    path: ['consumerId'],
  })
  .refine((q) => !q.sellerKind || q.sellerId, { message: 'sellerKind goes with sellerId', path: ['sellerId'] });

export const ReasonBodySchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'OrderReason' });
export const RequiredReasonBodySchema = z.object({ reason: z.string().trim().min(1).max(300) }).meta({ id: 'OrderRequiredReason' });

export const DeliverBodySchema = z
  .object({
    code: z
      .string()
      .regex(/^\d{4}$/, 'must be 4 digits')
      .optional()
      .describe('The 4-digit code the consumer sees'),
    photoMediaId: DocumentIdSchema.optional().describe('Or a photo of the hand-over: one of your READY image uploads'),
  })
  .refine((b) => (b.code === undefined) !== (b.photoMediaId === undefined), { message: 'send either code or photoMediaId', path: ['code'] })
  .meta({ id: 'OrderDelivery' });

const StarsSchema = z.object({ stars: z.number().int().min(1).max(5), comment: z.string().trim().max(500).optional() });
export const RateBodySchema = z
  .object({ store: StarsSchema.describe('The store'), courier: StarsSchema.optional().describe('The courier') })
  .meta({ id: 'OrderRatingRequest' });

const GivenStarsSchema = z.object({ stars: z.number().int(), comment: z.string().nullable() });
export const OrderRatingSchema = z
  .object({ orderId: z.string(), store: GivenStarsSchema, courier: GivenStarsSchema.nullable(), ratedAt: IsoTimeSchema })
  .meta({ id: 'OrderRating' });

const OptionSchema = z.object({
  group: z.string(),
  groupName: z.string(),
  choices: z.array(z.object({ key: z.string(), name: z.string(), priceDeltaVnd: Vnd })),
});

export const OrderSchema = z
  .object({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    consumerId: z.string(),
    partnerId: z.string(),
    seller: z.object({ kind: z.enum(SELLER_KINDS), id: z.string(), name: z.string() }),
    pickup: z.object({ lat: z.number(), lng: z.number(), address: z.string() }),
    dropoff: z.object({
      lat: z.number(),
      lng: z.number(),
      address: z.string(),
      recipientName: z.string().nullable(),
      phone: z.string().nullable(),
      note: z.string().nullable(),
      addressId: z.string().nullable(),
    }),
    distanceM: z.number().int(),
    lines: z.array(
      z.object({
        itemKey: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        unitPriceVnd: Vnd,
        lineTotalVnd: Vnd,
        options: z.array(OptionSchema),
        requiresPrescription: z.boolean(),
        note: z.string().optional(),
      }),
    ),
    pricing: z.object({ itemsVnd: Vnd, deliveryFeeVnd: Vnd, serviceFeeVnd: Vnd, discountVnd: Vnd, totalVnd: Vnd }),
    voucher: z.object({ code: z.string() }).nullable(),
    payment: z.object({
      method: z.enum(ORDER_PAYMENT_METHODS),
      provider: z.enum(ORDER_PROVIDERS).nullable(),
      paymentId: z.string().nullable(),
      settled: z
        .enum(['RELEASED', 'REFUNDED', 'CAPTURED', 'COLLECTED', 'PAID', 'NONE'])
        .nullable()
        .describe('What happened to the money: released or refunded (called off), captured, paid or collected (delivered)'),
    }),
    prescriptionMediaId: z.string().nullable(),
    prescriptionUrl: z
      .string()
      .nullable()
      .describe(
        'A link to the prescription image that works for 15 minutes (made afresh on every read), for the store to check before confirming: the consumer and the store while the order is live (PLACED to PICKED_UP), administrators always, the courier never; lists leave it null',
      ),
    note: z.string().nullable(),
    prepTimeMin: z.number().int(),
    driverId: z.string().nullable().describe('The courier'),
    courier: z.object({ name: z.string() }).nullable(),
    handoverCode: z.string().nullable().describe('The consumer only, until delivery: the code to tell the courier'),
    proof: z.object({ kind: z.enum(['CODE', 'PHOTO']), mediaId: z.string().nullable() }).nullable(),
    cancelledBy: z.enum(CANCELLERS).nullable(),
    cancelReason: z.string().nullable(),
    cancelReasonCode: z
      .enum(Object.keys(ORDER_SYSTEM_REASONS) as [keyof typeof ORDER_SYSTEM_REASONS])
      .nullable()
      .describe('Set when the service called it off'),
    split: z
      .object({
        storeVnd: Vnd.nullable(),
        commissionVnd: Vnd.nullable(),
        courierVnd: Vnd.nullable(),
        collectVnd: Vnd.nullable().describe('Cash the courier collects'),
      })
      .describe('The store sees its payout and commission, the courier its earnings and the cash to collect'),
    rating: z.object({ store: GivenStarsSchema.nullable(), courier: GivenStarsSchema.nullable(), ratedAt: IsoTimeSchema }).nullable(),
    allowed: z.array(z.string()).describe('The moves the caller may make now'),
    confirmBy: IsoTimeSchema.nullable().describe('PLACED: cancelled and refunded if the store has not confirmed by then'),
    placedAt: IsoTimeSchema.nullable(),
    confirmedAt: IsoTimeSchema.nullable(),
    preparingAt: IsoTimeSchema.nullable(),
    readyAt: IsoTimeSchema.nullable(),
    assignedAt: IsoTimeSchema.nullable(),
    pickedUpAt: IsoTimeSchema.nullable(),
    deliveredAt: IsoTimeSchema.nullable(),
    endedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Order' });

export const OrderListSchema = z.object({ items: z.array(OrderSchema), nextCursor: z.string().nullable() }).meta({ id: 'OrderList' });
export const CurrentOrderSchema = z.object({ order: OrderSchema.nullable() }).meta({ id: 'CurrentCourierOrder' });

const ACTION_NAMES = ['place', ...ORDER_ACTIONS, 'payoutHeld'] as const;
export const OrderEventsSchema = z
  .object({
    items: z.array(
      z.object({
        action: z.enum(ACTION_NAMES),
        from: z.enum(ORDER_STATUSES).describe('`place` (the order placed) names its first status as both'),
        to: z.enum(ORDER_STATUSES),
        by: z.string().describe('Administrators: the account id; others: CONSUMER, STAFF, COURIER or SYSTEM'),
        at: IsoTimeSchema,
        reason: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'OrderEvents' });

export const OrderChatSchema = z.object({ orderId: z.string(), conversationId: z.string() }).meta({ id: 'OrderChat' });
