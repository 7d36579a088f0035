import { defineEvents, HOUR, link } from '../notifications';

// The chat module's rows of the hub's event table (spec: Events → Event matrix).
export const CHAT_EVENTS = defineEvents([
  { pattern: 'chat.message', kind: 'CHAT_MESSAGE', recipients: ['CON', 'PAR', 'DRV'], push: 'allowed', realtime: 'message:new', sfx: 'notif_message', androidChannel: 'app-chat', preference: 'chat',
    deepLink: { CON: link('ChatTab', 'ChatThread'), PAR: link('ChatTab', 'ChatThread'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: false, ttlSec: 24 * HOUR },
  { pattern: 'call.incoming', kind: 'CALL_INCOMING', recipients: ['CON'], push: 'always', realtime: 'call:ring', sfx: 'call_ringtone_incoming', androidChannel: 'app-calls', preference: null,
    deepLink: { CON: link('ChatTab', 'Call'), PAR: link('ChatTab', 'Call'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: true, ttlSec: 30 },
  { pattern: 'call.missed', kind: 'CALL_MISSED', recipients: ['CON'], push: 'allowed', realtime: 'call:ended', sfx: 'call_missed', androidChannel: 'app-calls', preference: 'chat',
    deepLink: { CON: link('ChatTab', 'CallDetail'), PAR: link('ChatTab', 'CallDetail'), DRV: link('ChatTab', 'ChatInbox') }, appLink: 'chat', collapse: true, ttlSec: 24 * HOUR },
]);
