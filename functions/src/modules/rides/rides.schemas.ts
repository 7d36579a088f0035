import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { LatLngBodySchema, NearbyQuerySchema, radiusQuerySchema } from '../../platform/kits/geo/geo';
import { PAYMENT_METHODS, RIDE_CLASSES, RIDE_STATUSES } from './rides.model';
import { IsoTimeSchema, IsoDateSchema } from '../../platform/kits/time/time.schemas';

const PlaceSchema = LatLngBodySchema.extend({
  address: z.string().trim().max(300).optional().describe('What the rider typed or picked, shown to the driver'),
}).meta({ id: 'RidePlace' });

export const QuoteBodySchema = z
  .object({
    pickup: LatLngBodySchema,
    dropoff: LatLngBodySchema,
    vehicleType: z.enum(RIDE_CLASSES).optional().describe('Absent: a quote for every vehicle type'),
  })
  .refine((b) => b.pickup.lat !== b.dropoff.lat || b.pickup.lng !== b.dropoff.lng, { message: 'pickup and dropoff must differ', path: ['dropoff'] })
  .meta({ id: 'RideQuoteRequest' });

export const QuoteListSchema = z
  .object({
    quotes: z.array(
      z.object({
        quoteId: z.string().describe('Signed: pass it to POST /rides within 5 minutes to book at this fare'),
        vehicleType: z.enum(RIDE_CLASSES),
        fare: z.number().int().describe('VND'),
        currency: z.literal('VND'),
        distanceM: z.number().int(),
        durationSec: z.number().int(),
        surge: z.number().describe('Multiplier from demand and supply around the pickup (1 to 2)'),
        expiresAt: IsoTimeSchema,
      }),
    ),
  })
  .meta({ id: 'RideQuotes' });

