import { BOOKING_SETTINGS } from './bookings.model';
import { createBookingEngine } from './bookings.engine';

/** The booking deadline's task (at least once): waits for the hold's or the answer's end, then expires the booking unless it moved meanwhile. */
export async function onBookingDeadline(payload: { bookingId: string }): Promise<void> {
  await createBookingEngine(BOOKING_SETTINGS).expire(payload.bookingId);
}
