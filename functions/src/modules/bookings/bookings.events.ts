import { defineEvents, HOUR, link, type EventPolicy } from '../notifications';
import type { BookingVertical } from './bookings.verticals';

// The booking verticals' rows of the hub's event table (moved here from the spec's rows awaiting their module): inbox
// BOOKING, sound notif_order, to the consumer and the owning partner (landlord, clinic, school…), each vertical's own
// screen of the map tab. The spec names `booking.hotel.*`, `booking.parking.*` and `booking.rental.viewing*` as
// families and `.created` for the others; the engine's other steps (confirmed, cancelled, rejected, reminders…) are
// this module's rows of the same shape.

/** Each vertical's event prefix and its consumer screen (the spec's deep links). */
export const VERTICAL_EVENTS: Readonly<Record<BookingVertical, { prefix: string; screen: string }>> = {
  HOTEL: { prefix: 'booking.hotel', screen: 'HotelBookings' },
  PARKING: { prefix: 'booking.parking', screen: 'ParkingBookings' },
  RENTAL_VIEWING: { prefix: 'booking.rental.viewing', screen: 'RentalViewings' },
  MEDICAL: { prefix: 'booking.medical', screen: 'MedicalAppointments' },
  SCHOOL: { prefix: 'booking.school', screen: 'SchoolConsultations' },
  HOME_SERVICE: { prefix: 'booking.homeservice', screen: 'HomeServicesBookings' },
};

/** The steps a booking's parties hear of (`<prefix>.<step>`). */
export const BOOKING_STEPS = [
  'created',
  'confirmed',
  'proposed',
  'cancelled',
  'rejected',
  'expired',
  'checkedIn',
  'started',
  'completed',
  'noShow',
  'reminder',
] as const;
export type BookingStep = (typeof BOOKING_STEPS)[number];

const row = (pattern: string, screen: string): EventPolicy => ({
  pattern,
  kind: 'BOOKING',
  recipients: ['CON', 'PAR'],
  push: 'allowed',
  realtime: null,
  sfx: 'notif_order',
  androidChannel: 'app-orders',
  preference: 'order',
  deepLink: { CON: link('MapTab', screen), PAR: link('BookingsTab', 'BookingDetail') },
  appLink: null,
  collapse: true,
  ttlSec: 24 * HOUR,
});

const FAMILIES: readonly BookingVertical[] = ['HOTEL', 'PARKING', 'RENTAL_VIEWING'];

export const BOOKING_EVENTS = defineEvents(
  (Object.entries(VERTICAL_EVENTS) as Array<[BookingVertical, { prefix: string; screen: string }]>).flatMap(([vertical, { prefix, screen }]) =>
    FAMILIES.includes(vertical)
      ? [row(vertical === 'RENTAL_VIEWING' ? `${prefix}*` : `${prefix}.*`, screen)]
      : BOOKING_STEPS.map((step) => row(`${prefix}.${step}`, screen)),
  ),
);

/** The event of a vertical's step, e.g. `booking.medical.confirmed`. */
export const bookingEvent = (vertical: BookingVertical, step: BookingStep) => `${VERTICAL_EVENTS[vertical].prefix}.${step}`;
