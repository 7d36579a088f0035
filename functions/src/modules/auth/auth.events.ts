import { defineEvents, HOUR, link } from '../notifications';

// The auth module's rows of the hub's event table.
export const AUTH_EVENTS = defineEvents([
  {
    pattern: 'security.device',
    kind: 'SYSTEM',
    recipients: ['CON'],
    push: 'always',
    realtime: null,
    sfx: 'notif_urgent',
    androidChannel: 'app-chat',
    preference: null,
    deepLink: { CON: link('AccountTab', 'AuthSessions') },
    appLink: null,
    collapse: false,
    ttlSec: 24 * HOUR,
  },
]);
