import * as z from 'zod/mini';
import { describe, lazySchema, markerTimestamp, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { stableId } from '../../platform/kits/ids/stable-id';
import { truncateText } from '../../platform/kits/text/text';
import { SURFACES, type Surface } from '../notifications';
import type { RateLimitRule } from '../../platform/core/ratelimit/rate-limit';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import { CHAT_EVENTS } from './chat.events';
import { CHAT_TEXTS, type PreviewPart } from './chat.texts';
import { MODULE_LISTS } from '../../platform/core/module/module-lists.generated';

export { CHAT_BLOCK_LISTS, CHAT_BLOCKS, CHAT_INVITATIONS, CHAT_MEMBERSHIPS, CHAT_PREFERENCES, CHAT_REPORTS, CONVERSATIONS, MESSAGES } from './chat.collections';

export const CHAT_LIMITS = {
  groupMembersMin: 2,
  groupMembersMax: 100,
  titleMax: 100,
  textMax: 4000,
  editWindowMs: 15 * 60_000,
  previewMax: 120,
  /** People one user blocks (their list is one document, read for every group change they are part of). */
  blocksMax: 1000,
} as const;

/**
 * Per-user limits of chat writes (scopes of RATE_LIMITS): far above a person's pace (a message a second for five
 * minutes, a call every 20 s), low enough that a script cannot flood members or the moderators' queue.
 */
export const CHAT_RATE_LIMITS = {
  message: { scope: 'chat-message', limit: 300, windowSec: 300, per: 'user' },
  report: { scope: 'chat-report', limit: 20, windowSec: 3600, per: 'user' },
  call: { scope: 'chat-call', limit: 30, windowSec: 600, per: 'user' },
  conversation: { scope: 'chat-conversation', limit: 60, windowSec: 3600, per: 'user' },
} satisfies Record<string, RateLimitRule>;

export const CONVERSATION_TYPES = ['DIRECT', 'GROUP', 'CONTEXT'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];
export const CONTEXT_TYPES = MODULE_LISTS.chatContexts; // claimed by the module definitions (`chatContexts`)
export type ContextType = (typeof CONTEXT_TYPES)[number];
export const MESSAGE_TYPES = ['TEXT', 'AUDIO', 'IMAGE', 'LOCATION', 'SYSTEM'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MEMBER_ROLES = ['OWNER', 'MEMBER'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Sender of SYSTEM messages (member joined, call missed…). */
export const SYSTEM_SENDER = 'system';

/** `conversations/{conversationId}`: a conversation its members read (the document id is the conversation id). */
export const conversationDocument = lazySchema(() =>
  describe(
    z.object({
      type: describe(z.enum(CONVERSATION_TYPES), 'DIRECT (two people), GROUP, or CONTEXT (the chat of a ride, order or booking).'),
      title: describe(z.nullable(z.string()), 'GROUP: its title.'),
      ownerId: describe(z.nullable(z.string()), 'GROUP: who adds and removes members.'),
      memberIds: describe(z.array(z.string()), 'The members: who may read this document and its messages (firestore.rules).'),
      invitedIds: describe(z.optional(z.array(z.string())), 'GROUP: accounts invited and not yet answering (they count toward the member limit).'),
      context: describe(z.nullable(z.object({ type: z.enum(CONTEXT_TYPES), id: z.string() })), 'CONTEXT: the ride, order or booking.'),
      closed: describe(z.boolean(), 'CONTEXT: read-only once its ride, order or booking is closed.'),
      createdBy: describe(z.string(), 'Who created it (an account id, or `system`).'),
      createdAt: timestamp('when it was created.'),
      updatedAt: timestamp('last change of members or title.'),
    }),
    'A conversation: members, title, owner, context. Changes on membership and title changes only (new messages do not touch it).',
  ),
);
export type ConversationRecord = Identified & RecordOf<typeof conversationDocument>;

const messagePreview = () =>
  z.object({
    id: describe(z.string(), 'The message id.'),
    senderId: z.string(),
    type: z.enum(MESSAGE_TYPES),
    preview: describe(z.string(), 'A short text of it (media are named: Voice message, Photo, Location).'),
    createdAt: timestamp('when it was sent.'),
  });

/** `chat_memberships/{conversationId}_{userId}`: one member's view of a conversation. */
export const membershipDocument = lazySchema(() =>
  describe(
    z.object({
      conversationId: z.string(),
      userId: describe(z.string(), 'The member: the only one who may read this document (firestore.rules).'),
      role: describe(z.enum(MEMBER_ROLES), 'OWNER of a group, or MEMBER.'),
      surface: describe(z.enum(SURFACES), "The app this member chats from (the notification's surface)."),
      joinedAt: timestamp('when the member joined.'),
      lastActivityAt: timestamp('the newest message, or joining: conversation lists sort on it.'),
      lastMessage: describe(z.nullable(messagePreview()), 'The newest message.'),
      unreadCount: describe(z.number(), 'Messages of others after the read marker (SYSTEM messages do not count).'),
      readUpToId: describe(z.nullable(z.string()), 'The last message read.'),
      readUpToAt: markerTimestamp('the time of the last message read.'),
      deliveredUpToAt: markerTimestamp("the time of the last message delivered to this member's device."),
    }),
    "One member's view of a conversation: last message, unread count, read and delivered markers. Each new message rewrites it (one document per member).",
  ),
);
export type MembershipRecord = RecordOf<typeof membershipDocument>;

/** `conversations/{conversationId}/messages/{messageId}`: a message the conversation's members listen to. */
export const messageDocument = lazySchema(() =>
  describe(
    z.object({
      id: describe(z.string(), 'The message id (also the document id).'),
      conversationId: z.string(),
      senderId: describe(z.string(), 'The sender (an account id, or `system`).'),
      type: describe(z.enum(MESSAGE_TYPES), 'TEXT, AUDIO, IMAGE, LOCATION or SYSTEM.'),
      text: describe(z.nullable(z.string()), 'TEXT and SYSTEM: the text; null once deleted.'),
      media: describe(z.nullable(z.object({ id: z.string(), mimeType: z.string(), url: z.string() })), 'AUDIO and IMAGE: the media item.'),
      location: describe(z.nullable(z.object({ lat: z.number(), lng: z.number() })), 'LOCATION: the point.'),
      replyTo: describe(z.nullable(z.object({ id: z.string(), senderId: z.string(), preview: z.string() })), 'The message this one answers.'),
      system: describe(
        z.nullable(z.object({ event: z.string(), userIds: z.array(z.string()) })),
        'SYSTEM messages: what happened, for apps that render them their own way.',
      ),
      createdAt: timestamp('when it was sent.'),
      editedAt: nullableTimestamp('when it was last edited or deleted.'),
      deleted: describe(z.boolean(), 'Deleted by its sender (text, media and location are cleared).'),
      fannedOut: describe(z.boolean(), "Set once the members' counters include this message (exactly once)."),
      counted: describe(z.boolean(), 'Counts toward unread (set with fannedOut; SYSTEM messages do not count).'),
    }),
    'A message of a conversation.',
  ),
);
export type MessageRecord = RecordOf<typeof messageDocument>;

/** `chat_blocks/{blockerId}_{blockedId}`: a block, read by the one who blocks. */
export const blockDocument = lazySchema(() =>
  describe(
    z.object({
      blockerId: describe(z.string(), 'Who blocks: the only one who may read this document (firestore.rules).'),
      blockedId: describe(z.string(), 'Who is blocked.'),
      createdAt: timestamp('when the block was made.'),
    }),
    'A block: the blocked person cannot message or call the blocker, nor share a group with them.',
  ),
);
export type BlockRecord = RecordOf<typeof blockDocument>;

/**
 * How others add me to a group: INVITATION (the default, the safe one: I accept or decline first) or DIRECT
 * (I become a member at once, as before invitations existed). CHAT_GROUP_ADDS_DEFAULT sets it for users who never chose.
 */
export const GROUP_ADD_MODES = ['INVITATION', 'DIRECT'] as const;
export type GroupAddMode = (typeof GROUP_ADD_MODES)[number];
export const DEFAULT_GROUP_ADDS: GroupAddMode = 'INVITATION';

export interface ChatPreferencesRecord {
  userId: string;
  groupAdds: GroupAddMode;
  updatedAt: number;
}

// Invitation life cycle: PENDING → ACCEPTED (the invitee joins) | DECLINED (not invited to this group again)
// | WITHDRAWN (the owner took it back). An accepted invitation of someone who left or was removed, or a withdrawn
// one, opens again (PENDING) when the owner adds them anew.
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'DECLINED', 'WITHDRAWN'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
export const INVITATION_MACHINE = defineMachine({
  entity: 'invitation',
  states: INVITATION_STATUSES,
  moves: {
    accept: { from: 'PENDING', to: 'ACCEPTED', by: 'invitee' },
    decline: { from: 'PENDING', to: 'DECLINED', by: 'invitee' },
    // The system withdraws when a block comes between inviter and invitee, or when the group is left empty.
    withdraw: { from: 'PENDING', to: 'WITHDRAWN', by: ['owner', 'system'] },
    reinvite: { from: ['ACCEPTED', 'WITHDRAWN'], to: 'PENDING', by: 'owner' },
  },
  codes: { transition: 'CHAT_INVITATION_TRANSITION', actor: 'CHAT_INVITATION_TRANSITION' },
});

export interface InvitationRecord {
  id: string;
  conversationId: string;
  /** The invitee. */
  userId: string;
  invitedBy: string;
  /** The group's title when the invitation was made (shown once it is no longer pending). */
  title?: string | null;
  status: InvitationStatus;
  createdAt: number;
  updatedAt: number;
  respondedAt: number | null;
}

export interface BlockListRecord {
  userId: string;
  blockedIds: string[];
  updatedAt: number;
}

/**
 * Which of `added` may not join a group with `present` (members and pending invitees) or each other: one of the
 * two blocks the other. `blocks` holds each person's blocked ids (absent: blocks nobody).
 */
export function blockConflicts(blocks: Map<string, ReadonlySet<string>>, added: string[], present: string[]): string[] {
  const everyone = [...new Set([...present, ...added])];
  const blocksOf = (u: string) => blocks.get(u) ?? new Set<string>();
  return added.filter((u) => everyone.some((v) => v !== u && (blocksOf(u).has(v) || blocksOf(v).has(u))));
}

export const invitationId = (conversationId: string, userId: string) => `${conversationId}_${userId}`;
export const membershipId = (conversationId: string, userId: string) => `${conversationId}_${userId}`;
export const blockId = (blockerId: string, blockedId: string) => `${blockerId}_${blockedId}`;

/** One direct conversation per pair: its id is derived from the two members. */
export function directConversationId(a: string, b: string): string {
  const [first, second] = [a, b].sort();
  return stableId({ key: [first, second], prefix: 'dm_' });
}

/** One conversation per ride, order or booking. */
export function contextConversationId(context: { type: ContextType; id: string }): string {
  return stableId({ key: context.id, prefix: `ctx_${context.type.toLowerCase()}_` });
}

/** A retried send (same Idempotency-Key) names the same message, so it is created once. */
export function messageIdFor(conversationId: string, senderId: string, idempotencyKey: string): string {
  return stableId({ key: [conversationId, senderId, idempotencyKey], prefix: 'm_' });
}

/** A message in a line: its words (cut), or the kind of message it is. */
export function previewPartOf(message: Pick<MessageRecord, 'type' | 'text' | 'deleted'>): PreviewPart {
  if (message.deleted) return { label: 'DELETED' };
  switch (message.type) {
    case 'TEXT':
    case 'SYSTEM': {
      const text = (message.text ?? '').replace(/\s+/g, ' ').trim();
      const cut = truncateText(text, CHAT_LIMITS.previewMax - 1);
      return { text: cut === text ? text : `${cut}…` };
    }
    case 'AUDIO':
    case 'IMAGE':
    case 'LOCATION':
      return { label: message.type };
  }
}

// Stored previews (the member's last message, a reply's quote) are shared data, in English; apps can label by `type`.
const PREVIEW_LABELS = { DELETED: 'Message deleted', AUDIO: 'Voice message', IMAGE: 'Photo', LOCATION: 'Location' } as const;

export function previewOf(message: Pick<MessageRecord, 'type' | 'text' | 'deleted'>): string {
  const part = previewPartOf(message);
  return 'text' in part ? part.text : PREVIEW_LABELS[part.label];
}

export function newMembership(conversationId: string, userId: string, role: MemberRole, now: number, surface: Surface = 'CON'): MembershipRecord {
  return {
    conversationId,
    userId,
    role,
    surface,
    joinedAt: now,
    lastActivityAt: now,
    lastMessage: null,
    unreadCount: 0,
    readUpToId: null,
    readUpToAt: 0,
    deliveredUpToAt: 0,
  };
}

/**
 * What a new message changes in one member's view: the last message (if newer than what it shows), the sender's
 * read marker, and one more unread for the others when the message counts and is after their read marker.
 */
export function membershipAfterMessage(member: MembershipRecord, message: MessageRecord): Partial<MembershipRecord> {
  const change: Partial<MembershipRecord> = {};
  if (message.createdAt >= member.lastActivityAt || member.lastMessage === null) {
    change.lastActivityAt = Math.max(member.lastActivityAt, message.createdAt);
    change.lastMessage = { id: message.id, senderId: message.senderId, type: message.type, preview: previewOf(message), createdAt: message.createdAt };
  }
  if (message.senderId === member.userId) {
    if (message.createdAt > member.readUpToAt) Object.assign(change, { readUpToId: message.id, readUpToAt: message.createdAt, unreadCount: 0 });
  } else if (countsAsUnread(message) && message.createdAt > member.readUpToAt) {
    change.unreadCount = member.unreadCount + 1;
  }
  return change;
}

export const countsAsUnread = (message: Pick<MessageRecord, 'type'>) => message.type !== 'SYSTEM';

/** The chat.message notice for the members to notify (never the sender). */
export function messageNotice(
  message: MessageRecord,
  conversation: ConversationRecord,
  recipients: Array<{ userId: string; surface: Surface }>,
  senderName: string | null,
) {
  const group = conversation.type === 'GROUP' && conversation.title ? conversation.title : null;
  return CHAT_EVENTS.notice({
    event: 'chat.message',
    recipients,
    entityId: conversation.id,
    occurrence: message.id,
    text: CHAT_TEXTS.text('chat.message', { sender: senderName, group, preview: previewPartOf(message) }),
    conversationId: conversation.id,
    realtimeData: { conversationId: conversation.id, messageId: message.id, senderId: message.senderId, type: message.type },
  });
}
