import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import {
  RideListSchema,
  RideSchema,
  SosListSchema,
  SosQueueQuerySchema,
  SosSchema,
  ResolveSosBodySchema,
  AdminRidesQuerySchema,
  AdminRideStatsSchema,
  AdminStatsQuerySchema,
  AdminCompleteBodySchema,
  DisputeListSchema,
  DisputeSchema,
  ResolveDisputeBodySchema,
} from './rides.schemas';
import { rideViewerOf as viewer } from './rides.service';
import { ridesServiceFor } from './rides.wiring';
import { MANAGE, MOVE_CODES } from './rides.http';

// The administrators' routes (ADMIN with rides.manage): every ride, the dashboard, the SOS and dispute queues, and
// ending a started trip whose driver cannot.
export function ridesAdminRoutes({ config }: AppContext): AnyRoute[] {
  const rides = () => ridesServiceFor(config);
  const tag = 'rides' as const;
  return [
    defineRoute({
      method: 'get',
      path: '/rides/admin',
      operationId: 'adminListRides',
      tag,
      summary: 'All rides, newest first, by status, rider or driver (ADMIN)',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { query: AdminRidesQuerySchema },
      response: { description: 'A page of rides.', schema: RideListSchema },
      handler: ({ auth, query }) => rides().adminList({ status: query.status, riderId: query.riderId, driverId: query.driverId }, query, auth!.userId),
    }),
    defineRoute({
      method: 'get',
      path: '/rides/admin/stats',
      operationId: 'adminGetRideStats',
      tag,
      summary: 'Rides booked in the last hours by status, the match rate, and free drivers now (ADMIN)',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { query: AdminStatsQuerySchema },
      response: { description: 'Counts.', schema: AdminRideStatsSchema },
      handler: ({ query }) => rides().adminStats(query.hours),
    }),
    defineRoute({
      method: 'get',
      path: '/rides/admin/sos',
      operationId: 'adminListSosAlerts',
      tag,
      summary: 'Emergency alerts raised in rides, newest first (ADMIN)',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { query: SosQueueQuerySchema },
      response: { description: 'A page of alerts.', schema: SosListSchema },
      handler: ({ auth, query }) => rides().sosQueue({ status: query.status }, query, auth!),
    }),
    defineRoute({
      method: 'post',
      path: '/rides/admin/sos/:id/resolve',
      operationId: 'adminResolveSosAlert',
      tag,
      summary: 'Mark an alert handled, with a note (ADMIN)',
      auth: ['ADMIN'],
      permission: MANAGE,
      errors: [404],
      request: { params: IdParamsSchema, body: ResolveSosBodySchema },
      response: { description: 'The RESOLVED alert.', schema: SosSchema },
      handler: ({ auth, params, body }) => rides().resolveSos(auth!, params.id, body.note ?? null),
    }),
    defineRoute({
      method: 'get',
      path: '/rides/admin/disputes',
      operationId: 'adminListRideDisputes',
      tag,
      summary: 'Riders’ disputes of completed rides, newest first (ADMIN, rides.manage)',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { query: SosQueueQuerySchema.omit({ status: true }) },
      response: { description: 'A page of disputes.', schema: DisputeListSchema },
      handler: ({ auth, query }) => rides().disputeQueue(query, auth!.userId),
    }),
    defineRoute({
      method: 'post',
      path: '/rides/admin/disputes/:id/resolve',
      operationId: 'adminResolveRideDispute',
      tag,
      summary: 'Settle a rider’s dispute: REJECTED, or REFUNDED up to what the rider paid (ADMIN, rides.manage)',
      description:
        'Once per dispute (409 RIDE_DISPUTE_RESOLVED). REFUNDED gives back `amount` (default: all the rider paid; more is 409 RIDE_REFUND_EXCEEDS) through the payments module’s refund, split back from the driver’s earnings and the platform’s fee; a cash fare is refunded in person (409 PAYMENT_NOT_REFUNDABLE, the dispute stays OPEN). Never by the ride’s rider or driver (403 RIDE_SELF_MANAGE).',
      auth: ['ADMIN'],
      permission: MANAGE,
      errors: [403, 404, 409],
      codes: [
        'RIDE_SELF_MANAGE',
        'RIDE_DISPUTE_RESOLVED',
        'RIDE_REFUND_EXCEEDS',
        'PAYMENT_NOT_REFUNDABLE',
        'PAYMENT_REFUND_EXCEEDS',
        'PAYMENT_REFUND_IN_FLIGHT',
      ],
      request: { params: IdParamsSchema, body: ResolveDisputeBodySchema },
      response: { description: 'The RESOLVED dispute.', schema: DisputeSchema },
      handler: ({ auth, params, body }) => rides().resolveDispute(viewer(auth!), params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/rides/admin/:id/complete',
      operationId: 'adminCompleteRide',
      tag,
      summary: 'End a started trip whose driver cannot: at the quote or at the distance driven (ADMIN, rides.manage)',
      description:
        'Only from IN_PROGRESS (409 RIDE_TRANSITION otherwise). WALLET: the fare is captured from the hold for the driver; CASH: recorded as the driver’s completion would. To end it without a charge instead, `POST /rides/{id}/cancel` (the hold goes back).',
      auth: ['ADMIN'],
      permission: MANAGE,
      errors: [403, 404, 409],
      codes: [...MOVE_CODES, 'RIDE_SELF_MANAGE'],
      request: { params: IdParamsSchema, body: AdminCompleteBodySchema },
      response: { description: 'The COMPLETED ride.', schema: RideSchema },
      handler: ({ auth, params, body }) => rides().adminComplete(viewer(auth!), params.id, body),
    }),
  ];
}
