import { iso } from '../../platform/kits/time/time';
import type { AssistantMessageRecord } from './assistant.model';

export function messageView(m: AssistantMessageRecord) {
  return {
    id: m.id,
    role: m.role,
    text: m.text,
    lang: m.lang,
    intent: m.intent,
    replyTo: m.replyTo,
    references: m.references,
    quickReplies: m.quickReplies,
    provider: m.provider,
    createdAt: iso(m.createdAt),
  };
}
