import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { MANAGE, MOVE_CODES, TAG as tag, type DeliveryServiceOf } from './delivery.http';
import { AdminCancelDeliveryBodySchema, AdminDeliveriesQuerySchema, DeliveryHistorySchema, DeliveryListSchema, DeliverySchema } from './delivery.schemas';
import { deliveryViewerOf } from './delivery.service';

// The administrators' routes (ADMIN with delivery.manage): every parcel, its history, and cancelling one in trouble.
export function deliveryAdminRoutes(service: DeliveryServiceOf): AnyRoute[] {
  const admin = { tag, auth: ['ADMIN'] as const, permission: MANAGE };
  return [
    defineRoute({
      ...admin,
      method: 'get',
      path: '/delivery/admin/orders',
      operationId: 'adminListDeliveries',
      summary: 'Every parcel, newest first, optionally in one status (ADMIN, delivery.manage)',
      codes: ['PERMISSION_REQUIRED'],
      request: { query: AdminDeliveriesQuerySchema },
      response: { description: 'A page of parcels.', schema: DeliveryListSchema },
      handler: ({ auth, query }) => service().adminList(auth!.userId, query.status, query),
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/delivery/admin/orders/:id/history',
      operationId: 'adminGetDeliveryHistory',
      summary: 'The moves of a parcel, oldest first, with who made them (ADMIN, delivery.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'Each move.', schema: DeliveryHistorySchema },
      handler: ({ auth, params }) => service().history(deliveryViewerOf(auth!), params.id),
    }),
    defineRoute({
      ...admin,
      method: 'post',
      path: '/delivery/admin/orders/:id/cancel',
      operationId: 'adminCancelDelivery',
      summary: 'Cancel a parcel until it is delivered, without a fee (ADMIN, delivery.manage; never one I send or carry)',
      description: 'CREATED, DRIVER_ASSIGNED or PICKED_UP → CANCELLED with the reason; the driver is freed and the WALLET hold given back.',
      errors: [403, 404, 409],
      codes: ['PERMISSION_REQUIRED', 'DELIVERY_SELF_MANAGE', ...MOVE_CODES],
      request: { params: IdParamsSchema, body: AdminCancelDeliveryBodySchema },
      response: { description: 'The CANCELLED parcel.', schema: DeliverySchema },
      handler: ({ auth, params, body }) => service().adminCancel(deliveryViewerOf(auth!), params.id, body.reason),
    }),
  ];
}
