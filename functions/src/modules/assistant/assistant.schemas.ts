import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { writtenText } from '../../platform/kits/text/text.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { TICKET_CATEGORIES, TicketSchema } from '../support';
import { INTENTS } from './assistant.intents';
import { MAX_QUESTION_CHARS, PROVIDERS, REFERENCE_TYPES } from './assistant.model';

const Lang = z.enum(['vi', 'en']);

export const AskSchema = z
  .object({
    text: writtenText(MAX_QUESTION_CHARS).describe(`Your question, 1 to ${MAX_QUESTION_CHARS} characters (code points)`),
    lang: Lang.optional().describe('The answer’s language; absent: the question’s (its diacritics and words), else your account’s'),
  })
  .meta({ id: 'AssistantQuestion' });

export const ReferenceSchema = z
  .object({
    type: z.enum(REFERENCE_TYPES),
    id: z.string().describe('The record’s id (a page: its slug; the wallet: your user id)'),
    label: z.string().describe('A short label for the chip: a status, a balance, a page title'),
    deepLink: z.object({ tab: z.string(), screen: z.string(), params: z.record(z.string(), z.string()) }),
  })
  .meta({ id: 'AssistantReference' });

export const QuickReplySchema = z
  .object({
    text: z.string(),
    action: z.enum(['SEND', 'HANDOFF']).describe('SEND: send `text` as the next question; HANDOFF: POST /assistant/handoff'),
  })
  .meta({ id: 'AssistantQuickReply' });

export const AssistantMessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(['user', 'assistant']),
    text: z.string().describe('Plain text, never HTML'),
    lang: Lang,
    intent: z.enum(INTENTS).nullable().describe('What the question was read as (offline rules)'),
    replyTo: z.string().nullable().describe('An answer: the question it answers'),
    references: z.array(ReferenceSchema).describe('The records of yours the answer used'),
    quickReplies: z.array(QuickReplySchema),
    provider: z.enum(PROVIDERS).nullable().describe('Who wrote an answer'),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'AssistantMessage' });

export const AskAnswerSchema = z.object({ question: AssistantMessageSchema, answer: AssistantMessageSchema }).meta({ id: 'AssistantExchange' });
export const HistorySchema = z.object({ items: z.array(AssistantMessageSchema), nextCursor: z.string().nullable() }).meta({ id: 'AssistantHistory' });
export const HistoryQuerySchema = PageQuerySchema;
export const ClearedSchema = z
  .object({
    deleted: z.number().int().describe('How many messages were deleted'),
    more: z.boolean().describe('A very long conversation is deleted 4,000 messages per call: true means call again'),
  })
  .meta({ id: 'AssistantCleared' });
export const SuggestionsSchema = z.object({ items: z.array(QuickReplySchema) }).meta({ id: 'AssistantSuggestions' });
export const SuggestionsQuerySchema = z.object({ lang: Lang.optional() });

export const HandoffSchema = z
  .object({
    category: z.enum(TICKET_CATEGORIES).optional().describe('Default: from the last question (a ride → RIDE, a refund → PAYMENT…), else OTHER'),
    subject: writtenText(120, 3).optional().describe('Default: the last question'),
    surface: z.enum(['CON', 'DRV', 'PAR']).default('CON').describe('The app you ask from: the ticket’s notices open there'),
  })
  .meta({ id: 'AssistantHandoff' });
export const HandoffAnswerSchema = z.object({ ticket: TicketSchema, message: AssistantMessageSchema }).meta({ id: 'AssistantHandoffResult' });
