import type { Transaction } from 'firebase-admin/firestore';
import { AppError, ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { db } from '../../platform/core/firebase/firebase';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import type { Attachment } from '../media';
import { accounts } from '../users';
import {
  DEFAULT_GROUP_ADDS,
  SYSTEM_SENDER,
  type ConversationRecord,
  type GroupAddMode,
  type MembershipRecord,
  type MessageRecord,
} from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';

// What every part of the conversations service shares: its dependencies, who may see a conversation, names,
// and the views of conversations and messages.

export interface ConversationsDeps {
  attachableMedia(ownerId: string, id: string, tx?: Transaction): Promise<Attachment | undefined>;
  mutedConversations(userId: string): Promise<Set<string>>;
  /** How others add a user who never set the preference (CHAT_GROUP_ADDS_DEFAULT). */
  defaultGroupAdds?: GroupAddMode;
  clock?: () => number;
}

export const notFound = () => new NotFoundError('No such conversation');
/** Someone's block stands in the way; only the ids the caller blocks are named (who blocks the caller stays private). */
export const blockedError = (message: string, callerBlocks: ReadonlySet<string> | undefined, among: string[]) =>
  new AppError(403, message, { userIds: among.filter((u) => callerBlocks?.has(u)) }).withCode('CHAT_BLOCKED');

export function writable(conversation: ConversationRecord): void {
  if (conversation.closed) throw new ConflictError('This conversation is closed (read-only)').withCode('CHAT_CLOSED');
}

export function systemMessage(conversationId: string, event: string, text: string, userIds: string[], at: number, id?: string): MessageRecord {
  return {
    id: id ?? repo.newId(),
    conversationId,
    senderId: SYSTEM_SENDER,
    type: 'SYSTEM',
    text,
    media: null,
    location: null,
    replyTo: null,
    system: { event, userIds },
    createdAt: at,
    editedAt: null,
    deleted: false,
    fannedOut: false,
    counted: false,
  };
}

export function toMessage(m: MessageRecord) {
  return {
    id: m.id,
    conversationId: m.conversationId,
    senderId: m.senderId,
    type: m.type,
    text: m.text,
    media: m.media,
    location: m.location,
    replyTo: m.replyTo,
    system: m.system,
    createdAt: iso(m.createdAt),
    editedAt: isoOrNull(m.editedAt),
    deleted: m.deleted,
  };
}

/** The shared part of the service: built once per service with its dependencies. */
export function conversationsCommon(deps: ConversationsDeps) {
  const now = deps.clock ?? Date.now;
  const defaultGroupAdds = deps.defaultGroupAdds ?? DEFAULT_GROUP_ADDS;

  async function namesOf(userIds: string[]): Promise<Map<string, string | null>> {
    const unique = [...new Set(userIds)].filter((u) => u !== SYSTEM_SENDER);
    if (unique.length === 0) return new Map();
    const snaps = await db().getAll(...unique.map((u) => accounts.ref(u)));
    return new Map(snaps.map((s) => [s.id, accounts.fromSnapshot(s)?.name ?? null]));
  }

  /** The conversation if the caller is a member; 404 otherwise (its existence is not confirmed to others). */
  async function memberView(callerId: string, id: string, tx?: Transaction): Promise<ConversationRecord> {
    const conversation = await repo.get(id, tx);
    if (!conversation || !conversation.memberIds.includes(callerId)) throw notFound();
    return conversation;
  }

  function titleFor(conversation: ConversationRecord, callerId: string, names: Map<string, string | null>): string | null {
    if (conversation.type !== 'DIRECT') return conversation.title;
    const other = conversation.memberIds.find((m) => m !== callerId);
    return other ? (names.get(other) ?? null) : null;
  }

  function common(
    conversation: ConversationRecord,
    membership: MembershipRecord | undefined,
    callerId: string,
    names: Map<string, string | null>,
    muted: Set<string>,
  ) {
    return {
      id: conversation.id,
      type: conversation.type,
      title: titleFor(conversation, callerId, names),
      ownerId: conversation.ownerId,
      context: conversation.context,
      closed: conversation.closed,
      memberCount: conversation.memberIds.length,
      invitedIds: conversation.invitedIds ?? [],
      lastMessage: membership?.lastMessage ? { ...membership.lastMessage, createdAt: iso(membership.lastMessage.createdAt) } : null,
      lastActivityAt: iso(membership?.lastActivityAt ?? conversation.updatedAt),
      unreadCount: membership?.unreadCount ?? 0,
      muted: muted.has(conversation.id),
      createdAt: iso(conversation.createdAt),
    };
  }

  async function detail(conversation: ConversationRecord, callerId: string) {
    const [members, names, muted] = await Promise.all([
      repo.membershipsOf(conversation.id, conversation.memberIds),
      namesOf(conversation.memberIds),
      deps.mutedConversations(callerId),
    ]);
    const byUser = new Map(members.map((m) => [m.userId, m]));
    return {
      ...common(conversation, byUser.get(callerId), callerId, names, muted),
      members: conversation.memberIds.map((userId) => {
        const m = byUser.get(userId);
        return {
          userId,
          name: names.get(userId) ?? null,
          role: m?.role ?? 'MEMBER',
          readUpTo: isoOrNull(m?.readUpToAt),
          deliveredUpTo: isoOrNull(m?.deliveredUpToAt),
        };
      }),
    };
  }

  async function existingAccounts(userIds: string[]): Promise<Map<string, string>> {
    const names = await namesOf(userIds);
    const missing = userIds.filter((u) => !names.has(u) || names.get(u) === null);
    if (missing.length > 0) throw new NotFoundError('No such account').withCode('NOT_FOUND');
    return names as Map<string, string>;
  }

  async function messageIn(conversationId: string, messageId: string, field: string, tx?: Transaction): Promise<MessageRecord> {
    const message = await repo.message(conversationId, messageId, tx);
    if (!message)
      throw new AppError(422, `${field} is not a message of this conversation`, [{ field, message: 'not a message of this conversation' }]).withCode(
        'CHAT_REPLY_NOT_FOUND',
      );
    return message;
  }

  return { deps, now, defaultGroupAdds, namesOf, memberView, common, detail, existingAccounts, messageIn };
}

export type ConversationsCommon = ReturnType<typeof conversationsCommon>;
