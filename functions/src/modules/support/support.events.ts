import { defineEvents, HOUR, link } from '../notifications';

// The support module's row of the hub's event table (beyond the spec's matrix): staff's replies and a ticket's status
// changes, to its owner in the app it was opened from (SYSTEM inbox, no realtime room: apps read the thread).
// Members: support.ticket.reply, support.ticket.status; params name the ticket (`ticketId`).
export const SUPPORT_EVENTS = defineEvents([
  {
    pattern: 'support.ticket.*',
    kind: 'SYSTEM',
    recipients: ['CON', 'DRV', 'PAR'],
    push: 'allowed',
    realtime: null,
    sfx: 'notif_default',
    androidChannel: 'app-chat',
    preference: null,
    deepLink: { CON: link('AccountTab', 'SupportTicket'), DRV: link('AccountTab', 'SupportTicket'), PAR: link('AccountTab', 'SupportTicket') },
    appLink: null,
    collapse: false,
    ttlSec: 24 * HOUR,
  },
]);
