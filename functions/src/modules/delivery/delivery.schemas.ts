import { z } from 'zod';
import { PhoneSchema } from '../../platform/core/http/contact';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { DELIVERY_COD_MAX_VND } from './delivery.config';
import { DELIVERY_STATUSES } from './delivery.machine';
import { DELIVERY_PAYMENT_METHODS, PARCEL_SIZES } from './delivery.model';

const address = z.string().trim().min(3).max(300).describe('The address as the sender typed or picked it, shown to the driver');
const PointSchema = LatLngBodySchema.extend({ address }).meta({ id: 'DeliveryPoint' });
const CodSchema = priceRange(0, DELIVERY_COD_MAX_VND).describe(`Cash the driver collects from the recipient for the sender (0 to ${DELIVERY_COD_MAX_VND} VND)`);

export const DeliveryQuoteBodySchema = z
  .object({
    pickup: PointSchema,
    dropoff: PointSchema,
    size: z.enum(PARCEL_SIZES).describe('See GET /delivery/tariff for what fits each size'),
    codAmount: CodSchema.optional(),
  })
  .refine((b) => b.pickup.lat !== b.dropoff.lat || b.pickup.lng !== b.dropoff.lng, { message: 'pickup and dropoff must differ', path: ['dropoff'] })
  .meta({ id: 'DeliveryQuoteRequest' });

export const DeliveryQuoteSchema = z
  .object({
    quoteId: z.string().describe('Signed: pass it to POST /delivery/orders before expiresAt to send at this fee'),
    currency: z.literal('VND'),
    feeVnd: z.number().int().describe('The delivery fee: ⌈(base + distance) × size multiplier⌉ to 1,000 VND, plus the cash-on-delivery fee'),
    breakdown: z.object({
      baseVnd: z.number().int().describe('Covers the first DELIVERY_BASE_KM of road'),
      distanceVnd: z.number().int().describe('Per kilometre beyond them'),
      sizeMultiplier: z.number(),
      codFeeVnd: z.number().int(),
    }),
    distanceM: z.number().int().describe('Road distance (straight line × the road factor)'),
    size: z.enum(PARCEL_SIZES),
    codAmount: z.number().int(),
    pickup: PointSchema,
    dropoff: PointSchema,
    expiresAt: IsoTimeSchema,
  })
  .meta({ id: 'DeliveryQuote' });

const name = z.string().trim().min(1).max(100);

export const PlaceDeliveryBodySchema = z
  .object({
    quoteId: z.string().min(10).max(4000),
    sender: z
      .object({ name: name.optional(), phone: PhoneSchema.optional() })
      .optional()
      .describe('Who the driver calls at the pickup; defaults to my name and phone (a phone is required)'),
    recipient: z.object({ name, phone: PhoneSchema }).describe('Who receives the parcel (the driver calls them; the sender passes them the drop-off code)'),
    parcel: z.object({ description: z.string().trim().min(1).max(200).describe('What is in it (shown to the driver)') }),
    codAmount: CodSchema.optional().describe("Cash on delivery: when given, must be the quote's"),
    paymentMethod: z
      .enum(DELIVERY_PAYMENT_METHODS)
      .describe('How the sender pays the fee: WALLET (held now, taken on delivery) or CASH to the driver at pickup'),
    note: z.string().trim().max(300).nullable().optional().describe('For the driver (gate, floor, fragile)'),
  })
  .meta({ id: 'PlaceDeliveryRequest' });

const ContactSchema = z.object({ name: z.string(), phone: z.string() });
const ProofSchema = z
  .object({ method: z.enum(['CODE', 'PHOTO']), photo: z.object({ id: z.string(), url: z.string() }).nullable(), at: IsoTimeSchema })
  .meta({ id: 'DeliveryHandoverProof' });

