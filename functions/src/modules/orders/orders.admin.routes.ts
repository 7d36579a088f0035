import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { MANAGE, MOVE_CODES } from './orders.http';
import { sellerKeyOf } from './orders.model';
import { AdminOrderListQuerySchema, OrderListSchema, OrderSchema, RequiredReasonBodySchema } from './orders.schemas';
import { orderViewerOf as viewer } from './orders.service';
import { ordersServiceFor } from './orders.wiring';

// The administrators' routes (orders.manage): every order, and a cancel until delivery.
export function ordersAdminRoutes({ config }: AppContext): AnyRoute[] {
  const orders = () => ordersServiceFor(config);
  const tag = 'orders' as const;
  return [
    defineRoute({
      method: 'get',
      path: '/orders/admin',
      operationId: 'adminListOrders',
      tag,
      summary: 'Every order, newest first, by status and one of consumer, courier, partner or store',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { query: AdminOrderListQuerySchema },
      response: { description: 'A page of orders.', schema: OrderListSchema },
      handler: ({ auth, query }) =>
        orders().adminList(
          viewer(auth!),
          {
            statuses: query.status,
            consumerId: query.consumerId,
            driverId: query.driverId,
            partnerId: query.partnerId,
            sellerKey: query.sellerId ? sellerKeyOf({ kind: query.sellerKind ?? 'MERCHANT', id: query.sellerId }) : undefined,
          },
          query,
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/admin/:id/cancel',
      operationId: 'adminCancelOrder',
      tag,
      summary: 'Cancel an order before delivery (reason); the money, stock and voucher go back',
      description: 'Never an order the administrator is the consumer, courier or store staff of (403 ORDER_SELF_MANAGE).',
      auth: ['ADMIN'],
      permission: MANAGE,
      idempotent: true,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'ORDER_SELF_MANAGE'],
      request: { params: IdParamsSchema, body: RequiredReasonBodySchema },
      response: { description: 'The CANCELLED order.', schema: OrderSchema },
      handler: ({ auth, params, body }) => orders().adminCancel(viewer(auth!), params.id, body.reason),
    }),
  ];
}
