import type { DispatchInput } from '../notifications';
import { BOOKING_EVENTS, bookingEvent, type BookingStep } from './bookings.events';
import type { BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { BOOKING_TEXTS } from './bookings.texts';

// Who hears what when a booking's status changes: one builder per status (a table). A hold nobody paid for is never
// news: a booking is "created" for its parties when it is secured (CONFIRMED or PENDING_PARTNER from HELD, or written so: paid with its hold).

type Recipient = DispatchInput['recipients'][number];
type Parties = { consumer: Recipient[]; partner: Recipient[] };
type Build = (
  before: BookingRecord | undefined,
  after: BookingRecord,
  to: Parties,
) => Array<{ step: BookingStep; to: Recipient[]; text: DispatchInput['text'] }>;

const about = (b: BookingRecord) => ({ what: b.resource.name, where: b.resource.parentName ?? b.resource.name, when: b.startsAt });
const wasHeld = (before: BookingRecord | undefined) => !before || before.status === 'HELD';

const created: Build = (_before, after, to) =>
  [false, true].map((forPartner) => ({
    step: 'created' as const,
    to: forPartner ? to.partner : to.consumer,
    text: BOOKING_TEXTS.text('created', { ...about(after), forPartner, waitsForPartner: after.status === 'PENDING_PARTNER' }),
  }));
const toConsumer =
  (step: 'checkedIn' | 'started' | 'completed' | 'noShow'): Build =>
  (_before, after, to) => [{ step, to: to.consumer, text: BOOKING_TEXTS.text(step, about(after)) }];

const NOTICES: Partial<Record<BookingStatus, Build>> = {
  PENDING_PARTNER: (before, after, to) => (wasHeld(before) ? created(before, after, to) : []),
  CONFIRMED: (before, after, to) =>
    wasHeld(before) ? created(before, after, to) : [{ step: 'confirmed', to: to.consumer, text: BOOKING_TEXTS.text('confirmed', about(after)) }],
  REJECTED: (_before, after, to) =>
    after.rejection?.proposedStartsAt !== undefined
      ? [{ step: 'proposed', to: to.consumer, text: BOOKING_TEXTS.text('proposed', { ...about(after), proposed: after.rejection.proposedStartsAt }) }]
      : [{ step: 'rejected', to: to.consumer, text: BOOKING_TEXTS.text('rejected', { ...about(after), reason: after.rejection?.reason ?? '' }) }],
  // An unpaid hold given up or run out is nobody's news.
  CANCELLED: (before, after, to) =>
    wasHeld(before)
      ? []
      : [
          {
            step: 'cancelled',
            to: [...to.consumer, ...to.partner],
            text: BOOKING_TEXTS.text('cancelled', {
              ...about(after),
              refundVnd: after.cancellation?.refundVnd ?? 0,
              feeVnd: after.cancellation?.feeVnd ?? 0,
            }),
          },
        ],
  EXPIRED: (before, after, to) =>
    wasHeld(before)
      ? []
      : [false, true].map((forPartner) => ({
          step: 'expired' as const,
          to: forPartner ? to.partner : to.consumer,
          text: BOOKING_TEXTS.text('expired', { ...about(after), forPartner }),
        })),
  CHECKED_IN: toConsumer('checkedIn'),
  IN_PROGRESS: toConsumer('started'),
  COMPLETED: toConsumer('completed'),
  NO_SHOW: toConsumer('noShow'),
};

/** The notices of one status change (none when the status did not change); `partnerMembers`: the partner's owner and staff. */
export function bookingNotices(before: BookingRecord | undefined, after: BookingRecord, partnerMembers: readonly string[]): DispatchInput[] {
  if (before?.status === after.status) return [];
  const to: Parties = {
    consumer: [{ userId: after.consumerId, surface: 'CON' }],
    partner: partnerMembers.filter((id) => id !== after.consumerId).map((userId) => ({ userId, surface: 'PAR' as const })),
  };
  const built = NOTICES[after.status]?.(before, after, to) ?? [];
  return built
    .filter((n) => n.to.length > 0)
    .map((n) =>
      BOOKING_EVENTS.notice({
        event: bookingEvent(after.vertical, n.step) as never,
        recipients: n.to,
        entityId: after.id,
        text: n.text,
        params: { bookingId: after.id },
      }),
    );
}

/** The reminder `hours` before a confirmed booking's start, to its consumer (one per booking and lead time). */
export function reminderNotice(b: BookingRecord, hours: number): DispatchInput {
  return BOOKING_EVENTS.notice({
    event: bookingEvent(b.vertical, 'reminder') as never,
    recipients: [{ userId: b.consumerId, surface: 'CON' as const }],
    entityId: b.id,
    occurrence: `${hours}h`,
    text: BOOKING_TEXTS.text('reminder', { ...about(b), hours }),
    params: { bookingId: b.id },
  });
}

/** The statuses whose notices (above) go to the partner too: its members are read only then. Keep beside the table. */
export const PARTNER_TOLD: readonly BookingStatus[] = ['PENDING_PARTNER', 'CONFIRMED', 'CANCELLED', 'EXPIRED'];
