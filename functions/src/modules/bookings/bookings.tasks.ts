import { createBookingEngine } from './bookings.engine';
import { BOOKING_SETTINGS } from './bookings.model';

/** The booking deadline's task (at least once): expires the booking when due, unless it moved on meanwhile. */
export async function onBookingDeadline(payload: { bookingId: string; armedFor?: string }): Promise<void> {
  const armedFor = payload.armedFor === undefined ? undefined : Number(payload.armedFor);
  await createBookingEngine(BOOKING_SETTINGS).expire(payload.bookingId, armedFor);
}
