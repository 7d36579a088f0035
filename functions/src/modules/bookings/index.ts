// Public face of the booking engine: the verticals book through its service (the hold, the payment that secures it)
// and share its routes; units and ranges come from platform/kits/inventory.
export { createBookingEngine, type BookingCaller, type BookingEngine, type HoldRequest, type PaidOutcome } from './bookings.engine';
export { BOOKING_STATUSES, type BookingStatus } from './bookings.machine';
export { BOOKING_VERTICALS, type BookedResource, type BookingRecord, type BookingVertical } from './bookings.model';
export { cancellationFee, FREE_CANCELLATION, type CancellationPolicy } from './bookings.policy';
export { BookedSchema, BookingSchema, BookingPaymentBodySchema, type BookingView } from './bookings.schemas';
export { BOOKING_LIMITS, BOOKING_TAGS } from './bookings.routes';
export { bookingViewerOf, type Booked, type BookingViewer, type PayBy } from './bookings.service';
export { bookingSettings, type BookingSettings } from './bookings.config';

/** The bookings service of a configuration (lazy: the face loads nothing at cold start). */
export function bookingsService(config: Readonly<import('../../platform/core/config').AppConfig>) {
  return (require('./bookings.wiring') as typeof import('./bookings.wiring')).bookingsServiceFor(config);
}
