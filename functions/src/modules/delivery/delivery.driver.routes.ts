import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { LIMITS, MOVE_CODES, TAG as tag, type DeliveryServiceOf } from './delivery.http';
import { JobGiveUpBodySchema } from '../driver';
import { CourierCurrentSchema, DeliverySchema, HandoverBodySchema } from './delivery.schemas';

const PROOF_CODES = ['DELIVERY_CODE_WRONG', 'DELIVERY_CODE_LOCKED', 'DELIVERY_PHOTO_INVALID', 'DELIVERY_HANDOVER_TOO_FAR'] as const;
const PHOTO_NEAR =
  'A photo counts only while my last known position is within HANDOVER_PHOTO_RADIUS_M (300 m) of the place (409 DELIVERY_HANDOVER_TOO_FAR); the code counts anywhere.';

// The driver's routes: the current job, giving it up before pickup, the pickup and the delivery (each proved by a
// code or a photo).
export function deliveryDriverRoutes(service: DeliveryServiceOf): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/delivery/courier/current',
      operationId: 'getMyCurrentCourierJob',
      tag,
      summary: 'Driver: the job I am on — a parcel (shown here), an order (its id: the orders screen shows it), or none',
      description:
        'One call for the courier app’s current-job screen, for both kinds of job (the driver module knows which one the driver is on: never a ride and a job at once).',
      auth: ['DRIVER'],
      response: { description: '`job` null when none.', schema: CourierCurrentSchema },
      handler: ({ auth }) => service().courierCurrent(auth!.userId),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders/:id/give-up',
      operationId: 'giveUpDelivery',
      tag,
      summary: 'Driver: I cannot take this parcel after all (before pickup)',
      description:
        'Only the assigned driver of a DRIVER_ASSIGNED parcel. The parcel goes back to CREATED with a new no-driver window and is searched for again at once; I am free for other jobs, the parcel is closed to me from now (404) and never offered to me again. A retry is 409 DELIVERY_DRIVER_RELEASED (no second move). Each give-up is counted, and I am offered no job (order or parcel) for JOB_GIVE_UP_COOLDOWN_MIN (10 minutes). Limit: `delivery-give-up`, 10 per driver an hour.',
      auth: ['DRIVER'],
      rateLimit: LIMITS.giveUp,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'DELIVERY_DRIVER_RELEASED'],
      request: { params: IdParamsSchema, body: JobGiveUpBodySchema },
      response: { description: 'The parcel as I left it (CREATED, no driver).', schema: DeliverySchema },
      handler: ({ auth, params, body }) => service().giveUp(auth!.userId, params.id, body.reason ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders/:id/pickup',
      operationId: 'pickUpDelivery',
      tag,
      summary: 'Driver: I have the parcel — proved by the sender’s pickup code or a photo',
      description:
        'DRIVER_ASSIGNED → PICKED_UP; from now on the sender sees my live position. A wrong code is 422 DELIVERY_CODE_WRONG with `attemptsLeft`; after 5 wrong codes only a photo proves it (409 DELIVERY_CODE_LOCKED). ' +
        PHOTO_NEAR,
      auth: ['DRIVER'],
      rateLimit: LIMITS.handover,
      errors: [404, 409, 422],
      codes: [...MOVE_CODES, ...PROOF_CODES],
      request: { params: IdParamsSchema, body: HandoverBodySchema },
      response: { description: 'The PICKED_UP parcel.', schema: DeliverySchema },
      handler: ({ auth, params, body }) => service().pickup(auth!.userId, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders/:id/deliver',
      operationId: 'deliverDelivery',
      tag,
      summary: 'Driver: the recipient has it — proved by the drop-off code the recipient gives, or a photo',
      description:
        'PICKED_UP → DELIVERED; I am free for the next job. The fee is taken (the WALLET hold captured, or the CASH I took recorded with the commission owed from my earnings), my earnings are credited, and the cash collected on delivery is credited to the sender and owed from my earnings. ' +
        PHOTO_NEAR,
      auth: ['DRIVER'],
      rateLimit: LIMITS.handover,
      errors: [404, 409, 422],
      codes: [...MOVE_CODES, ...PROOF_CODES],
      request: { params: IdParamsSchema, body: HandoverBodySchema },
      response: { description: 'The DELIVERED parcel.', schema: DeliverySchema },
      handler: ({ auth, params, body }) => service().deliver(auth!.userId, params.id, body),
    }),
  ];
}
