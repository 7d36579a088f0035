import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { bookingDeadline } from './bookings.deadline';
import type { BookingRecord } from './bookings.model';

/**
 * Arms a booking's deadline whenever it enters a status with one (HELD: the hold's end; PENDING_PARTNER: the answer's),
 * whoever wrote it: one task per due time (the task id names it), so a redelivered event schedules nothing twice.
 */
export const onBookingWritten = typedTrigger(
  collectionRecords<BookingRecord>(),
  async (change, _config: Readonly<AppConfig>, scheduler: DeadlineScheduler<{ bookingId: string }> = bookingDeadline.scheduler, now: number = Date.now()) => {
    const { before, after } = change;
    const due = after ? bookingDeadline.dueAt(after) : null;
    if (!after || due === null || (before && before.status === after.status && bookingDeadline.dueAt(before) === due)) return 'nothing due';
    await bookingDeadline.arm(scheduler, after, now, String(due));
    return 'armed';
  },
);
