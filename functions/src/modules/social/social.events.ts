import { defineEvents, HOUR, link } from '../notifications';

// The social module's row of the hub's event table (spec: social.* → SOCIAL_*, consumer app, notif_default, SocialTab;
// no realtime room). Its members: social.like, social.comment, social.follow, social.mention, social.share; each
// notice's params name the post (`postId`), comment (`commentId`) or person (`userId`) the app opens.
export const SOCIAL_EVENTS = defineEvents([
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
