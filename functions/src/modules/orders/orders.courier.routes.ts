import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { LIMITS, MOVE_CODES } from './orders.http';
import { CurrentOrderSchema, DeliverBodySchema, OrderSchema } from './orders.schemas';
import { orderViewerOf as viewer } from './orders.service';
import { ordersServiceFor } from './orders.wiring';

// The courier's routes: the job now, the pickup and the delivery.
export function ordersCourierRoutes({ config }: AppContext): AnyRoute[] {
  const orders = () => ordersServiceFor(config);
  const tag = 'orders' as const;
  return [
    defineRoute({
      method: 'get',
      path: '/orders/courier/current',
      operationId: 'getMyCourierOrder',
      tag,
      summary: 'Courier: the order I am delivering, if any',
      auth: ['DRIVER'],
      response: { description: '`order` null when none.', schema: CurrentOrderSchema },
      handler: ({ auth }) => orders().courierCurrent(viewer(auth!)),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/pickup',
      operationId: 'pickUpOrder',
      tag,
      summary: 'Courier: I have the order (the consumer sees my position from now)',
      description: 'Only the assigned courier; a repeat answers the order as it is. Idempotency-Key accepted.',
      auth: ['DRIVER'],
      idempotent: true,
      errors: [404, 409],
      codes: [...MOVE_CODES],
      request: { params: IdParamsSchema },
      response: { description: 'The PICKED_UP order.', schema: OrderSchema },
      handler: ({ auth, params }) => orders().pickup(viewer(auth!), params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/deliver',
      operationId: 'deliverOrder',
      tag,
      summary: 'Courier: handed over, proved by the consumer’s 4-digit code or a photo',
      description:
        'A wrong code is 422 ORDER_HANDOVER_INVALID with `details.attemptsLeft`; after 5 wrong codes only a photo (one of your READY image uploads) proves it (409 ORDER_HANDOVER_LOCKED). The money follows: the wallet hold captured (or the cash recorded), the store and the courier paid through the ledger. Limit: `orders-deliver`.',
      auth: ['DRIVER'],
      idempotent: true,
      rateLimit: LIMITS.deliver,
      errors: [404, 409, 422],
      codes: [...MOVE_CODES, 'ORDER_HANDOVER_INVALID', 'ORDER_HANDOVER_LOCKED', 'ORDER_PROOF_INVALID'],
      request: { params: IdParamsSchema, body: DeliverBodySchema },
      response: { description: 'The DELIVERED order.', schema: OrderSchema },
      handler: ({ auth, params, body }) =>
        orders().deliver(viewer(auth!), params.id, body.code !== undefined ? { code: body.code } : { photoMediaId: body.photoMediaId! }),
    }),
  ];
}
