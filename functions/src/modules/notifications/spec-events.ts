import { defineEvents, HOUR, link, type EventPolicy } from './events';

// Rows of the spec's event matrix whose modules are not built yet (bookings, rentals, social).
// Each moves into its module's `<m>.events.ts` when that module is built; until then the hub knows them here.
const booking = (pattern: string, screen: string): EventPolicy => ({
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

export const SPEC_EVENTS_AWAITING_MODULES = defineEvents([
  booking('booking.hotel.*', 'HotelBookings'),
  booking('booking.parking.*', 'ParkingBookings'),
  booking('booking.rental.viewing*', 'RentalViewings'),
  booking('booking.medical.created', 'MedicalAppointments'),
  booking('booking.school.created', 'SchoolConsultations'),
  booking('booking.homeservice.created', 'HomeServicesBookings'),
  {
    pattern: 'rental.deposit.*',
    kind: 'WALLET',
    recipients: ['CON', 'PAR'],
    push: 'allowed',
    realtime: null,
    sfx: 'notif_payment',
    androidChannel: 'app-orders',
    preference: 'wallet',
    deepLink: { CON: link('MapTab', 'RentalDeposit'), PAR: link('WalletTab', 'Deposits') },
    appLink: null,
    collapse: true,
    ttlSec: 24 * HOUR,
  },
  {
    pattern: 'social.*',
    kind: 'SOCIAL_*',
    recipients: ['CON'],
    push: 'allowed',
    realtime: null,
    sfx: 'notif_default',
    androidChannel: 'app-chat',
    preference: 'social',
    deepLink: { CON: link('SocialTab', 'SocialHome') },
    appLink: null,
    collapse: false,
    ttlSec: 24 * HOUR,
  },
]);
