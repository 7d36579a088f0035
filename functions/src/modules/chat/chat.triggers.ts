import type { AppConfig } from '../../platform/core/config';
import { db } from '../../platform/core/firebase/firebase';
import type { DocumentEvent } from '../../platform/core/module/module';
import { notificationHub, type Hub } from '../notifications';
import { accounts } from '../users';
import {
  countsAsUnread,
  membershipAfterMessage,
  messageNotice,
  SYSTEM_SENDER,
  type ConversationRecord,
  type MembershipRecord,
  type MessageRecord,
} from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';

export type FanOutResult = { counted: boolean; notified: number; duplicates: number } | 'ignored';

/**
 * A new message: every member's view moves (last message, the others' unread count) and the others are notified
 * (chat.message; mute and presence in chat_<conversationId> are the hub's business; members who block the sender
 * are left out). Delivered at least once: the counters move in one transaction that also marks the message
 * fanned out, so a repeat changes nothing; the notification ids derive from the message id, so a repeat
 * notifies nobody twice. A failing hub throws and the trigger runs again (counters already done).
 */
export async function fanOutMessage(conversationId: string, messageId: string, hub: Pick<Hub, 'dispatch'>): Promise<FanOutResult> {
  const moved = await db().runTransaction(async (tx) => {
    const message = await repo.message(conversationId, messageId, tx);
    const conversation = message ? await repo.get(conversationId, tx) : undefined;
    if (!message || !conversation) return undefined;
    const members = await repo.membershipsOf(conversationId, conversation.memberIds, tx);
    if (message.fannedOut) return { message, conversation, members, counted: false };
    for (const member of members) {
      const change = membershipAfterMessage(member, message);
      if (Object.keys(change).length > 0) repo.txUpdateMembership(tx, conversationId, member.userId, change);
    }
    repo.txUpdateMessage(tx, message, { fannedOut: true, counted: countsAsUnread(message) });
    return { message, conversation, members, counted: true };
  });
  if (!moved) return 'ignored';
  const { message, conversation, members, counted } = moved;
  if (message.senderId === SYSTEM_SENDER || message.deleted) return { counted, notified: 0, duplicates: 0 };
  const reports = await notify(message, conversation, members, hub);
  return { counted, notified: reports.filter((r) => !r.duplicate).length, duplicates: reports.filter((r) => r.duplicate).length };
}

async function notify(message: MessageRecord, conversation: ConversationRecord, members: MembershipRecord[], hub: Pick<Hub, 'dispatch'>) {
  const others = members.filter((m) => m.userId !== message.senderId);
  const blockers = await repo.blockersOf(
    message.senderId,
    others.map((m) => m.userId),
  );
  const recipients = others.filter((m) => !blockers.has(m.userId)).map((m) => ({ userId: m.userId, surface: m.surface }));
  if (recipients.length === 0) return [];
  const sender = await accounts.get(message.senderId);
  return hub.dispatch(messageNotice(message, conversation, recipients, sender?.name ?? null));
}

/** The `chatMessageCreated` trigger's work. */
export async function onMessageDocumentCreated(event: DocumentEvent, config: Readonly<AppConfig>) {
  return fanOutMessage(event.params.conversationId, event.params.messageId, notificationHub(config));
}
