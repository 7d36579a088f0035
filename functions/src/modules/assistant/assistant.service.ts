import type { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { stableId } from '../../platform/kits/ids/stable-id';
import { codePoints, truncateText } from '../../platform/kits/text/text';
import { openTicketFor, type TicketCategory } from '../support';
import { answerHosted } from './assistant.hosted';
import { classify, type IntentName } from './assistant.intents';
import { HANDOFF_TURNS, HISTORY_TURNS, type AssistantAnswer, type AssistantMessageRecord, type ProviderName } from './assistant.model';
import { answerOffline, quick } from './assistant.offline';
import { assistantRepo as repo } from './assistant.repo';
import type { Lang } from './assistant.retrieval';
import type { AskSchema, HandoffSchema } from './assistant.schemas';
import { ASSISTANT_TEXTS as T } from './assistant.texts';
import { references, toolsFor } from './assistant.tools';

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
/** Code points of a hand-off's transcript at most (a ticket's description). */
const TRANSCRIPT_MAX = 4000;

/** The conversation as staff read it, newest kept: older turns are dropped first when it is too long. */
export function transcriptOf(turns: readonly AssistantMessageRecord[], lang: Lang, max: number): string {
  const lines: string[] = [];
  let used = 0;
  for (const m of [...turns].reverse()) {
    const line = `${T.speaker(m.role, lang)}: ${m.text}`;
    const size = codePoints(line) + (lines.length > 0 ? 1 : 0);
    if (used + size > max) {
      if (lines.length === 0) lines.push(truncateText(line, max));
      break;
    }
    lines.push(line);
    used += size;
  }
  return lines.reverse().join('\n');
}

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
    const { lang } = last;
    const about = [...turns]
      .reverse()
      .flatMap((m) => m.references)
      .find((r) => LINKABLE.has(r.type));
    const ticket = {
      // One ticket per question handed off: a retry, a double tap or a race opens it once.
      id: stableId({ scope: 'assistant-handoff', caller: userId, key: last.id }),
      category: body.category ?? CATEGORY_OF[last.intent ?? 'faq'] ?? 'OTHER',
      subject: body.subject ?? (codePoints(last.text.trim()) >= 3 ? truncateText(last.text, 120) : T.handoffSubject(lang)),
      description: transcriptOf(turns, lang, TRANSCRIPT_MAX),
      link: about ? { type: about.type as 'RIDE' | 'ORDER' | 'BOOKING' | 'PAYMENT', id: about.id } : null,
      surface: body.surface,
    };
    // A record no longer readable as the caller's (a ride since reassigned) does not stop the hand-off.
    const opened = await openTicketFor(config, userId, ticket).catch((err: { code?: string }) => {
      if (err.code === 'TICKET_LINK_NOT_FOUND') return openTicketFor(config, userId, { ...ticket, link: null });
      throw err;
    });
    const t = now();
    const note: AssistantMessageRecord = {
      id: `handoff-${opened.id}`,
      userId,
      role: 'assistant',
      text: T.handedOff(opened.subject, lang),
      lang,
      intent: 'human',
      replyTo: last.id,
      references: [references.ticket({ id: opened.id, status: opened.status, subject: opened.subject, lastMessageAt: opened.lastMessageAt })],
      quickReplies: [],
      provider: 'offline',
      createdAt: t,
    };
    await repo.append(userId, [note], t);
    return { ticket: opened, message: note };
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
      return quick(l, 'ride', 'order', 'refund', 'bookings', 'wallet', 'handoff');
    },
  };
}
export type Assistant = ReturnType<typeof createAssistant>;