export const CreateRideBodySchema = z
  .object({
    pickup: PlaceSchema,
    dropoff: PlaceSchema,
    vehicleType: z.enum(RIDE_CLASSES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    quoteId: z.string().min(10).max(2000).optional(),
    note: z.string().trim().max(300).optional().describe('For the driver (gate, landmark)'),
  })
  .refine((b) => b.pickup.lat !== b.dropoff.lat || b.pickup.lng !== b.dropoff.lng, { message: 'pickup and dropoff must differ', path: ['dropoff'] })
  .meta({ id: 'CreateRideRequest' });

const VehicleCardSchema = z.object({ type: z.string(), plate: z.string(), model: z.string().nullable(), color: z.string().nullable() });

export const RideSchema = z
  .object({
    id: z.string(),
    riderId: z.string(),
    driverId: z.string().nullable(),
    status: z.enum(RIDE_STATUSES),
    vehicleType: z.enum(RIDE_CLASSES),
    pickup: PlaceSchema.extend({ address: z.string().nullable().optional() }),
    dropoff: PlaceSchema.extend({ address: z.string().nullable().optional() }),
    quote: z.object({ fare: z.number().int(), distanceM: z.number().int(), durationSec: z.number().int(), surgeBp: z.number().int() }),
    paymentMethod: z.enum(PAYMENT_METHODS),
    paymentId: z.string().nullable().describe('WALLET: the hold, then the captured payment; CASH: the recorded payment once completed'),
    fare: z.number().int().nullable().describe('Final fare (COMPLETED): what was driven, at most quote × 1.2'),
    drivenM: z.number().int().nullable(),
    cancellationFee: z.number().int(),
    driver: z.object({ name: z.string(), vehicle: VehicleCardSchema.nullable(), rating: z.number().nullable() }).nullable(),
    etaToPickupSec: z.number().int().nullable(),
    note: z.string().nullable(),
    cancelledBy: z.enum(['rider', 'driver', 'admin', 'system']).nullable(),
    cancelReason: z.string().nullable(),
    rating: z.object({ stars: z.number().int(), comment: z.string().nullable() }).nullable(),
    createdAt: IsoTimeSchema,
    confirmedAt: IsoTimeSchema.nullable(),
    arrivedAt: IsoTimeSchema.nullable(),
    pickedUpAt: IsoTimeSchema.nullable(),
    completedAt: IsoTimeSchema.nullable(),
    endedAt: IsoTimeSchema.nullable(),
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Ride' });

export const CurrentRideSchema = z.object({ ride: RideSchema.nullable() }).meta({ id: 'CurrentRide' });
export const RideListSchema = z
  .object({
    items: z.array(RideSchema.extend({ earnings: z.number().int().optional().describe('Driver history: my share of the fare') })),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'RideList' });
export const RideListQuerySchema = PageQuerySchema;

export const CancelBodySchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'RideCancel' });
export const RatingBodySchema = z.object({ stars: z.number().int().min(1).max(5), comment: z.string().trim().max(500).optional() }).meta({ id: 'RideRating' });
export const RideNoteBodySchema = z
  .object({ note: z.string().trim().max(300).nullable().describe('For the driver (gate, landmark); null or empty clears it') })
  .strict()
  .meta({ id: 'RideNoteUpdate' });
export const RiderRatingGivenSchema = z
  .object({ rideId: z.string(), stars: z.number().int(), comment: z.string().nullable(), ratedAt: IsoTimeSchema })
  .meta({ id: 'RiderRatingGiven' });
export const RiderRatingSchema = z
  .object({ riderId: z.string(), average: z.number().nullable().describe('Null before the first rating'), count: z.number().int() })
  .meta({ id: 'RiderRating' });
export const SosBodySchema = z.object({ message: z.string().trim().max(500).optional(), location: LatLngBodySchema.optional() }).meta({ id: 'RideSosRequest' });
export const SosSchema = z
  .object({
    id: z.string(),
    rideId: z.string(),
    raisedBy: z.string(),
    role: z.enum(['RIDER', 'DRIVER']),
    message: z.string().nullable(),
    location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    status: z.enum(['OPEN', 'RESOLVED']),
    note: z.string().nullable(),
    resolvedBy: z.string().nullable(),
    resolvedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'RideSos' });
export const SosCreatedSchema = SosSchema.extend({ created: z.boolean().describe('false: a retry of an alert already raised') }).meta({ id: 'RideSosCreated' });
export const SosListSchema = z.object({ items: z.array(SosSchema), nextCursor: z.string().nullable() }).meta({ id: 'RideSosList' });
export const SosQueueQuerySchema = PageQuerySchema.extend({ status: z.enum(['OPEN', 'RESOLVED']).optional() });
export const ResolveSosBodySchema = z.object({ note: z.string().trim().max(500).optional() }).meta({ id: 'RideSosResolve' });

export const RideEventsSchema = z
  .object({
    items: z.array(z.object({ action: z.string(), from: z.string(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() })),
  })
  .meta({ id: 'RideEvents' });

export const FaresSchema = z
  .object({
    currency: z.literal('VND'),
    fares: z.array(
      z.object({ vehicleType: z.enum(RIDE_CLASSES), base: z.number().int(), perKm: z.number().int(), perMin: z.number().int(), min: z.number().int() }),
    ),
    maxSurge: z.number(),
    finalFareCap: z.number().describe('The final fare is at most the quote times this'),
    quoteTtlSec: z.number().int(),
  })
  .meta({ id: 'RideFares' });

/** How far the rider's map looks for free drivers. */
export const DRIVERS_NEARBY_MAX_RADIUS_M = 10_000;
export const NearbyDriversQuerySchema = NearbyQuerySchema.pick({ lat: true, lng: true }).extend({
  radiusM: radiusQuerySchema(DRIVERS_NEARBY_MAX_RADIUS_M),
  vehicleType: z.enum(RIDE_CLASSES).default('MOTORBIKE'),
});
export const NearbyDriversSchema = z
  .object({
    count: z.number().int(),
    vehicleType: z.enum(RIDE_CLASSES),
    drivers: z.array(z.object({ lat: z.number(), lng: z.number(), distanceM: z.number().int() })).describe('Positions rounded to about 100 m; no identities'),
  })
  .meta({ id: 'NearbyDrivers' });

export const TipBodySchema = z.object({ amount: z.number().int().min(1_000).max(500_000) }).meta({ id: 'RideTip' });
export const TipSchema = z.object({ rideId: z.string(), paymentId: z.string(), amount: z.number().int(), status: z.string() }).meta({ id: 'RideTipResult' });
export const DriverRatingSchema = z.object({ driverId: z.string(), average: z.number().nullable(), count: z.number().int() }).meta({ id: 'DriverRating' });
export const AdminRidesQuerySchema = PageQuerySchema.extend({
  status: z.enum(RIDE_STATUSES).optional(),
  riderId: z.string().min(1).max(200).optional(),
  driverId: z.string().min(1).max(200).optional(),
}).refine((q) => [q.status, q.riderId, q.driverId].filter((v) => v !== undefined).length <= 1, {
  message: 'use at most one of status, riderId and driverId',
  path: ['status'],
});

export const DriverLocationViewSchema = z
  .object({
    rideId: z.string(),
    driverId: z.string(),
    location: z.object({ lat: z.number(), lng: z.number(), heading: z.number().nullable(), speedKmh: z.number().nullable(), at: IsoTimeSchema }).nullable(),
    distanceToPickupM: z.number().int().optional(),
  })
  .meta({ id: 'RideDriverLocation' });

export const RideReceiptSchema = z
  .object({
    rideId: z.string(),
    status: z.enum(RIDE_STATUSES),
    currency: z.literal('VND'),
    vehicleType: z.enum(RIDE_CLASSES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    paymentId: z.string().nullable(),
    quoted: z.object({ fare: z.number().int(), distanceM: z.number().int(), durationSec: z.number().int(), surge: z.number() }),
    drivenM: z.number().int().nullable().describe('Distance driven between pickup and drop-off'),
    durationSec: z.number().int().nullable().describe('Pickup to drop-off'),
    fare: z.number().int().describe('Final fare of a COMPLETED ride (0 otherwise)'),
    cancellationFee: z.number().int(),
    total: z.number().int().describe('What the rider was charged: the fare or the cancellation fee'),
    split: z.object({ commission: z.number().int(), driverEarnings: z.number().int() }).nullable().describe('For the driver and administrators only'),
    endedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'RideReceipt' });

export const RideLegSchema = z
  .object({
    rideId: z.string(),
    leg: z.enum(['TO_PICKUP', 'TRIP']).describe('TO_PICKUP while the driver comes (from their last position); TRIP otherwise'),
    from: LatLngBodySchema,
    to: LatLngBodySchema,
    distanceM: z.number().int(),
    durationSec: z.number().int(),
    polyline: z.string().describe('Google encoded polyline, precision 5'),
    provider: z.string(),
  })
  .meta({ id: 'RideLeg' });

export const RideShareSchema = z
  .object({ rideId: z.string(), token: z.string(), path: z.string().describe('GET it under /api/v1 without signing in'), expiresAt: IsoTimeSchema })
  .meta({ id: 'RideShare' });
export const ShareTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'not a trip link token') });
export const SharedRideSchema = z
  .object({
    status: z.enum(RIDE_STATUSES),
    vehicleType: z.enum(RIDE_CLASSES),
    pickup: z.object({ lat: z.number(), lng: z.number(), address: z.string().nullable() }),
    dropoff: z.object({ lat: z.number(), lng: z.number(), address: z.string().nullable() }),
    driver: z
      .object({
        name: z.string(),
        vehicle: z.object({ type: z.string(), plate: z.string(), model: z.string().nullable(), color: z.string().nullable() }).nullable(),
      })
      .nullable(),
    driverLocation: z
      .object({ lat: z.number(), lng: z.number(), heading: z.number().nullable(), at: IsoTimeSchema })
      .nullable()
      .describe('While the ride is under way'),
    etaToPickupSec: z.number().int().nullable(),
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SharedRide' });

export const RideChatSchema = z
  .object({ rideId: z.string(), conversationId: z.string().describe('Use the chat API: GET/POST /chat/conversations/:id/messages') })
  .meta({ id: 'RideChat' });

export const DriverSummaryQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(31).default(7).describe('Including today (Vietnam time)') });
const DayFiguresSchema = z.object({ rides: z.number().int(), fares: z.number().int(), earnings: z.number().int(), drivenM: z.number().int() });
export const DriverSummarySchema = z
  .object({
    driverId: z.string(),
    currency: z.literal('VND'),
    from: IsoTimeSchema,
    days: z.array(DayFiguresSchema.extend({ date: IsoDateSchema.describe('YYYY-MM-DD, Vietnam time') })),
    totals: DayFiguresSchema,
  })
  .meta({ id: 'DriverRideSummary' });

