import { defineEvents, HOUR, link } from '../notifications';

// The wallet module's rows of the hub's event table: money news go to the WALLET inbox, push on the orders channel
// under the `wallet` preference, and open the wallet (consumer) or the earnings screens (driver, partner).
export const WALLET_EVENTS = defineEvents([
  {
    pattern: 'wallet.transfer.received',
    kind: 'WALLET',
    recipients: ['CON'],
    push: 'allowed',
    realtime: null,
    sfx: 'wallet_transfer_received',
    androidChannel: 'app-orders',
    preference: 'wallet',
    deepLink: { CON: link('AccountTab', 'WalletTransaction') },
    appLink: null,
    collapse: false,
    ttlSec: 24 * HOUR,
  },
  {
    pattern: 'wallet.withdrawal.*',
    kind: 'WALLET',
    recipients: ['DRV', 'PAR'],
    push: 'allowed',
    realtime: null,
    sfx: 'notif_payment',
    androidChannel: 'app-orders',
    preference: 'wallet',
    deepLink: { DRV: link('AccountTab', 'Earnings'), PAR: link('WalletTab', 'Payouts') },
    appLink: null,
    collapse: true,
    ttlSec: 24 * HOUR,
  },
]);
