import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and the task queue, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `support_tickets/{id}`: the tickets (API only), each with its moves in `events` and its thread in `messages`. */
export const SUPPORT_TICKETS = 'support_tickets';
/**
 * `support_tickets/{id}/ticket_messages/{messageId}`: the thread, staff's internal notes among it (`internal: true`).
 * Not `messages`: chat looks its messages up by id across every `messages` collection.
 */
export const TICKET_MESSAGES = 'ticket_messages';
/** `support_canned_replies/{id}`: the answers staff insert into a reply. */
export const SUPPORT_CANNED_REPLIES = 'support_canned_replies';
/** Closes a RESOLVED ticket nobody reopened at its `closeAt`. */
export const TICKET_AUTO_CLOSE_QUEUE = documentTaskQueue('ticketAutoClose', 'ticketId');
