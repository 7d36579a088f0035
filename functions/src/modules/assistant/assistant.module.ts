import { defineModule } from '../../platform/core/module/module';
import { ASSISTANT_CONVERSATIONS, ASSISTANT_MESSAGES } from './assistant.collections';
import { assistantSwitches } from './assistant.config';
import { ASSISTANT_ERROR_CODES } from './assistant.errors';

// The in-app assistant: answers a user's questions from their own records (the other modules' owner-scoped reads,
// bound to the caller) and the published help pages, offline by default or through a hosted model with tools; hands a
// conversation to support as a ticket.
export const assistantModule = defineModule({
  name: 'assistant',
  uses: ['bookings', 'cms', 'orders', 'payments', 'rides', 'support', 'users', 'wallet'],
  apiTags: { assistant: 'In-app assistant: questions about orders, rides and bookings.' },
  config: assistantSwitches,
  errorCodes: ASSISTANT_ERROR_CODES,
  routes: (ctx) => (require('./assistant.routes') as typeof import('./assistant.routes')).assistantRoutes(ctx),
  collections: [{ name: ASSISTANT_CONVERSATIONS }, { name: ASSISTANT_MESSAGES, parent: ASSISTANT_CONVERSATIONS }],
});
