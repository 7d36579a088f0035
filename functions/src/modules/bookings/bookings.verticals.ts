import type { UnitKind } from '../../platform/kits/inventory/units';

// What differs between the booking verticals, as configuration of the one engine: the units they book, whether the
// partner answers before a booking is confirmed, how it is paid, how it starts and when a guest counts as a no-show.

/** The booking verticals (the spec's `booking.hotel.*`, `booking.parking.*`, `booking.rental.viewing*`, …). */
export const BOOKING_VERTICALS = ['HOTEL', 'PARKING', 'RENTAL_VIEWING', 'MEDICAL', 'SCHOOL', 'HOME_SERVICE'] as const;
export type BookingVertical = (typeof BOOKING_VERTICALS)[number];

/** PREPAY: the price before it is secured; DEPOSIT: a share of it; AT_VENUE: nothing through the app. */
export type PaymentMode = 'PREPAY' | 'DEPOSIT' | 'AT_VENUE';

export interface VerticalRules {
  unitKind: UnitKind;
  /** The partner accepts or rejects before the booking is CONFIRMED (PENDING_PARTNER). */
  partnerAnswers: boolean;
  paymentMode: PaymentMode;
  /** DEPOSIT: the share of the price paid ahead, in basis points. */
  depositBp: number;
  /** How the partner starts it: a check-in (a stay, a parking space, a patient arriving) or a start (a visit, a service). */
  beginMove: 'checkIn' | 'start';
  /** The partner may start it from this long before its start. */
  beginAheadSec: number;
  /** A guest who has not come this long after the start may be called a no-show. */
  noShowAfterSec: number;
  /** Staying past the end costs each unit begun after this grace, at the booking's price per unit (a parking space). */
  overstay?: { graceSec: number };
  /** Completed only through the vertical's own operation (this path), with its details (a home service's photos). */
  completeRoute?: string;
  /** A booking is one staff member's from the start (a doctor's appointment): staff see only theirs, the owner all. */
  staffSeeOwnOnly?: boolean;
  /** The partner names who of its people serves a booking (a technician) while it is live. */
  assignable?: boolean;
}

const HOUR = 3_600;

export const VERTICAL_RULES: Readonly<Record<BookingVertical, VerticalRules>> = {
  // A room is paid ahead; a guest may check in from the morning; a no-show is called the next day.
  HOTEL: {
    unitKind: 'NIGHT',
    partnerAnswers: false,
    paymentMode: 'PREPAY',
    depositBp: 0,
    beginMove: 'checkIn',
    beginAheadSec: 12 * HOUR,
    noShowAfterSec: 24 * HOUR,
  },
  // A space is paid ahead by the hour; entry from half an hour early.
  PARKING: {
    unitKind: 'HOUR',
    partnerAnswers: false,
    paymentMode: 'PREPAY',
    depositBp: 0,
    beginMove: 'checkIn',
    beginAheadSec: HOUR / 2,
    noShowAfterSec: HOUR,
    overstay: { graceSec: 15 * 60 },
  },
  // A viewing costs nothing; the landlord confirms or proposes another time.
  RENTAL_VIEWING: {
    unitKind: 'SLOT',
    partnerAnswers: true,
    paymentMode: 'AT_VENUE',
    depositBp: 0,
    beginMove: 'start',
    beginAheadSec: HOUR,
    noShowAfterSec: HOUR / 2,
  },
  // An appointment is paid at the clinic; the doctor confirms it; the patient checks in at the desk.
  MEDICAL: {
    staffSeeOwnOnly: true,
    unitKind: 'SLOT',
    partnerAnswers: true,
    paymentMode: 'AT_VENUE',
    depositBp: 0,
    beginMove: 'checkIn',
    beginAheadSec: HOUR,
    noShowAfterSec: HOUR / 2,
  },
  // A consultation is free; the school confirms it.
  SCHOOL: { unitKind: 'SLOT', partnerAnswers: true, paymentMode: 'AT_VENUE', depositBp: 0, beginMove: 'start', beginAheadSec: HOUR, noShowAfterSec: HOUR / 2 },
  // A home service takes a deposit; the provider accepts and assigns someone, and completes it with photos.
  HOME_SERVICE: {
    completeRoute: '/home-services/bookings/{id}/complete',
    assignable: true,
    unitKind: 'HOUR',
    partnerAnswers: true,
    paymentMode: 'DEPOSIT',
    depositBp: 3_000,
    beginMove: 'start',
    beginAheadSec: 2 * HOUR,
    noShowAfterSec: HOUR,
  },
};
