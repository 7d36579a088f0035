import type { AppConfig } from '../../platform/core/config';
import { notificationHub } from '../notifications';
import { armReminder, REMINDER_HOP_SEC } from './bookings.deadline';
import { bookingsRepo } from './bookings.repo';
import { reminderNotice } from './bookings.notices';
import { bookingsServiceFor } from './bookings.wiring';

/** The booking deadline's task (at least once): expires the booking when due, unless it moved on meanwhile. */
export async function onBookingDeadline(payload: { bookingId: string; armedFor?: string }, config: Readonly<AppConfig>): Promise<void> {
  const armedFor = payload.armedFor === undefined ? undefined : Number(payload.armedFor);
  await bookingsServiceFor(config).engine.expire(payload.bookingId, armedFor);
}

/** A reminder lands this early at most; a task delivered earlier asks the queue to retry it later. */
const EARLY_MS = 60_000;

/**
 * A booking's reminder (at least once; the hub keeps one per booking and lead time): only for a booking still
 * CONFIRMED for the start it was armed for; none for a cancelled or moved one.
 */
export async function onBookingReminder(payload: { bookingId: string; hours: string; startsAt: string }, config: Readonly<AppConfig>): Promise<void> {
  await remindOnce(payload, config);
}

export async function remindOnce(
  payload: { bookingId: string; hours: string; startsAt: string },
  config: Readonly<AppConfig>,
  now: number = Date.now(),
): Promise<'no reminder' | 'not yet' | 'too late' | 'reminded'> {
  const booking = await bookingsRepo.get(payload.bookingId);
  const hours = Number(payload.hours);
  if (!booking || booking.status !== 'CONFIRMED' || booking.startsAt !== Number(payload.startsAt)) return 'no reminder';
  const due = booking.startsAt - hours * 3_600_000;
  if (now < due - EARLY_MS) {
    // A hop (a stay booked months ahead) arms the next; the last task delivered early is retried by the queue.
    if (due - now < (REMINDER_HOP_SEC * 1000) / 2) throw new Error(`booking ${booking.id}: reminder due in ${Math.round((due - now) / 1000)} s`);
    await armReminder(booking, hours, now);
    return 'not yet';
  }
  if (now >= booking.startsAt) return 'too late';
  await notificationHub(config).dispatch(reminderNotice(booking, hours));
  return 'reminded';
}
