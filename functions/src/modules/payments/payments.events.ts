import { defineEvents, HOUR, link } from '../notifications';

// The payments module's rows of the hub's event table: a top-up's outcome and refunds, to the payer's WALLET inbox.
export const PAYMENT_EVENTS = defineEvents([
  { pattern: 'wallet.topup.succeeded', kind: 'WALLET', recipients: ['CON'], push: 'allowed', realtime: null, sfx: 'wallet_topup_success', androidChannel: 'app-orders', preference: 'wallet',
    deepLink: { CON: link('AccountTab', 'Wallet') }, appLink: null, collapse: true, ttlSec: 24 * HOUR },
  { pattern: 'wallet.topup.failed', kind: 'WALLET', recipients: ['CON'], push: 'allowed', realtime: null, sfx: 'wallet_payment_fail', androidChannel: 'app-orders', preference: 'wallet',
    deepLink: { CON: link('AccountTab', 'Wallet') }, appLink: null, collapse: true, ttlSec: 24 * HOUR },
  { pattern: 'payment.refunded', kind: 'WALLET', recipients: ['CON'], push: 'allowed', realtime: null, sfx: 'notif_payment', androidChannel: 'app-orders', preference: 'wallet',
    deepLink: { CON: link('AccountTab', 'PaymentDetail') }, appLink: null, collapse: false, ttlSec: 24 * HOUR },
]);
