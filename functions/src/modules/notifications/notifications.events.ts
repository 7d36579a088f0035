import { defineEvents, HOUR, link } from './events';

// The notifications module's own rows of the event table.
export const NOTIFICATIONS_EVENTS = defineEvents([
  {
    pattern: 'admin.broadcast',
    kind: 'SYSTEM',
    recipients: ['CON', 'PAR', 'DRV'],
    push: 'allowed',
    realtime: null,
    sfx: 'notif_promo',
    androidChannel: 'app-orders',
    preference: 'promo',
    deepLink: { CON: link('HomeTab', 'Inbox'), PAR: link('HomeTab', 'Inbox'), DRV: link('HomeTab', 'Inbox') },
    appLink: null,
    collapse: false,
    ttlSec: 72 * HOUR,
  },
]);