export const DriverRatingsSchema = z
  .object({
    items: z.array(
      z.object({
        stars: z.number().int(),
        comment: z.string().nullable(),
        ratedOn: IsoDateSchema.describe('YYYY-MM-DD, Vietnam time: never the ride, the rider or the minute'),
      }),
    ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'DriverRatings' });

export const AdminStatsQuerySchema = z.object({ hours: z.coerce.number().int().min(1).max(168).default(24) });
export const AdminRideStatsSchema = z
  .object({
    since: IsoTimeSchema,
    booked: z.number().int(),
    byStatus: z.record(z.enum(RIDE_STATUSES), z.number().int()).describe('Rides booked since then, by their status now'),
    matchRate: z.number().nullable().describe('Share of bookings that got a driver'),
    freeDrivers: z.record(z.enum(RIDE_CLASSES), z.number().int()).describe('ONLINE and not on a ride, now'),
  })
  .meta({ id: 'AdminRideStats' });

export const AdminCompleteBodySchema = z
  .object({
    fare: z.enum(['QUOTE', 'DRIVEN']).describe('QUOTE: the quoted fare; DRIVEN: priced on the distance driven since pickup and the time (at most quote × 1.2)'),
    reason: z.string().trim().min(1).max(500).describe('Kept in the ride’s events'),
  })
  .meta({ id: 'RideAdminComplete' });

export const DISPUTE_REASONS = ['FARE', 'ROUTE', 'NOT_TAKEN', 'CONDUCT', 'OTHER'] as const;
export const DisputeBodySchema = z
  .object({ reason: z.enum(DISPUTE_REASONS), message: z.string().trim().max(1000).optional() })
  .meta({ id: 'RideDisputeRequest' });
export const DisputeSchema = z
  .object({
    id: z.string(),
    rideId: z.string(),
    riderId: z.string(),
    driverId: z.string().nullable(),
    reason: z.enum(DISPUTE_REASONS),
    message: z.string().nullable(),
    fare: z.number().int().nullable().describe('The fare (or, for a cancelled ride, the cancellation fee) charged, when it was disputed'),
    status: z.enum(['OPEN', 'RESOLVED']),
    outcome: z.enum(['REJECTED', 'REFUNDED']).nullable().describe('The administrator’s decision; null while OPEN'),
    refundAmount: z.number().int().nullable().describe('VND given back to the rider (REFUNDED)'),
    refundPaymentId: z.string().nullable().describe('The payment refunded (REFUNDED)'),
    note: z.string().nullable(),
    resolvedBy: z.string().nullable(),
    resolvedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'RideDispute' });
export const ResolveDisputeBodySchema = z
  .object({
    outcome: z.enum(['REJECTED', 'REFUNDED']),
    amount: z.number().int().min(1).max(100_000_000).optional().describe('REFUNDED: VND to give back, at most what the rider paid (default: all of it)'),
    note: z.string().trim().min(1).max(1000).describe('Why: kept on the dispute and the refund'),
  })
  .meta({ id: 'RideDisputeResolve' });
export const DisputeListSchema = z.object({ items: z.array(DisputeSchema), nextCursor: z.string().nullable() }).meta({ id: 'RideDisputeList' });
