import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { ordersAdminRoutes } from './orders.admin.routes';
import { ordersCourierRoutes } from './orders.courier.routes';
import { LIMITS, MOVE_CODES } from './orders.http';
import {
  OrderChatSchema,
  OrderEventsSchema,
  OrderListQuerySchema,
  OrderListSchema,
  OrderRatingSchema,
  OrderSchema,
  RateBodySchema,
  ReasonBodySchema,
} from './orders.schemas';
import { orderViewerOf as viewer } from './orders.service';
import { ordersStoreRoutes } from './orders.store.routes';
import { ordersServiceFor } from './orders.wiring';

// The orders routes: the administrators' and the courier's literal paths first (`/orders/:id` would catch them),
// then the consumer's and every party's, then the store's.
export function ordersRoutes(ctx: AppContext): AnyRoute[] {
  const orders = () => ordersServiceFor(ctx.config);
  const tag = 'orders' as const;
  return [
    ...ordersAdminRoutes(ctx),
    ...ordersCourierRoutes(ctx),
    defineRoute({
      method: 'get',
      path: '/orders',
      operationId: 'listMyOrders',
      tag,
      summary: 'My orders, newest first',
      auth: [],
      hat: 'CON',
      request: { query: OrderListQuerySchema },
      response: { description: 'A page of orders (a PLACED order past its confirmation time reads as CANCELLED).', schema: OrderListSchema },
      handler: ({ auth, query }) => orders().mine(viewer(auth!), query.status, query),
    }),
    defineRoute({
      method: 'get',
      path: '/orders/:id',
      operationId: 'getOrder',
      tag,
      summary: 'One order: its consumer, the store’s staff, its courier or an administrator (orders.manage)',
      description:
        'Anyone else gets 404. The consumer sees the 4-digit `handoverCode` to tell the courier; the store its payout, the courier its earnings and the cash to collect. Read lazily: a PLACED order past `confirmBy` is cancelled and refunded now, an order awaiting a payment that has an outcome moves on.',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The order.', schema: OrderSchema },
      handler: ({ auth, params }) => orders().get(viewer(auth!), params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/orders/:id/events',
      operationId: 'listOrderEvents',
      tag,
      summary: 'The order’s history of moves, oldest first (its parties)',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'Each move: action, from, to, who and when.', schema: OrderEventsSchema },
      handler: ({ auth, params }) => orders().events(viewer(auth!), params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/cancel',
      operationId: 'cancelOrder',
      tag,
      summary: 'Cancel an order: its consumer before the store confirmed (free), the store before pickup (reason)',
      description:
        'The money goes back (a wallet hold released, a paid gateway payment refunded), the stock and the voucher too. A repeat answers the cancelled order. Limit: `orders-cancel`, 10 per user per 10 minutes.',
      auth: [],
      idempotent: true,
      rateLimit: LIMITS.cancel,
      errors: [404, 409],
      codes: [...MOVE_CODES],
      request: { params: IdParamsSchema, body: ReasonBodySchema },
      response: { description: 'The CANCELLED order.', schema: OrderSchema },
      handler: ({ auth, params, body }) => orders().cancel(viewer(auth!), params.id, body.reason ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/rate',
      operationId: 'rateOrder',
      tag,
      summary: 'Rate the store and the courier of my delivered order (once, 1 to 5 stars)',
      description: 'Within 7 days of delivery. Kept apart from the order (the courier reads the order; ratings stay anonymous). Limit: `orders-rate`.',
      auth: [],
      hat: 'CON',
      rateLimit: LIMITS.rate,
      errors: [404, 409],
      codes: ['ORDER_ALREADY_RATED', 'ORDER_RATING_WINDOW', 'ORDER_NO_COURIER'],
      request: { params: IdParamsSchema, body: RateBodySchema },
      response: { status: 201, description: 'The rating given.', schema: OrderRatingSchema },
      handler: ({ auth, params, body }) => orders().rate(viewer(auth!), params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/chat',
      operationId: 'openOrderChat',
      tag,
      summary: 'The order’s conversation between consumer, store and courier (a party, while the order runs)',
      description: 'Opened once; the store staff who open it and the courier once assigned join it. Read-only once the order ended. Limit: `orders-chat`.',
      auth: [],
      rateLimit: LIMITS.chat,
      errors: [404, 409],
      codes: ['ORDER_TRANSITION'],
      request: { params: IdParamsSchema },
      response: { description: 'The conversation (chat routes read and write it).', schema: OrderChatSchema },
      handler: ({ auth, params }) => orders().chat(viewer(auth!), params.id),
    }),
    ...ordersStoreRoutes(ctx),
  ];
}
