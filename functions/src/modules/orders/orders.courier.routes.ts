import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { LIMITS, MANAGE, MOVE_CODES } from './orders.http';
import { iso } from '../../platform/kits/time/time';
import { JobGiveUpBodySchema, JobGiveUpsSchema, jobPool } from '../driver';
import { CurrentOrderSchema, DeliverBodySchema, OrderSchema } from './orders.schemas';
import { orderViewerOf as viewer } from './orders.service';
import { ordersServiceFor } from './orders.wiring';

// The courier's routes: the job now, giving it up before pickup, the pickup and the delivery; and the operators' view
// of a courier's give-ups.
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
      path: '/orders/:id/give-up',
      operationId: 'giveUpOrder',
      tag,
      summary: 'Courier: I cannot take this order after all (before pickup)',
      description:
        'Only the assigned courier of a COURIER_ASSIGNED order. The order goes back to READY_FOR_PICKUP (PREPARING when the store has not said ready), I am free for other jobs, the order is closed to me from now (404) and never offered to me again, and the courier search runs again at once. A retry is 409 ORDER_COURIER_RELEASED with no second move (with the same Idempotency-Key: the first answer replayed); once the store said it handed the order to me (`handed-over`) it is 409 ORDER_TRANSITION. Each give-up is counted, and I am offered no job (order or parcel) for JOB_GIVE_UP_COOLDOWN_MIN (10 minutes). Limit: `orders-give-up`, 10 per courier an hour.',
      auth: ['DRIVER'],
      idempotent: true,
      rateLimit: LIMITS.giveUp,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'ORDER_COURIER_RELEASED'],
      request: { params: IdParamsSchema, body: JobGiveUpBodySchema },
      response: { description: 'The order as I left it (READY_FOR_PICKUP or PREPARING, no courier).', schema: OrderSchema },
      handler: ({ auth, params, body }) => orders().giveUp(viewer(auth!), params.id, body.reason ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/orders/:id/deliver',
      operationId: 'deliverOrder',
      tag,
      summary: 'Courier: handed over, proved by the consumer’s 4-digit code or a photo',
      description:
        'A wrong code is 422 ORDER_HANDOVER_INVALID with `details.attemptsLeft`; after 5 wrong codes only a photo (one of your READY image uploads) proves it (409 ORDER_HANDOVER_LOCKED). A photo counts only while my last known position is within HANDOVER_PHOTO_RADIUS_M (300 m) of the drop-off (409 ORDER_HANDOVER_TOO_FAR); the code counts anywhere. The money follows: the wallet hold captured (or the cash recorded), the store and the courier paid through the ledger. Limit: `orders-deliver`.',
      auth: ['DRIVER'],
      idempotent: true,
      rateLimit: LIMITS.deliver,
      errors: [404, 409, 422],
      codes: [...MOVE_CODES, 'ORDER_HANDOVER_INVALID', 'ORDER_HANDOVER_LOCKED', 'ORDER_PROOF_INVALID', 'ORDER_HANDOVER_TOO_FAR'],
      request: { params: IdParamsSchema, body: DeliverBodySchema },
      response: { description: 'The DELIVERED order.', schema: OrderSchema },
      handler: ({ auth, params, body }) =>
        orders().deliver(viewer(auth!), params.id, body.code !== undefined ? { code: body.code } : { photoMediaId: body.photoMediaId! }),
    }),
    defineRoute({
      method: 'get',
      path: '/orders/admin/couriers/:id/give-ups',
      operationId: 'adminGetCourierGiveUps',
      tag,
      summary: 'Administrator: how many jobs a courier gave up before pickup, and their cooldown',
      description:
        'Orders and parcels together (the driver module counts them); the pickup timer’s releases are not counted. An account that never drove answers 0.',
      auth: ['ADMIN'],
      permission: MANAGE,
      request: { params: IdParamsSchema },
      response: { description: 'The courier’s give-ups.', schema: JobGiveUpsSchema },
      handler: async ({ params }) => {
        const { count, cooldownUntil } = await jobPool.giveUps(params.id);
        return { courierId: params.id, giveUps: count, cooldownUntil: cooldownUntil === null ? null : iso(cooldownUntil) };
      },
    }),
  ];
}
