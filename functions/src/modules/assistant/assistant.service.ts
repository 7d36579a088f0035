import type { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { truncateText } from '../../platform/kits/text/text';
import { openTicketFor, type TicketCategory } from '../support';
import { answerHosted } from './assistant.hosted';
import { classify, type IntentName } from './assistant.intents';
import { HANDOFF_TURNS, HISTORY_TURNS, type AssistantAnswer, type AssistantMessageRecord, type ProviderName } from './assistant.model';
import { answerOffline } from './assistant.offline';
import { assistantRepo as repo } from './assistant.repo';
import type { Lang } from './assistant.retrieval';
import type { AskSchema, HandoffSchema } from './assistant.schemas';
import { ASSISTANT_TEXTS as T } from './assistant.texts';
import { toolsFor } from './assistant.tools';

export interface AssistantDeps {
  config: Readonly<AppConfig>;
  now: () => number;
  /** The user's language for texts (their account's). */
  localeOf(userId: string): Promise<Lang>;
  fetchImpl?: typeof fetch;
}

const CATEGORY_OF: Partial<Record<IntentName, TicketCategory>> = {
  ride_status: 'RIDE',
  order_status: 'ORDER',
  bookings: 'BOOKING',
  payment_status: 'PAYMENT',
  refund_status: 'PAYMENT',
  wallet_balance: 'PAYMENT',
};
const LINKABLE = new Set(['RIDE', 'ORDER', 'BOOKING', 'PAYMENT']);

// One conversation per user: a question is classified, answered by the caller's tools (offline rules and templates, or
// a hosted model when configured, the rules answering when it fails), and stored with its answer; a conversation
// can be handed to support as a ticket carrying its transcript and the record it was about.
export function createAssistant(deps: AssistantDeps) {
  const { config, now } = deps;

  async function ask(userId: string, body: z.output<typeof AskSchema>) {
    const t = now();
    const intent = classify(body.text, { fallbackLang: body.lang ?? (await deps.localeOf(userId)), now: t });
    const lang = body.lang ?? intent.lang;
    const tools = toolsFor(config, userId);
    let provider: ProviderName = 'offline';
    let answer: AssistantAnswer | undefined;
    if (config.ASSISTANT_PROVIDER === 'openai-compatible') {
      const history = await repo.recent(userId, HISTORY_TURNS);
      answer = await answerHosted(config, { question: body.text, lang, history, now: t }, tools, deps.fetchImpl);
      if (answer) provider = 'openai-compatible';
    }
    answer ??= await answerOffline({ ...intent, lang }, body.text, tools);
    const question: AssistantMessageRecord = {
      id: repo.newId(userId),
      userId,
      role: 'user',
      text: body.text,
      lang,
      intent: intent.name,
      replyTo: null,
      references: [],
      quickReplies: [],
      provider: null,
      createdAt: t,
    };
    const reply: AssistantMessageRecord = {
      ...answer,
      id: repo.newId(userId),
      userId,
      role: 'assistant',
      lang,
      intent: intent.name,
      replyTo: question.id,
      provider,
      createdAt: t + 1,
    };
    await repo.append(userId, [question, reply], t);
    return { question, answer: reply };
  }

  async function handoff(userId: string, body: z.output<typeof HandoffSchema>) {
    const turns = await repo.recent(userId, HANDOFF_TURNS);
    const asked = turns.filter((m) => m.role === 'user');
    if (asked.length === 0) throw new ConflictError('Ask the assistant something first').withCode('ASSISTANT_NOTHING_TO_HAND_OFF');
    const last = asked[asked.length - 1];
    const lang = last.lang;
    const transcript = turns
      .map((m) => `${m.role === 'user' ? (lang === 'vi' ? 'Bạn' : 'You') : lang === 'vi' ? 'Trợ lý' : 'Assistant'}: ${m.text}`)
      .join('\n');
    const about = [...turns]
      .reverse()
      .flatMap((m) => m.references)
      .find((r) => LINKABLE.has(r.type));
    const subject =
      body.subject ?? (last.text.trim().length >= 3 ? truncateText(last.text, 120) : lang === 'vi' ? 'Trò chuyện với trợ lý' : 'Assistant conversation');
    const ticket = await openTicketFor(config, userId, {
      category: body.category ?? CATEGORY_OF[last.intent ?? 'faq'] ?? 'OTHER',
      subject,
      description: truncateText(transcript, 4000),
      link: about ? { type: about.type as 'RIDE' | 'ORDER' | 'BOOKING' | 'PAYMENT', id: about.id } : null,
    });
    const t = now();
    const note: AssistantMessageRecord = {
      id: repo.newId(userId),
      userId,
      role: 'assistant',
      text:
        lang === 'vi'
          ? `Mình đã tạo yêu cầu hỗ trợ "${ticket.subject}". Nhân viên sẽ trả lời bạn sớm.`
          : `I've opened the support ticket "${ticket.subject}". Our team will answer you soon.`,
      lang,
      intent: 'human',
      replyTo: last.id,
      references: [
        { type: 'TICKET', id: ticket.id, label: ticket.status, deepLink: { tab: 'AccountTab', screen: 'SupportTicket', params: { id: ticket.id } } },
      ],
      quickReplies: [],
      provider: 'offline',
      createdAt: t,
    };
    await repo.append(userId, [note], t);
    return { ticket, message: note };
  }

  return {
    ask,
    handoff,
    history: (userId: string, page: { limit: number; cursor?: string }) => repo.page(userId, { ...page, query: 'assistant:history', caller: userId }),
    async removeOne(userId: string, id: string) {
      if (!(await repo.remove(userId, id))) throw new NotFoundError('No such message').withCode('ASSISTANT_MESSAGE_NOT_FOUND');
    },
    clear: (userId: string) => repo.clear(userId),
    async suggestions(userId: string, lang?: Lang) {
      const l = lang ?? (await deps.localeOf(userId));
      return (['ride', 'order', 'refund', 'bookings', 'wallet', 'handoff'] as const).map((k) => ({
        text: T.quick[k][l],
        action: k === 'handoff' ? 'HANDOFF' : 'SEND',
      }));
    },
  };
}
export type Assistant = ReturnType<typeof createAssistant>;
