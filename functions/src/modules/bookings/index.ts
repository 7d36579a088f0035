// Public face of the booking engine: the verticals hold, move and read bookings through it (units and ranges come
// from platform/kits/inventory).
export { createBookingEngine, type BookingCaller, type BookingEngine, type HoldRequest, type PaidOutcome } from './bookings.engine';
export { BOOKING_STATUSES, type BookingStatus } from './bookings.machine';
export { BOOKING_SETTINGS, BOOKING_VERTICALS, type BookedResource, type BookingRecord, type BookingVertical } from './bookings.model';
export { cancellationFee, FREE_CANCELLATION, type CancellationPolicy } from './bookings.policy';
