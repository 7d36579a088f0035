// Public face of the booking engine: a vertical books through its service (the hold and the payment that secures
// it) and shares its routes (modules/bookings/bookings.routes.ts); units and ranges come from platform/kits/inventory.
import { ownRecord, type OwnRecords } from '../../platform/core/module/own-records';
import type { BookingView as View } from './bookings.schemas';
export { createBookingEngine, type BookingCaller, type BookingEngine, type HoldRequest } from './bookings.engine';
export { BOOKING_STATUSES, type BookingStatus } from './bookings.machine';
export { BOOKING_VERTICALS, type BookedResource, type BookingRecord, type BookingVertical } from './bookings.model';
export { cancellationFee, FREE_CANCELLATION, type CancellationPolicy } from './bookings.policy';
export { actorLabel, BookedSchema, BookingPaymentBodySchema, BookingSchema, type BookingView } from './bookings.schemas';
export { bookingViewerOf, type Booked, type PayBy, type ProposedTime } from './bookings.service';

export { BOOKING_LIMITS, bookingRequest } from './bookings.http';
export { proposalRoute } from './bookings.proposal-route';

/** The bookings service of a configuration (loaded on first use: the face loads none of it at cold start). */
export function bookingsService(config: Readonly<import('../../platform/core/config').AppConfig>) {
  return (require('./bookings.wiring') as typeof import('./bookings.wiring')).bookingsServiceFor(config);
}

/** The user's own bookings as their consumer app reads them (GET /bookings, GET /bookings/{id}); another's reads as absent. */
export function bookingsOfConsumer(config: Readonly<import('../../platform/core/config').AppConfig>): OwnRecords<View> {
  const viewer = (userId: string) => ({ userId, admin: false });
  return {
    recent: async (userId, limit) => (await bookingsService(config).mine(viewer(userId), { limit })).items as View[],
    get: async (userId, id) => {
      const booking = await ownRecord(id, () => bookingsService(config).get(viewer(userId), id));
      // The consumer's own: the partner's staff may read it too, but it is not theirs.
      return booking?.consumerId === userId ? booking : undefined;
    },
  };
}

/** The user's own bookings starting within a period (epoch ms, end excluded), soonest first, at most `limit`. */
export async function bookingsStartingWithin(
  config: Readonly<import('../../platform/core/config').AppConfig>,
  userId: string,
  starts: { from: number; to: number },
  limit: number,
): Promise<View[]> {
  return (await bookingsService(config).startingWithin({ userId, admin: false }, starts, limit)).items;
}
