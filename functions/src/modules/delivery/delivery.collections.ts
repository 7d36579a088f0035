import * as z from 'zod/mini';
import { defineTaskQueue, documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and task queues, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `deliveries/{id}`: parcels sent A to B (API only), each with its moves in `events`. */
export const DELIVERIES = 'deliveries';

/**
 * Ends a parcel no driver took within the window (NO_DRIVER). `holdPaymentId`: the wallet hold made for it, given
 * back by the task when the parcel was never stored (the request died between the hold and the parcel).
 */
export const DELIVERY_NO_DRIVER_QUEUE = defineTaskQueue(
  'deliveryNoDriver',
  z.object({
    deliveryId: z.string().check(z.minLength(1), z.maxLength(100)),
    holdPaymentId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  }),
);

/** Searches drivers again for a parcel nobody took yet (one task per attempt). */
export const DELIVERY_DISPATCH_QUEUE = documentTaskQueue('deliveryDispatch', 'deliveryId');

/** Releases a driver who has not picked the parcel up in time (`assignment`: the assignment's time; another assignment's task does nothing). */
export const DELIVERY_PICKUP_QUEUE = defineTaskQueue(
  'deliveryPickupTimeout',
  z.object({ deliveryId: z.string().check(z.minLength(1), z.maxLength(100)), assignment: z.optional(z.string().check(z.maxLength(40))) }),
);
