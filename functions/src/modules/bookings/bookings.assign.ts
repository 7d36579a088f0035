import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { recordNote } from '../../platform/kits/state-machine/state-machine';
import type { BookingAction, BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { bookingsRepo } from './bookings.repo';
import { notFound, sees, type BookingCaller } from './bookings.rules';
import { VERTICAL_RULES } from './bookings.verticals';

// Who of the partner's people serves a booking (a home service's technician): set by the partner while the booking is
// live, one field of the booking in a transaction and a line of its history (no status moves). A doctor's appointment
// is the doctor's from the start (its resource): not reassigned here.

const LIVE: readonly BookingStatus[] = ['PENDING_PARTNER', 'CONFIRMED', 'CHECKED_IN', 'IN_PROGRESS'];

export async function assignBooking(id: string, caller: BookingCaller, assignee: { userId: string; name: string | null }, at: number): Promise<BookingRecord> {
  return inTransaction(async (tx) => {
    const b = await bookingsRepo.get(id, tx);
    if (!b || !sees(caller, b) || caller.role === 'CONSUMER') throw notFound();
    if (!VERTICAL_RULES[b.vertical].assignable)
      throw new AppError(409, `A ${b.vertical} booking is not assigned to staff`, { vertical: b.vertical }).withCode('BOOKING_NOT_ASSIGNABLE');
    if (!LIVE.includes(b.status)) throw new AppError(409, 'Only a live booking is assigned', { status: b.status }).withCode('BOOKING_TRANSITION');
    const details = { ...b.details, assigneeName: assignee.name };
    tx.update(bookingsRepo.ref(id), { assigneeId: assignee.userId, 'details.assigneeName': assignee.name, updatedAt: at });
    recordNote<BookingStatus, BookingAction | 'assign'>(tx, bookingsRepo.ref(id), {
      action: 'assign',
      status: b.status,
      by: caller.by,
      at,
      reason: assignee.name,
    });
    return { ...b, assigneeId: assignee.userId, details, updatedAt: at };
  });
}
