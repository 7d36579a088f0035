import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { notificationHub, type Hub } from '../notifications';
import { partnerMembers } from '../partners';
import { armReminder, bookingDeadline } from './bookings.deadline';
import { FINAL_BOOKING_STATUSES } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { bookingNotices, PARTNER_TOLD } from './bookings.notices';
import { bookingsServiceFor } from './bookings.wiring';

/** Reminders before a confirmed booking's start, in hours (none for one already closer than that). */
export const REMINDER_HOURS = [24, 1] as const;

export interface BookingTriggerWork {
  hub: Pick<Hub, 'dispatch'>;
  deadlines: DeadlineScheduler<{ bookingId: string }>;
  remind(b: BookingRecord, hours: number, now: number): Promise<boolean>;
  members(partnerId: string): Promise<string[]>;
  settle(b: BookingRecord): Promise<unknown>;
  now: number;
}

const workOf = (config: Readonly<AppConfig>): BookingTriggerWork => ({
  hub: notificationHub(config),
  deadlines: bookingDeadline.scheduler,
  remind: (b, hours, now) => armReminder(b, hours, now),
  members: async (partnerId) => (await partnerMembers(partnerId)).map((m) => m.userId),
  settle: (b) => bookingsServiceFor(config).settle(b),
  now: Date.now(),
});

/**
 * At least once, whoever wrote the booking: arms its deadline when it enters a status with one (a hold's end, a
 * partner's answer; one task per due time), tells its parties of a status change through the hub (ids from the
 * booking and the event), arms the reminders of a CONFIRMED one (one task per booking, lead time and start), and
 * settles the money of one that ended (a refund and a payout, each once by its key).
 */
export const onBookingWritten = typedTrigger(
  collectionRecords<BookingRecord>(),
  async ({ before, after }, config: Readonly<AppConfig>, work: BookingTriggerWork = workOf(config)) => {
    if (!after) return 'deleted';
    const done: string[] = [];
    const due = bookingDeadline.dueAt(after);
    if (due !== null && !(before && before.status === after.status && bookingDeadline.dueAt(before) === due)) {
      await bookingDeadline.arm(work.deadlines, after, work.now, String(due));
      done.push('armed');
    }
    if (before?.status === after.status) return done.join(',') || 'nothing';
    // The money first: a notice that keeps failing never holds a refund back.
    if (FINAL_BOOKING_STATUSES.includes(after.status)) {
      await work.settle(after);
      done.push('settled');
    }
    const notices = bookingNotices(before, after, PARTNER_TOLD.includes(after.status) ? await work.members(after.partnerId) : []);
    for (const n of notices) await work.hub.dispatch(n);
    if (notices.length > 0) done.push(`told ${notices.length}`);
    if (after.status === 'CONFIRMED') for (const hours of REMINDER_HOURS) if (await work.remind(after, hours, work.now)) done.push(`reminder ${hours}h`);

    return done.join(',') || 'nothing';
  },
);
