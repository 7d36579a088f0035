import { defineModule, defineTask } from '../../platform/core/module/module';
import { CHAT_ERROR_CODES } from './chat.errors';
import { CHAT_EVENTS } from './chat.events';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import {
  CALL_LINES,
  CALLS,
  CHAT_BLOCK_LISTS,
  CHAT_BLOCKS,
  CHAT_INVITATIONS,
  CHAT_MEMBERSHIPS,
  CHAT_PREFERENCES,
  CHAT_REPORTS,
  CONVERSATIONS,
  MESSAGES,
  RING_TIMEOUT_QUEUE,
} from './chat.collections';
import { chatSwitches } from './chat.config';

const calls = () => require('./calls.model') as typeof import('./calls.model');
const conversations = () => require('./conversations.model') as typeof import('./conversations.model');

export const chatModule = defineModule({
  name: 'chat',
  uses: ['media', 'notifications', 'users'],
  apiTags: { chat: 'Conversations, messages and voice calls (call status RINGING, ACTIVE, ENDED, DECLINED, CANCELLED, MISSED).' },
  config: chatSwitches,
  seed: { load: () => (require('./chat.seed') as typeof import('./chat.seed')).seedChat },
  errorCodes: CHAT_ERROR_CODES,
  events: CHAT_EVENTS.rows,
  // The spec's contexts whose modules are not built yet (bookings): each moves to its module.
  chatContexts: ['BOOKING'],
  routes: (ctx) => [
    ...(require('./conversations.routes') as typeof import('./conversations.routes')).conversationsRoutes(ctx),
    ...(require('./calls.routes') as typeof import('./calls.routes')).callsRoutes(ctx),
  ],
  tasks: {
    // Settles a still-ringing call as MISSED. The Tasks emulator delivers at once (it ignores schedule times),
    // so a ring task waits in an emulator worker until its deadline: few at a time there.
    callRingTimeout: defineTask({
      queue: RING_TIMEOUT_QUEUE,
      options: {
        retryConfig: { maxAttempts: 5, minBackoffSeconds: 5 },
        rateLimits: { maxConcurrentDispatches: process.env.FUNCTIONS_EMULATOR === 'true' ? 4 : 100 },
        timeoutSeconds: 120,
        memory: '256MiB',
      },
      load: () => (require('./calls.tasks') as typeof import('./calls.tasks')).onRingTimeout,
    }),
  },
  triggers: {
    // Counters, last message and the chat.message notice of a new message (exactly-once counters, at-least-once safe).
    chatMessageCreated: {
      document: `${CONVERSATIONS}/{conversationId}/${MESSAGES}/{messageId}`,
      on: 'created',
      load: () => (require('./chat.triggers') as typeof import('./chat.triggers')).onMessageDocumentCreated,
    },
    // The missed-call notice, at least once (retried), idempotent by its notification id.
    callStatusChanged: {
      document: `${CALLS}/{callId}`,
      on: 'written',
      load: () => (require('./calls.triggers') as typeof import('./calls.triggers')).onCallDocumentWritten,
    },
  },
  collections: [
    {
      name: CALLS,
      clientAccess: true,
      listened: {
        name: 'CallDocument',
        path: `${CALLS}/{callId}`,
        readers: 'its two participants (`participants` contains the caller)',
        schema: () => calls().callDocument(),
      },
    },
    { name: EVENTS, parent: CALLS },
    { name: CALL_LINES },
    {
      name: CONVERSATIONS,
      clientAccess: true,
      listened: {
        name: 'ConversationDocument',
        path: `${CONVERSATIONS}/{conversationId}`,
        readers: 'its members (`memberIds` contains the caller)',
        schema: () => conversations().conversationDocument(),
      },
    },
    {
      name: MESSAGES,
      parent: CONVERSATIONS,
      clientAccess: true,
      listened: {
        name: 'MessageDocument',
        path: `${CONVERSATIONS}/{conversationId}/${MESSAGES}/{messageId}`,
        readers: "the members of its conversation (the conversation's `memberIds` contains the caller)",
        schema: () => conversations().messageDocument(),
      },
    },
    {
      name: CHAT_MEMBERSHIPS,
      clientAccess: true,
      listened: {
        name: 'ChatMembershipDocument',
        path: `${CHAT_MEMBERSHIPS}/{membershipId}`,
        readers: 'its member (`userId` is the caller)',
        schema: () => conversations().membershipDocument(),
      },
    },
    {
      name: CHAT_BLOCKS,
      clientAccess: true,
      listened: {
        name: 'ChatBlockDocument',
        path: `${CHAT_BLOCKS}/{blockId}`,
        readers: 'the one who blocks (`blockerId` is the caller)',
        schema: () => conversations().blockDocument(),
      },
    },
    { name: CHAT_BLOCK_LISTS },
    { name: CHAT_REPORTS },
    { name: CHAT_INVITATIONS },
    { name: EVENTS, parent: CHAT_INVITATIONS },
    { name: CHAT_PREFERENCES },
  ],
});
