// Public face of the booking engine: a vertical books through its service (the hold and the payment that secures
// it) and shares its routes (modules/bookings/bookings.routes.ts); units and ranges come from platform/kits/inventory.
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