export const DeliverySchema = z
  .object({
    id: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    senderId: z.string(),
    driverId: z.string().nullable(),
    driver: z
      .object({ name: z.string(), phone: z.string().nullable(), vehicle: z.object({ type: z.string(), plate: z.string() }).nullable() })
      .nullable()
      .describe('Once assigned'),
    pickup: PointSchema.extend({ contact: ContactSchema }),
    dropoff: PointSchema.extend({ contact: ContactSchema }),
    parcel: z.object({ size: z.enum(PARCEL_SIZES), description: z.string() }),
    note: z.string().nullable(),
    distanceM: z.number().int(),
    currency: z.literal('VND'),
    feeVnd: z.number().int(),
    codAmount: z.number().int(),
    paymentMethod: z.enum(DELIVERY_PAYMENT_METHODS),
    cancellationFeeVnd: z.number().int(),
    codes: z
      .object({
        pickup: z.string().nullable().describe('Give it to the driver at pickup (until picked up)'),
        dropoff: z.string().nullable().describe('Pass it to the recipient, who gives it to the driver (until delivered)'),
      })
      .nullable()
      .describe("The hand-over codes: the sender's only (null for the driver and administrators)"),
    pickupProof: ProofSchema.nullable(),
    deliveryProof: ProofSchema.nullable(),
    cancelledBy: z.enum(['SENDER', 'ADMIN']).nullable(),
    cancelReason: z.string().nullable(),
    rating: z.object({ stars: z.number().int(), comment: z.string().nullable(), at: IsoTimeSchema }).nullable().describe('Never shown to the driver'),
    actions: z.array(z.string()).describe('The moves the reader may make now'),
    assignBy: IsoTimeSchema.nullable().describe('CREATED: NO_DRIVER if nobody takes it by then'),
    createdAt: IsoTimeSchema,
    assignedAt: IsoTimeSchema.nullable(),
    pickedUpAt: IsoTimeSchema.nullable(),
    deliveredAt: IsoTimeSchema.nullable(),
    endedAt: IsoTimeSchema.nullable(),
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Delivery' });

export const DeliveryListSchema = z.object({ items: z.array(DeliverySchema), nextCursor: z.string().nullable() }).meta({ id: 'DeliveryList' });

export const MyDeliveriesQuerySchema = PageQuerySchema.extend({
  as: z.enum(['SENDER', 'DRIVER']).default('SENDER').describe('SENDER: parcels I sent; DRIVER: parcels I carried'),
});

export const AdminDeliveriesQuerySchema = PageQuerySchema.extend({ status: z.enum(DELIVERY_STATUSES).optional() });

export const HandoverBodySchema = z
  .object({
    code: z
      .string()
      .regex(/^\d{4}$/, { message: 'must be 4 digits' })
      .optional()
      .describe('The 4-digit code: the sender’s at pickup, the recipient’s at drop-off'),
    photoId: z.string().trim().min(1).max(128).optional().describe('Or a photo of the hand-over: the id of my own READY image upload (POST /media)'),
  })
  .refine((b) => (b.code === undefined) !== (b.photoId === undefined), { message: 'give either code or photoId', path: ['code'] })
  .meta({ id: 'DeliveryHandoverRequest' });

export const CancelDeliveryBodySchema = z.object({ reason: z.string().trim().min(1).max(300).nullable().optional() }).meta({ id: 'CancelDeliveryRequest' });

export const AdminCancelDeliveryBodySchema = z.object({ reason: z.string().trim().min(3).max(300) }).meta({ id: 'AdminCancelDeliveryRequest' });

export const RateDeliveryBodySchema = z
  .object({ stars: z.number().int().min(1).max(5), comment: z.string().trim().max(500).nullable().optional() })
  .meta({ id: 'RateDeliveryRequest' });

export const DeliveryRatingSchema = z
  .object({ deliveryId: z.string(), stars: z.number().int(), comment: z.string().nullable(), createdAt: IsoTimeSchema })
  .meta({ id: 'DeliveryRating' });

export const CourierCurrentSchema = z
  .object({
    job: z
      .object({ kind: z.enum(['ORDER', 'DELIVERY', 'SCHOOL_TRIP']), id: z.string() })
      .nullable()
      .describe('The job I am on: an order (open it in the orders screen), a parcel, or a school trip (GET /school-trips/{id})'),
    delivery: DeliverySchema.nullable().describe('The parcel, when the job is one'),
  })
  .meta({ id: 'CourierCurrentJob' });

export const DeliveryHistorySchema = z
  .object({
    items: z.array(z.object({ action: z.string(), from: z.string(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() })),
  })
  .meta({ id: 'DeliveryHistory' });

export const DeliveryTariffSchema = z
  .object({
    currency: z.literal('VND'),
    baseFeeVnd: z.number().int(),
    baseKm: z.number(),
    perKmVnd: z.number().int(),
    roadFactor: z.number(),
    codFeeVnd: z.number().int(),
    codMaxVnd: z.number().int(),
    minDistanceM: z.number().int(),
    maxDistanceM: z.number().int(),
    quoteTtlSec: z.number().int(),
    cancelFeeVnd: z.number().int().describe('Paid to the driver when the sender cancels after one was assigned'),
    noDriverWindowSec: z.number().int(),
    sizes: z.array(
      z.object({
        size: z.enum(PARCEL_SIZES),
        multiplier: z.number(),
        maxWeightKg: z.number(),
        maxDimensionsCm: z.array(z.number()).describe('Length, width, height'),
        examples: z.string(),
      }),
    ),
  })
  .meta({ id: 'DeliveryTariff' });
