import { z } from 'zod';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { LIMITS, MANAGE, MOVE_CODES } from './orders.http';
import { OrderListQuerySchema, OrderListSchema, OrderSchema, ReasonBodySchema, RequiredReasonBodySchema } from './orders.schemas';
import { orderViewerOf as viewer } from './orders.service';
import { ordersServiceFor } from './orders.wiring';
import type { SellerKind } from './orders.ports';

// The store's routes: its queue (merchants and pharmacy stores) and its steps of an order.
export function ordersStoreRoutes({ config }: AppContext): AnyRoute[] {
  const orders = () => ordersServiceFor(config);
  const tag = 'orders' as const;
  const STAFF = ['PARTNER_OWNER', 'PARTNER_STAFF'] as const;
  const queue = (kind: SellerKind, path: string, operationId: string, noun: string) =>
    defineRoute({
      method: 'get',
      path,
      operationId,
      tag,
      summary: `A ${noun}’s orders, newest first (its owner and staff, or an administrator with orders.manage)`,
      description: 'Filter by status (`PLACED` for the orders to confirm). Another partner’s staff get 404.',
      auth: [...STAFF, 'ADMIN'],
      permission: MANAGE,
      errors: [404],
      request: { params: IdParamsSchema, query: OrderListQuerySchema },
      response: { description: 'A page of orders.', schema: OrderListSchema },
      handler: ({ auth, params, query }) => orders().storeQueue(viewer(auth!), { kind, id: params.id }, query.status, query),
    });
  const step = (action: 'confirm' | 'reject' | 'preparing' | 'ready', summary: string, description: string, operationId: string, result: string) =>
    defineRoute({
      method: 'post',
      path: `/orders/:id/${action}`,
      operationId,
      tag,
      summary,
      description: `${description} By the store’s owner or staff; a repeat answers the order as it is. Idempotency-Key accepted.`,
      auth: [...STAFF],
      idempotent: true,
      rateLimit: LIMITS.store,
      errors: [404, 409],
      codes: [...MOVE_CODES],
      request: { params: IdParamsSchema, body: action === 'reject' ? RequiredReasonBodySchema : ReasonBodySchema },
      response: { description: result, schema: OrderSchema },
      handler: ({ auth, params, body }) => orders().storeMove(viewer(auth!), params.id, action, (body as z.infer<typeof ReasonBodySchema>).reason ?? null),
    });
  return [
    queue('MERCHANT', '/merchants/:id/orders', 'listMerchantOrders', 'merchant'),
    queue('PHARMACY', '/pharmacy/stores/:id/orders', 'listPharmacyStoreOrders', 'pharmacy store'),
    step(
      'confirm',
      'Store: accept a PLACED order',
      'Within `confirmBy` (10 minutes after it was placed), else the order is cancelled and refunded. A prescription order is confirmed once the store checked the prescription image.',
      'confirmOrder',
      'The CONFIRMED order.',
    ),
    defineRoute({
      method: 'post',
      path: '/orders/:id/handed-over',
      operationId: 'handOverOrder',
      tag,
      summary: 'Store: we gave the order to its courier',
      description:
        'COURIER_ASSIGNED → PICKED_UP, whether or not the courier said pickup: the consumer sees the courier’s position, the pickup window is over, and the courier can no longer give the order up (409 ORDER_TRANSITION). Refused while the courier is known to be elsewhere: their last position, no older than 2 minutes, farther than HANDOVER_PHOTO_RADIUS_M (300 m) from the store is 409 ORDER_HANDOVER_TOO_FAR (`details.radiusM`; the courier’s distance is not shown). With no recent position (their app went quiet) the hand-over is accepted. Racing the courier’s give-up, exactly one of them happens. By the store’s owner or staff; a repeat (or the courier’s pickup first) answers the order as it is. Idempotency-Key accepted.',
      auth: [...STAFF],
      idempotent: true,
      rateLimit: LIMITS.store,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'ORDER_HANDOVER_TOO_FAR'],
      request: { params: IdParamsSchema },
      response: { description: 'The PICKED_UP order.', schema: OrderSchema },
      handler: ({ auth, params }) => orders().handOver(viewer(auth!), params.id),
    }),
    step('reject', 'Store: decline a PLACED order (reason)', 'The money, the stock and the voucher go back.', 'rejectOrder', 'The REJECTED order.'),
    step(
      'preparing',
      'Store: start preparing a CONFIRMED order',
      'The courier search starts when the preparation time is nearly over (5 minutes before), or when the store says the order is ready.',
      'startPreparingOrder',
      'The PREPARING order.',
    ),
    step(
      'ready',
      'Store: the order is ready for pickup',
      'A courier is searched at once if none was found yet; an order that has its courier already stays COURIER_ASSIGNED (`readyAt` set).',
      'markOrderReady',
      'The READY_FOR_PICKUP (or COURIER_ASSIGNED) order.',
    ),
  ];
}
