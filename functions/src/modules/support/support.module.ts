import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { SUPPORT_CANNED_REPLIES, SUPPORT_TICKETS, TICKET_AUTO_CLOSE_QUEUE, TICKET_MESSAGES } from './support.collections';
import { supportSwitches } from './support.config';
import { SUPPORT_ERROR_CODES } from './support.errors';
import { SUPPORT_EVENTS } from './support.events';

const notices = () => require('./support.notices') as typeof import('./support.notices');

// The help desk: tickets from any signed-in user (linked to a ride, order, booking or payment of theirs), a thread
// with staff, the status machine with its auto-close, staff's queue, assignment, canned replies and internal notes;
// owners notified from triggers.
export const supportModule = defineModule({
  name: 'support',
  uses: ['bookings', 'media', 'notifications', 'orders', 'payments', 'rides', 'users'],
  apiTags: { support: 'Support tickets and conversations with the support team.' },
  config: supportSwitches,
  errorCodes: SUPPORT_ERROR_CODES,
  permissions: ['support.manage'],
  seed: { load: () => (require('./support.seed') as typeof import('./support.seed')).seedSupport },
  events: SUPPORT_EVENTS.rows,
  routes: (ctx) => [
    ...(require('./support.routes') as typeof import('./support.routes')).supportRoutes(ctx),
    ...(require('./support.admin.routes') as typeof import('./support.admin.routes')).supportAdminRoutes(ctx),
  ],
  tasks: {
    ticketAutoClose: defineTask({
      queue: TICKET_AUTO_CLOSE_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./support.tasks') as typeof import('./support.tasks')).onTicketAutoClose,
    }),
  },
  triggers: {
    // Arms the auto-close of a resolved ticket; tells the owner of moves made without a message.
    ticketStatusChanged: { document: `${SUPPORT_TICKETS}/{ticketId}`, on: 'written', load: () => notices().onTicketWritten },
    // Staff's replies (not internal notes) to the owner.
    ticketMessageCreated: {
      document: `${SUPPORT_TICKETS}/{ticketId}/${TICKET_MESSAGES}/{messageId}`,
      on: 'created',
      load: () => notices().onTicketMessageCreated,
    },
  },
  collections: [
    { name: SUPPORT_TICKETS },
    { name: EVENTS, parent: SUPPORT_TICKETS },
    { name: TICKET_MESSAGES, parent: SUPPORT_TICKETS },
    { name: SUPPORT_CANNED_REPLIES },
  ],
});
