import { defineEvents, HOUR, link } from '../notifications';

// The spec's `rental.deposit.*` row (inbox WALLET, sound notif_payment, to the tenant and the landlord), moved here
// from the rows awaiting their module: held, released, refunded, forfeited.
export const RENTAL_EVENTS = defineEvents([
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
]);
