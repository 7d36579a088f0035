import type { IntentName } from './assistant.intents';
import type { Lang } from './assistant.retrieval';

/** The kinds of record an answer may point at, each opening a screen of the app. */
export const REFERENCE_TYPES = ['RIDE', 'ORDER', 'BOOKING', 'PAYMENT', 'WALLET', 'TICKET', 'PAGE'] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

export interface Reference {
  type: ReferenceType;
  id: string;
  /** A short label the app may show on the chip (a status, an amount, a page title). */
  label: string;
  deepLink: { tab: string; screen: string; params: Record<string, string> };
}

/** What an answer offers to tap next: `text` is sent as the next message, or `action` is an API call the app makes. */
export interface QuickReply {
  text: string;
  action: 'SEND' | 'HANDOFF';
}

export interface AssistantAnswer {
  text: string;
  references: Reference[];
  quickReplies: QuickReply[];
}

export const PROVIDERS = ['offline', 'openai-compatible'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface AssistantMessageRecord {
  id: string;
  userId: string;
  role: 'user' | 'assistant';
  text: string;
  lang: Lang;
  /** The user's question: the intent the rules read; an answer: the question's id. */
  intent: IntentName | null;
  replyTo: string | null;
  references: Reference[];
  quickReplies: QuickReply[];
  /** Who wrote an answer; `offline` also when the hosted model failed and the rules answered instead. */
  provider: ProviderName | null;
  createdAt: number;
}

/** Characters (code points) of a question at most. */
export const MAX_QUESTION_CHARS = 1000;
/** The turns a hosted model is given as history, and a hand-off carries into a ticket. */
export const HISTORY_TURNS = 10;
export const HANDOFF_TURNS = 20;
