import * as z from 'zod/mini';
import { defineTaskQueue, documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names and task queues, apart from the model: the module definition (loaded at every cold start)
// needs only these. rides.model.ts re-exports them.
export const RIDES = 'rides';
/** `rider_rides/{riderId}`: the rider's active ride, so two requests cannot give one rider two cars. */
export const RIDER_ACTIVE = 'rider_rides';
/** `driver_ratings/{driverId}`: count and sum of the stars riders gave (average = sum / count). */
export const DRIVER_RATINGS = 'driver_ratings';
/** `rider_ratings/{riderId}`: the same for the stars drivers gave the rider. */
export const RIDER_RATINGS = 'rider_ratings';
/** `ride_rider_ratings/{rideId}`: the driver's rating of the rider, apart from the ride document the rider reads. */
export const RIDE_RIDER_RATINGS = 'ride_rider_ratings';
/** `ride_driver_ratings/{rideId}`: the rider's rating of the driver, apart from the ride document the driver reads. */
export const RIDE_DRIVER_RATINGS = 'ride_driver_ratings';
export const RIDE_SOS = 'ride_sos';

/** `ride_disputes/{rideId}`: a rider's dispute of a completed ride (one per ride), for the administrators' queue. */
export const RIDE_DISPUTES = 'ride_disputes';

export const RIDE_EXPIRY_QUEUE = documentTaskQueue('rideExpiry', 'rideId');
/** A booking's wallet hold, checked after RIDE_HOLD_EXPIRY_SEC: released when no ride took it. */
export const RIDE_HOLD_CHECK_QUEUE = defineTaskQueue(
  'rideHoldCheck',
  z.object({ rideId: z.string().check(z.minLength(1), z.maxLength(100)), paymentId: z.string().check(z.minLength(1), z.maxLength(200)) }),
);
