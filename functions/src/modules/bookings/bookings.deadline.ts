import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { BOOKING_DEADLINE_QUEUE, BOOKING_REMINDER_QUEUE } from './bookings.collections';
import { bookingMachine, type BookingAction, type BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';

export const EXPIRED_BY = 'system:booking-deadline';

// A HELD booking expires when its hold runs out (`holdUntil`), a PENDING_PARTNER one when its partner did not answer
// by `answerBy`: its task at that time, or the lazy check of a read or a move. The capacity goes back with it (the
// engine's expiry adds the inventory release).
const dueOf = (b: BookingRecord) => (b.status === 'HELD' ? b.holdUntil : b.status === 'PENDING_PARTNER' ? b.answerBy : null);

export const bookingDeadline = defineDeadline<BookingRecord, BookingStatus, BookingAction, 'bookingId', { bookingId: string; armedFor?: string }>({
  queue: BOOKING_DEADLINE_QUEUE,
  idField: 'bookingId',
  payloadOf: (b) => ({ bookingId: b.id, armedFor: String(dueOf(b)) }),
  taskId: (id, phase) => `booking-${id}-${phase ?? 'due'}`,
  dueAt: (b) => dueOf(b),
  expiry: {
    machine: bookingMachine,
    action: 'expire',
    by: EXPIRED_BY,
    apply: (b, to, at) => ({ ...b, status: to, holdUntil: null, answerBy: null, updatedAt: at }),
  },
  entity: 'booking',
});

/**
 * A confirmed booking's reminders (24 h and 1 h before its start), scheduled by the trigger through `armReminder`;
 * the task reminds only a booking still CONFIRMED for that start. The deadline kit's scheduler only: nothing expires
 * (no move, no lazy check: a lost reminder is a notice less, never a stuck booking).
 */
export const bookingReminder = defineDeadline<BookingRecord, BookingStatus, BookingAction, 'bookingId', { bookingId: string; hours: string; startsAt: string }>(
  {
    queue: BOOKING_REMINDER_QUEUE,
    idField: 'bookingId',
    taskId: (id, phase) => `booking-${id}-remind-${phase ?? ''}`,
    dueAt: () => null,
    entity: 'booking reminder',
  },
);

/** The longest wait of one reminder task (Cloud Tasks schedules up to 30 days ahead; a timer up to 24.8 days): farther, it hops. */
export const REMINDER_HOP_SEC = 20 * 86_400;

/**
 * Arms the reminder `hours` before the booking's start: one task at its time, or, farther off than one task may wait,
 * the hop that lands a whole number of REMINDER_HOP_SEC before it (its run arms the next). A hop's time follows from
 * the due time alone, and the task id names it (phase `<hours>h-<startsAt>-<fires at, s>`): a redelivered trigger
 * arms the same tasks. False when the time has passed.
 */
export async function armReminder(b: BookingRecord, hours: number, now: number, scheduler = bookingReminder.scheduler): Promise<boolean> {
  const dueSec = Math.ceil((b.startsAt - hours * 3_600_000) / 1000);
  const nowSec = Math.floor(now / 1000);
  if (dueSec <= nowSec) return false;
  const firesAt = dueSec - (Math.ceil((dueSec - nowSec) / REMINDER_HOP_SEC) - 1) * REMINDER_HOP_SEC;
  await scheduler.schedule(b.id, firesAt - nowSec, `${hours}h-${b.startsAt}-${firesAt}`, {
    bookingId: b.id,
    hours: String(hours),
    startsAt: String(b.startsAt),
  });
  return true;
}
