import { defineEvents, HOUR, link } from './events';

// Rows of the spec's event matrix whose modules are not built yet (social).
// Each moves into its module's `<m>.events.ts` when that module is built; until then the hub knows them here.
export const SPEC_EVENTS_AWAITING_MODULES = defineEvents([
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
