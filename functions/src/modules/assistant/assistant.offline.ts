import { foldText } from '../../platform/kits/text/text';
import type { Intent } from './assistant.intents';
import type { AssistantAnswer, QuickReply, Reference } from './assistant.model';
import type { Lang, Passage } from './assistant.retrieval';
import { ASSISTANT_TEXTS as T } from './assistant.texts';
import { references, type AssistantTools } from './assistant.tools';
import { searchHelp } from './assistant.help-index';

/** Quick replies of the template table, in `lang`. */
export const quick = (lang: Lang, ...keys: Array<keyof typeof T.quick>): QuickReply[] =>
  keys.map((k) => ({ text: T.quick[k][lang], action: k === 'handoff' ? 'HANDOFF' : 'SEND' }));
const answer = (text: string, refs: Reference[], quickReplies: QuickReply[]): AssistantAnswer => ({ text, references: refs, quickReplies });

/** A help page's passage as an answer (an FAQ entry's answer, or a paragraph), with the page as reference. */
export function pageAnswer(passage: Passage, lang: Lang): { text: string; reference: Reference } {
  return {
    text: `${T.faqIntro(passage.title, lang)} ${passage.text}`,
    reference: { type: 'PAGE', id: passage.slug, label: passage.title, deepLink: { tab: 'AccountTab', screen: 'HelpPage', params: { slug: passage.slug } } },
  };
}

// "How do I get a refund?" asks the help pages, not the status of a refund: a how-to question without a record id
// is answered from them first when they have a passage for it.
const HOW_TO = /\b(lam sao|lam the nao|nhu the nao|the nao|bao lau|cach nao|huong dan|chinh sach|how do|how can|how to|how long|policy)\b/;
const isHowTo = (question: string) => HOW_TO.test(foldText(question));

// The offline assistant: the intent picks one of the caller's tools (bound to them), the answer is a template over
// what the tool returned. A question naming an id that is not the caller's is answered as if there were none.
export async function answerOffline(intent: Intent, question: string, tools: AssistantTools): Promise<AssistantAnswer> {
  const { lang, ids } = intent;
  if (intent.name !== 'faq' && ids.length === 0 && isHowTo(question)) {
    const help = await faqAnswer(question, lang, false);
    if (help) return help;
  }
  const named = ids.length > 0;
  const id = ids[0];
  switch (intent.name) {
    case 'greeting':
      return answer(T.greeting(lang), [], quick(lang, 'ride', 'refund', 'bookings', 'wallet'));
    case 'thanks':
      return answer(T.thanks(lang), [], []);
    case 'human':
      return answer(T.human(lang), [], quick(lang, 'handoff'));
    case 'ride_status': {
      const [ride] = await tools.rides(id);
      return ride
        ? answer(T.ride(ride, lang), [references.ride(ride)], quick(lang, 'handoff'))
        : answer(T.noneFound(lang, 'ride', named), [], quick(lang, 'handoff'));
    }
    case 'order_status': {
      const [order] = await tools.orders(id);
      return order
        ? answer(T.order(order, lang), [references.order(order)], quick(lang, 'handoff'))
        : answer(T.noneFound(lang, 'order', named), [], quick(lang, 'handoff'));
    }
    case 'bookings': {
      const label = intent.period ? T.period(intent.period.label, lang) : null;
      const list = await tools.bookings(intent.period ?? undefined, id);
      if (list.length === 0) return answer(named ? T.noneFound(lang, 'booking', true) : T.noBookings(lang, label), [], quick(lang, 'handoff'));
      return answer(T.bookings(list, lang, label), list.map(references.booking), quick(lang, 'handoff'));
    }
    case 'payment_status':
    case 'refund_status':
      return paymentAnswer(intent, tools);
    case 'wallet_balance': {
      const wallet = await tools.wallet();
      return answer(T.wallet(wallet.balance, wallet.held, lang), [references.wallet(wallet.userId, wallet.balance, lang)], quick(lang, 'refund'));
    }
    case 'ticket_status': {
      const [ticket] = await tools.tickets(id);
      return ticket ? answer(T.ticket(ticket, lang), [references.ticket(ticket)], []) : answer(T.noneFound(lang, 'ticket', named), [], quick(lang, 'handoff'));
    }
    default:
      return faqAnswer(question, lang);
  }
}

async function paymentAnswer(intent: Intent, tools: AssistantTools): Promise<AssistantAnswer> {
  const { lang } = intent;
  const payments = await tools.payments(intent.ids[0]);
  if (payments.length === 0) return answer(T.noneFound(lang, 'payment', intent.ids.length > 0), [], quick(lang, 'handoff'));
  // "Refund status": the latest payment with a refund, else the latest one (and how to ask for one).
  const refunded = payments.find((p) => p.refundedVnd > 0 || p.refundsPending > 0);
  const chosen = intent.name === 'refund_status' ? (refunded ?? payments[0]) : payments[0];
  if (intent.name === 'refund_status' && !refunded) return answer(T.noRefund(chosen, lang), [references.payment(chosen)], quick(lang, 'handoff'));
  return answer(T.payment(chosen, lang), [references.payment(chosen)], quick(lang, 'handoff'));
}

async function faqAnswer(question: string, lang: Lang, orUnknown: false): Promise<AssistantAnswer | undefined>;
async function faqAnswer(question: string, lang: Lang, orUnknown?: true): Promise<AssistantAnswer>;
async function faqAnswer(question: string, lang: Lang, orUnknown = true): Promise<AssistantAnswer | undefined> {
  const [best] = await searchHelp(question, lang, 1);
  if (!best) return orUnknown ? answer(T.unknown(lang), [], quick(lang, 'ride', 'order', 'handoff')) : undefined;
  const { text, reference } = pageAnswer(best.passage, best.passage.lang);
  return answer(text, [reference], quick(lang, 'handoff'));
}
