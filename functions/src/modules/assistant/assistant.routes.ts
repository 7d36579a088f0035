import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import {
  AskAnswerSchema,
  AskSchema,
  ClearedSchema,
  HandoffAnswerSchema,
  HandoffSchema,
  HistoryQuerySchema,
  HistorySchema,
  SuggestionsQuerySchema,
  SuggestionsSchema,
} from './assistant.schemas';
import { ASSISTANT_RATE_LIMITS } from './assistant.limits';
import { messageView } from './assistant.views';
import { assistantFor } from './assistant.wiring';

export function assistantRoutes({ config }: AppContext): AnyRoute[] {
  const assistant = () => assistantFor(config);
  const base = { tag: 'assistant' as const, auth: [] as const };
  return [
    defineRoute({
      ...base,
      method: 'post',
      path: '/assistant/messages',
      operationId: 'askAssistant',
      summary: 'Ask the assistant about your rides, orders, bookings, payments, wallet or tickets, or a help question',
      description:
        'Answers from your own records only (the backend’s own reads, as you: someone else’s ride id answers as if it did not exist) and from the published help pages (BM25, Vietnamese and English, diacritics folded: "hoan tien" finds "hoàn tiền"). The answer carries `references` (each record it used, with its deep link) and `quickReplies`. Offline by default (ASSISTANT_PROVIDER); a hosted model answers when configured, the offline rules when it fails. Both messages are kept in your conversation. With an Idempotency-Key a retry answers the same exchange. Limit: `assistant-message`, 30 per user per 10 minutes.',
      idempotent: true,
      rateLimit: ASSISTANT_RATE_LIMITS.ask,
      request: { body: AskSchema },
      response: { status: 201, description: 'Your question and its answer.', schema: AskAnswerSchema },
      handler: async ({ auth, body }) => {
        const { question, answer } = await assistant().ask(auth!.userId, body);
        return { question: messageView(question), answer: messageView(answer) };
      },
    }),
    defineRoute({
      ...base,
      method: 'get',
      path: '/assistant/messages',
      operationId: 'listAssistantMessages',
      summary: 'My conversation with the assistant, newest first',
      request: { query: HistoryQuerySchema },
      response: { description: 'A page of messages.', schema: HistorySchema },
      handler: async ({ auth, query }) => {
        const page = await assistant().history(auth!.userId, query);
        return { items: page.items.map(messageView), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...base,
      method: 'delete',
      path: '/assistant/messages',
      operationId: 'clearAssistantMessages',
      summary: 'Delete my whole conversation with the assistant',
      description: 'Tickets opened from it keep their transcript. Limit: `assistant-clear`, 10 per user per hour.',
      rateLimit: ASSISTANT_RATE_LIMITS.clear,
      response: { description: 'How many messages were deleted (0 when there were none).', schema: ClearedSchema },
      handler: ({ auth }) => assistant().clear(auth!.userId),
    }),
    defineRoute({
      ...base,
      method: 'delete',
      path: '/assistant/messages/:id',
      operationId: 'deleteAssistantMessage',
      summary: 'Delete one message of my conversation',
      errors: [404],
      codes: ['ASSISTANT_MESSAGE_NOT_FOUND'],
      request: { params: IdParamsSchema },
      response: { description: 'Deleted.', schema: ClearedSchema },
      handler: async ({ auth, params }) => {
        await assistant().removeOne(auth!.userId, params.id);
        return { deleted: 1, more: false };
      },
    }),
    defineRoute({
      ...base,
      method: 'post',
      path: '/assistant/handoff',
      operationId: 'handAssistantToSupport',
      summary: 'Hand my conversation to the support team as a ticket',
      description:
        'Opens a support ticket (source ASSISTANT) whose description is the conversation’s last 20 messages (the newest kept within 4,000 characters), linked to the latest ride, order, booking or payment of yours an answer referred to; the conversation gets a message pointing at the ticket. One ticket per question handed off: a retry or a double tap answers the same ticket. 409 ASSISTANT_NOTHING_TO_HAND_OFF before any question. Limit: `assistant-handoff`, 5 per user per hour.',
      idempotent: true,
      rateLimit: ASSISTANT_RATE_LIMITS.handoff,
      errors: [409],
      codes: ['ASSISTANT_NOTHING_TO_HAND_OFF'],
      request: { body: HandoffSchema },
      response: { status: 201, description: 'The ticket and the conversation’s message about it.', schema: HandoffAnswerSchema },
      handler: async ({ auth, body }) => {
        const { ticket, message } = await assistant().handoff(auth!.userId, body);
        return { ticket, message: messageView(message) };
      },
    }),
    defineRoute({
      ...base,
      method: 'get',
      path: '/assistant/suggestions',
      operationId: 'listAssistantSuggestions',
      summary: 'Questions to start with (quick replies), in my language',
      request: { query: SuggestionsQuerySchema },
      response: { description: 'Starter questions and the hand-off.', schema: SuggestionsSchema },
      handler: async ({ auth, query }) => ({ items: await assistant().suggestions(auth!.userId, query.lang) }),
    }),
  ];
}
