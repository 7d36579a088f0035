import { createHash } from 'node:crypto';
import { truncateText } from '../../platform/text';
import type { Surface } from '../notifications';
import type { RateLimitRule } from '../../platform/ratelimit/rate-limit';
import { defineMachine } from '../../platform/state-machine/state-machine';
import { CHAT_EVENTS } from './chat.events';
import { CHAT_TEXTS, type PreviewPart } from './chat.texts';

// Firestore layout of conversations (names only at the top: the module definition reads them).
// `conversations/{id}`: members, title, owner, context. Cold: written on membership and title changes only.
// `conversations/{id}/messages/{messageId}`: messages; members listen to them.
// `chat_memberships/{conversationId}_{userId}`: one member's view: last message, unread count, read and
// delivered markers. Each message rewrites these (one document per member), never one shared document.
// `chat_blocks/{blockerId}_{blockedId}`: blocks.
// `chat_block_lists/{userId}`: the ids a user blocks, in one document, so a group's blocks are one read per person.
// `chat_reports/{messageId}_{reporterId}`: reported messages (the admin queue).
// `chat_invitations/{conversationId}_{userId}`: an invitation to a group, which the invitee accepts or declines.
// `chat_preferences/{userId}`: whether others may add the user to groups directly (default: by invitation).
export const CONVERSATIONS = 'conversations';
export const MESSAGES = 'messages';
export const CHAT_MEMBERSHIPS = 'chat_memberships';
export const CHAT_BLOCKS = 'chat_blocks';
export const CHAT_BLOCK_LISTS = 'chat_block_lists';
export const CHAT_REPORTS = 'chat_reports';
export const CHAT_INVITATIONS = 'chat_invitations';
export const CHAT_PREFERENCES = 'chat_preferences';

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
export const CONTEXT_TYPES = ['RIDE', 'ORDER', 'BOOKING'] as const;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export const MESSAGE_TYPES = ['TEXT', 'AUDIO', 'IMAGE', 'LOCATION', 'SYSTEM'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MEMBER_ROLES = ['OWNER', 'MEMBER'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Sender of SYSTEM messages (member joined, call missed…). */
export const SYSTEM_SENDER = 'system';

export interface ConversationRecord {
  id: string;
  type: ConversationType;
  title: string | null;
  /** GROUP: who adds and removes members. */
  ownerId: string | null;
  memberIds: string[];
  /** GROUP: accounts invited and not yet answering (they count toward the member limit). */
  invitedIds?: string[];
  context: { type: ContextType; id: string } | null;
  /** CONTEXT: read-only once its ride, order or booking is closed. */
  closed: boolean;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface MessagePreview {
  id: string;
  senderId: string;
  type: MessageType;
  preview: string;
  createdAt: number;
}

export interface MembershipRecord {
  conversationId: string;
  userId: string;
  role: MemberRole;
  /** The app this member chats from (the notification's surface). */
  surface: Surface;
  joinedAt: number;
  lastActivityAt: number;
  lastMessage: MessagePreview | null;
  unreadCount: number;
  readUpToId: string | null;
  readUpToAt: number;
  deliveredUpToAt: number;
}

export interface AttachedMedia {
  id: string;
  mimeType: string;
  url: string;
}

export interface MessageRecord {
  id: string;
  conversationId: string;
  senderId: string;
  type: MessageType;
  text: string | null;
  media: AttachedMedia | null;
  location: { lat: number; lng: number } | null;
  replyTo: { id: string; senderId: string; preview: string } | null;
  /** SYSTEM messages: what happened, for apps that render them their own way. */
  system: { event: string; userIds: string[] } | null;
  createdAt: number;
  editedAt: number | null;
  deleted: boolean;
  /** Set by the message trigger once the members' counters include this message (exactly once). */
  fannedOut: boolean;
  /** Counts toward unread (set with fannedOut; SYSTEM messages do not count). */
  counted: boolean;
}

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
  return `dm_${createHash('sha256').update(`${first}\u0000${second}`).digest('base64url').slice(0, 24)}`;
}

/** One conversation per ride, order or booking. */
export function contextConversationId(context: { type: ContextType; id: string }): string {
  return `ctx_${context.type.toLowerCase()}_${createHash('sha256').update(context.id).digest('base64url').slice(0, 24)}`;
}

/** A retried send (same Idempotency-Key) names the same message, so it is created once. */
export function messageIdFor(conversationId: string, senderId: string, idempotencyKey: string): string {
  return `m_${createHash('sha256').update(`${conversationId}\u0000${senderId}\u0000${idempotencyKey}`).digest('base64url').slice(0, 24)}`;
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
  return { conversationId, userId, role, surface, joinedAt: now, lastActivityAt: now, lastMessage: null, unreadCount: 0, readUpToId: null, readUpToAt: 0, deliveredUpToAt: 0 };
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
export function messageNotice(message: MessageRecord, conversation: ConversationRecord, recipients: Array<{ userId: string; surface: Surface }>, senderName: string | null) {
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
