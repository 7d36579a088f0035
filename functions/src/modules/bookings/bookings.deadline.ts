import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { BOOKING_DEADLINE_QUEUE } from './bookings.collections';
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
