import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// One table for every vertical. A booking is HELD while its capacity waits for payment (or for nothing, paid at the
// venue); then PENDING_PARTNER where the partner answers (viewings, appointments, consultations, home services) or
// CONFIRMED at once (hotels, parking); CHECKED_IN (a stay, a parking space) or IN_PROGRESS (a visit, a service);
// COMPLETED. It ends CANCELLED (the consumer, by the policy; the partner or an administrator), REJECTED (the partner),
// NO_SHOW or EXPIRED (the hold or the answer overdue). A vertical's differences are configuration (which of the two
// paths after HELD, which start move), never another table.
export const BOOKING_STATUSES = [
  'HELD',
  'PENDING_PARTNER',
  'CONFIRMED',
  'CHECKED_IN',
  'IN_PROGRESS',
  'COMPLETED',
  'CANCELLED',
  'REJECTED',
  'NO_SHOW',
  'EXPIRED',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type BookingAction = 'submit' | 'confirm' | 'agree' | 'accept' | 'reject' | 'cancel' | 'annul' | 'checkIn' | 'start' | 'complete' | 'noShow' | 'expire';
export type BookingActor = 'CONSUMER' | 'PARTNER' | 'ADMIN' | 'SYSTEM';

/** The statuses a booking no longer leaves. */
export const FINAL_BOOKING_STATUSES: readonly BookingStatus[] = ['COMPLETED', 'CANCELLED', 'REJECTED', 'NO_SHOW', 'EXPIRED'];
/** The statuses in which a booking takes capacity. */
export const BOOKING_TAKES_CAPACITY: readonly BookingStatus[] = ['HELD', 'PENDING_PARTNER', 'CONFIRMED', 'CHECKED_IN', 'IN_PROGRESS'];

export const bookingMachine = defineMachine<BookingStatus, BookingAction, BookingActor>({
  entity: 'booking',
  states: BOOKING_STATUSES,
  moves: {
    // Paid (or nothing to pay now): to the partner where it answers, confirmed where it does not.
    submit: { from: 'HELD', to: 'PENDING_PARTNER', by: 'SYSTEM' },
    confirm: { from: 'HELD', to: 'CONFIRMED', by: 'SYSTEM' },
    // Its consumer takes a time the partner proposed (a HELD booking with nothing to pay).
    agree: { from: 'HELD', to: 'CONFIRMED', by: 'CONSUMER' },
    accept: { from: 'PENDING_PARTNER', to: 'CONFIRMED', by: ['PARTNER', 'ADMIN'] },
    reject: { from: 'PENDING_PARTNER', to: 'REJECTED', by: ['PARTNER', 'ADMIN'] },
    cancel: { from: ['HELD', 'PENDING_PARTNER', 'CONFIRMED'], to: 'CANCELLED', by: ['CONSUMER', 'PARTNER', 'ADMIN'] },
    // An administrator steps in once it has begun (a check-in that never was, a dispute): cancelled, all paid refunded.
    annul: { from: ['CHECKED_IN', 'IN_PROGRESS'], to: 'CANCELLED', by: 'ADMIN' },
    checkIn: { from: 'CONFIRMED', to: 'CHECKED_IN', by: ['PARTNER', 'ADMIN'] },
    start: { from: 'CONFIRMED', to: 'IN_PROGRESS', by: ['PARTNER', 'ADMIN'] },
    complete: { from: ['CHECKED_IN', 'IN_PROGRESS'], to: 'COMPLETED', by: ['PARTNER', 'ADMIN', 'SYSTEM'] },
    noShow: { from: 'CONFIRMED', to: 'NO_SHOW', by: ['PARTNER', 'ADMIN'] },
    expire: { from: ['HELD', 'PENDING_PARTNER'], to: 'EXPIRED', by: 'SYSTEM' },
  },
  codes: { transition: 'BOOKING_TRANSITION', actor: 'BOOKING_NOT_ALLOWED' },
});
