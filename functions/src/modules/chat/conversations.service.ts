import type { Transaction } from 'firebase-admin/firestore';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors/app-error';
import { db } from '../../platform/firebase/firebase';
import { recordTransition, transition } from '../../platform/state-machine/state-machine';
import { iso, isoOrNull } from '../../platform/time';
import type { Attachment } from '../media';
import type { Surface } from '../notifications';
import { accounts } from '../users';
import {
  blockConflicts,
  CHAT_LIMITS,
  contextConversationId,
  DEFAULT_GROUP_ADDS,
  directConversationId,
  INVITATION_MACHINE,
  invitationId,
  messageIdFor,
  newMembership,
  previewOf,
  SYSTEM_SENDER,
  type ContextType,
  type ConversationRecord,
  type GroupAddMode,
  type InvitationRecord,
  type InvitationStatus,
  type MembershipRecord,
  type MessageRecord,
} from './conversations.model';
import { conversationsRepo as repo, type BlockRecord, type ReportRecord } from './conversations.repo';
import type { SendMessageBody } from './conversations.schemas';

export interface ConversationsDeps {
  attachableMedia(ownerId: string, id: string, tx?: Transaction): Promise<Attachment | undefined>;
  mutedConversations(userId: string): Promise<Set<string>>;
  /** How others add a user who never set the preference (CHAT_GROUP_ADDS_DEFAULT). */
  defaultGroupAdds?: GroupAddMode;
  clock?: () => number;
}

type CreateBody = { type: 'DIRECT'; userId: string } | { type: 'GROUP'; title: string; memberIds: string[] };

const notFound = () => new NotFoundError('No such conversation');
/** Someone's block stands in the way; only the ids the caller blocks are named (who blocks the caller stays private). */
const blockedError = (message: string, callerBlocks: ReadonlySet<string> | undefined, among: string[]) =>
  new AppError(403, message, { userIds: among.filter((u) => callerBlocks?.has(u)) }).withCode('CHAT_BLOCKED');
/** Pending invitations one block withdraws per transaction (each costs three writes). */
const WITHDRAW_BATCH = 50;
const MEMBER_PREVIEW = 5;

export function createConversationsService(deps: ConversationsDeps) {
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

  function writable(conversation: ConversationRecord): void {
    if (conversation.closed) throw new ConflictError('This conversation is closed (read-only)').withCode('CHAT_CLOSED');
  }

  function titleFor(conversation: ConversationRecord, callerId: string, names: Map<string, string | null>): string | null {
    if (conversation.type !== 'DIRECT') return conversation.title;
    const other = conversation.memberIds.find((m) => m !== callerId);
    return other ? (names.get(other) ?? null) : null;
  }

  function common(conversation: ConversationRecord, membership: MembershipRecord | undefined, callerId: string, names: Map<string, string | null>, muted: Set<string>) {
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
    const [members, names, muted] = await Promise.all([repo.membershipsOf(conversation.id, conversation.memberIds), namesOf(conversation.memberIds), deps.mutedConversations(callerId)]);
    const byUser = new Map(members.map((m) => [m.userId, m]));
    return {
      ...common(conversation, byUser.get(callerId), callerId, names, muted),
      members: conversation.memberIds.map((userId) => {
        const m = byUser.get(userId);
        return { userId, name: names.get(userId) ?? null, role: m?.role ?? 'MEMBER', readUpTo: isoOrNull(m?.readUpToAt), deliveredUpTo: isoOrNull(m?.deliveredUpToAt) };
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
    if (!message) throw new AppError(422, `${field} is not a message of this conversation`, [{ field, message: 'not a message of this conversation' }]).withCode('CHAT_REPLY_NOT_FOUND');
    return message;
  }

  /**
   * Who of `added` joins a group at once and who is invited (their preference; INVITATION when never set), in the
   * transaction. `present` are the group's members and pending invitees: nobody joins or is invited where one of
   * them (or another of `added`) blocks them or is blocked by them, one block list read per person. Refuses anyone
   * who declined before. A pending invitee stays invited whatever their preference now (they join by accepting).
   */
  async function admission(tx: Transaction, ownerId: string, conversationId: string, added: string[], present: string[]) {
    const [blocks, preferences, invitations] = await Promise.all([repo.txBlockLists(tx, [...present, ...added]), repo.txPreferences(tx, added), repo.txInvitationsOf(tx, conversationId, added)]);
    const refused = blockConflicts(blocks, added, present);
    if (refused.length > 0) throw blockedError('Someone you add blocks, or is blocked by, you or someone in the group', blocks.get(ownerId), refused);
    const declined = added.filter((u) => invitations.get(u)?.status === 'DECLINED');
    if (declined.length > 0) throw new ConflictError('They declined an invitation to this group', { userIds: declined }).withCode('CHAT_INVITATION_DECLINED');
    const joinsAtOnce = (u: string) => (preferences.get(u)?.groupAdds ?? defaultGroupAdds) === 'DIRECT' && invitations.get(u)?.status !== 'PENDING';
    return { joining: added.filter(joinsAtOnce), invited: added.filter((u) => !joinsAtOnce(u)), invitations };
  }

  /** Writes the invitations of `invited` (new, or reopened after an accepted one whose invitee left). */
  function invite(tx: Transaction, group: { id: string; title: string | null }, ownerId: string, invited: string[], existing: Map<string, InvitationRecord>, at: number): void {
    for (const userId of invited) {
      const previous = existing.get(userId);
      if (previous?.status === 'PENDING') continue;
      const record: InvitationRecord = { id: invitationId(group.id, userId), conversationId: group.id, userId, invitedBy: ownerId, title: group.title, status: 'PENDING', createdAt: at, updatedAt: at, respondedAt: null };
      if (previous) {
        INVITATION_MACHINE.check('reinvite', previous.status, ['owner']);
        recordTransition(tx, repo.invitationRef(record.id), { action: 'reinvite', from: previous.status, to: 'PENDING', by: ownerId, at });
      }
      repo.txSaveInvitation(tx, record);
    }
  }

  /** Withdraws a pending invitation (the caller updates the group's `invitedIds`). */
  function withdraw(tx: Transaction, invitation: InvitationRecord, actor: { by: string; role: 'owner' | 'system'; reason?: string }, at: number): void {
    const to = INVITATION_MACHINE.check('withdraw', invitation.status, [actor.role]);
    repo.txSaveInvitation(tx, { ...invitation, status: to, updatedAt: at, respondedAt: at });
    recordTransition(tx, repo.invitationRef(invitation.id), { action: 'withdraw', from: invitation.status, to, by: actor.by, at, ...(actor.reason ? { reason: actor.reason } : {}) });
  }

  /**
   * A block withdraws the pending invitations between the two, either way (inviter → invitee), in batches after
   * the block is stored; accepting checks blocks itself, so one left over by a crash still cannot be accepted.
   */
  async function withdrawBetween(blockerId: string, blockedId: string): Promise<void> {
    for (;;) {
      const withdrawn = await db().runTransaction(async (tx) => {
        const found = (await Promise.all([repo.txPendingInvitations(tx, blockerId, blockedId, WITHDRAW_BATCH), repo.txPendingInvitations(tx, blockedId, blockerId, WITHDRAW_BATCH)])).flat();
        const at = now();
        for (const invitation of found) {
          withdraw(tx, invitation, { by: blockerId, role: 'system', reason: 'block' }, at);
          repo.txUninvite(tx, invitation.conversationId, invitation.userId, at);
        }
        return found.length;
      });
      if (withdrawn === 0) return;
    }
  }

  /** The invitee answers: accept joins the group (if it still has room), decline removes the invitation. */
  async function answerInvitation(callerId: string, id: string, action: 'accept' | 'decline') {
    const at = now();
    const names = action === 'accept' ? await namesOf([callerId]) : new Map<string, string | null>();
    let joined: ConversationRecord | undefined;
    const { after } = await transition(
      INVITATION_MACHINE,
      {
        // Only the invitee sees the invitation at all (404 to anyone else).
        load: async (tx) => {
          const invitation = await repo.invitation(id, tx);
          return invitation?.userId === callerId ? invitation : undefined;
        },
        save: (tx, next) => repo.txSaveInvitation(tx, next),
        ref: (entity) => repo.invitationRef(entity.id),
        async alongside(tx, next) {
          const conversation = await repo.get(next.conversationId, tx);
          if (!conversation) {
            if (action === 'accept') throw new NotFoundError('The group no longer exists');
            return;
          }
          const invitedIds = (conversation.invitedIds ?? []).filter((u) => u !== callerId);
          if (action === 'decline') {
            repo.txUpdate(tx, conversation.id, { invitedIds });
            return;
          }
          writable(conversation);
          if (conversation.memberIds.length === 0) throw new NotFoundError('The group no longer exists');
          if (conversation.memberIds.includes(callerId)) throw new ConflictError('Already a member', { userIds: [callerId] }).withCode('CHAT_ALREADY_MEMBER');
          // A block made since the invitation, either way with the owner or any member, stops the join.
          const blocks = await repo.txBlockLists(tx, [callerId, ...conversation.memberIds]);
          if (blockConflicts(blocks, [callerId], conversation.memberIds).length > 0) {
            throw blockedError('You block, or are blocked by, someone in this group', blocks.get(callerId), conversation.memberIds);
          }
          if (conversation.memberIds.length >= CHAT_LIMITS.groupMembersMax) throw new ConflictError(`A group holds at most ${CHAT_LIMITS.groupMembersMax} members`).withCode('CHAT_GROUP_FULL');
          const memberIds = [...conversation.memberIds, callerId];
          repo.txUpdate(tx, conversation.id, { memberIds, invitedIds, updatedAt: at });
          repo.txAddMember(tx, newMembership(conversation.id, callerId, 'MEMBER', at));
          repo.txCreateMessage(tx, systemMessage(conversation.id, 'member.joined', `${names.get(callerId) ?? 'A member'} joined`, [callerId], at));
          joined = { ...conversation, memberIds, invitedIds, updatedAt: at };
        },
      },
      {
        action,
        by: callerId,
        rolesOf: () => ['invitee'],
        apply: (entity, to: InvitationStatus) => ({ ...entity, status: to, updatedAt: at, respondedAt: at }),
        now: at,
        missing: () => new NotFoundError('No such invitation'),
      },
    );
    return { invitation: after, joined };
  }

  return {
    async create(callerId: string, body: CreateBody, setStatus: (code: number) => void) {
      if (body.type === 'DIRECT') {
        if (body.userId === callerId) throw new BadRequestError('A direct conversation needs another person').withCode('CHAT_SELF_CONVERSATION');
        await existingAccounts([body.userId]);
        const id = directConversationId(callerId, body.userId);
        const { conversation, created } = await db().runTransaction(async (tx) => {
          const [existing, blocked] = await Promise.all([repo.get(id, tx), repo.eitherBlocks(callerId, body.userId, tx)]);
          if (existing) return { conversation: existing, created: false };
          if (blocked.aBlocksB || blocked.bBlocksA) throw new ForbiddenError('You cannot start a conversation with this person').withCode('CHAT_BLOCKED');
          const at = now();
          const record: ConversationRecord = { id, type: 'DIRECT', title: null, ownerId: null, memberIds: [callerId, body.userId], context: null, closed: false, createdBy: callerId, createdAt: at, updatedAt: at };
          repo.txCreate(tx, record, [newMembership(id, callerId, 'MEMBER', at), newMembership(id, body.userId, 'MEMBER', at)]);
          return { conversation: record, created: true };
        });
        if (!created) setStatus(200);
        return detail(conversation, callerId);
      }
      const others = [...new Set(body.memberIds)].filter((m) => m !== callerId);
      if (others.length + 1 < CHAT_LIMITS.groupMembersMin) throw new BadRequestError('A group needs at least one other member').withCode('VALIDATION_FAILED');
      await existingAccounts(others);
      const id = repo.newId();
      const record = await db().runTransaction(async (tx) => {
        const { joining, invited, invitations } = await admission(tx, callerId, id, others, [callerId]);
        const at = now();
        const created: ConversationRecord = { id, type: 'GROUP', title: body.title, ownerId: callerId, memberIds: [callerId, ...joining], invitedIds: invited, context: null, closed: false, createdBy: callerId, createdAt: at, updatedAt: at };
        repo.txCreate(tx, created, [newMembership(id, callerId, 'OWNER', at), ...joining.map((u) => newMembership(id, u, 'MEMBER', at))]);
        invite(tx, created, callerId, invited, invitations, at);
        return created;
      });
      return detail(record, callerId);
    },

    async get(callerId: string, id: string) {
      return detail(await memberView(callerId, id), callerId);
    },

    async list(callerId: string, page: { limit: number; cursor?: string }) {
      const { items: memberships, nextCursor } = await repo.myConversations(callerId, page);
      const conversations = await repo.getMany(memberships.map((m) => m.conversationId));
      const previewed = new Map(conversations.map((c) => [c.id, c.memberIds.filter((m) => m !== callerId).slice(0, MEMBER_PREVIEW)]));
      const [names, muted] = await Promise.all([namesOf([...previewed.values()].flat()), deps.mutedConversations(callerId)]);
      const byId = new Map(conversations.map((c) => [c.id, c]));
      const items = memberships.flatMap((m) => {
        const conversation = byId.get(m.conversationId);
        if (!conversation) return [];
        return [{ ...common(conversation, m, callerId, names, muted), members: previewed.get(conversation.id)!.map((userId) => ({ userId, name: names.get(userId) ?? null })) }];
      });
      return { items, nextCursor };
    },

    async rename(callerId: string, id: string, title: string) {
      const conversation = await db().runTransaction(async (tx) => {
        const current = await memberView(callerId, id, tx);
        if (current.type !== 'GROUP') throw new ConflictError('Only a group has a title').withCode('CHAT_NOT_GROUP');
        writable(current);
        repo.txUpdate(tx, id, { title, updatedAt: now() });
        return { ...current, title };
      });
      return detail(conversation, callerId);
    },

    async addMembers(callerId: string, id: string, userIds: string[]) {
      const added = [...new Set(userIds)];
      const names = await existingAccounts([callerId, ...added]);
      const conversation = await db().runTransaction(async (tx) => {
        const current = await memberView(callerId, id, tx);
        if (current.type !== 'GROUP') throw new ConflictError('Only a group changes members').withCode('CHAT_NOT_GROUP');
        writable(current);
        if (current.ownerId !== callerId) throw new ForbiddenError('Only the owner adds members').withCode('CHAT_NOT_OWNER');
        const already = added.filter((u) => current.memberIds.includes(u));
        if (already.length > 0) throw new ConflictError('Already a member', { userIds: already }).withCode('CHAT_ALREADY_MEMBER');
        const { joining, invited, invitations } = await admission(tx, callerId, id, added, [...current.memberIds, ...(current.invitedIds ?? [])]);
        // Pending invitations hold their seats, so every invitee can still accept.
        const invitedIds = [...new Set([...(current.invitedIds ?? []), ...invited])];
        if (current.memberIds.length + joining.length + invitedIds.length > CHAT_LIMITS.groupMembersMax) throw new ConflictError(`A group holds at most ${CHAT_LIMITS.groupMembersMax} members`).withCode('CHAT_GROUP_FULL');
        const at = now();
        const memberIds = [...current.memberIds, ...joining];
        repo.txUpdate(tx, id, { memberIds, invitedIds, updatedAt: at });
        for (const u of joining) repo.txAddMember(tx, newMembership(id, u, 'MEMBER', at));
        invite(tx, current, callerId, invited, invitations, at);
        if (joining.length > 0) {
          const text = `${names.get(callerId)} added ${joining.map((u) => names.get(u)).join(', ')}`;
          repo.txCreateMessage(tx, systemMessage(id, 'member.added', text, joining, at));
        }
        return { ...current, memberIds, invitedIds, updatedAt: at };
      });
      return detail(conversation, callerId);
    },

    /** Removes a member (owner), or leaves (any member, `userId` = the caller). */
    async removeMember(callerId: string, id: string, userId: string) {
      const names = await namesOf([callerId, userId]);
      const leaving = userId === callerId;
      const conversation = await db().runTransaction(async (tx) => {
        const current = await memberView(callerId, id, tx);
        if (current.type !== 'GROUP') throw new ConflictError('Only a group changes members').withCode('CHAT_NOT_GROUP');
        if (!leaving && current.ownerId !== callerId) throw new ForbiddenError('Only the owner removes members').withCode('CHAT_NOT_OWNER');
        const at = now();
        // The owner withdraws a pending invitation the same way (no message: the invitee was never in the group).
        if (!leaving && (current.invitedIds ?? []).includes(userId)) {
          const invitation = await repo.invitation(invitationId(id, userId), tx);
          const invitedIds = (current.invitedIds ?? []).filter((u) => u !== userId);
          repo.txUpdate(tx, id, { invitedIds, updatedAt: at });
          if (invitation) withdraw(tx, invitation, { by: callerId, role: 'owner' }, at);
          return { ...current, invitedIds, updatedAt: at };
        }
        if (!current.memberIds.includes(userId)) throw new NotFoundError('Not a member of this conversation');
        const memberIds = current.memberIds.filter((m) => m !== userId);
        // An owner who leaves hands the group to the longest-standing member.
        const ownerId = current.ownerId === userId ? (memberIds[0] ?? null) : current.ownerId;
        // The last one out: nobody is left to join, so the pending invitations are withdrawn.
        const invitedIds = memberIds.length === 0 ? [] : (current.invitedIds ?? []);
        if (memberIds.length === 0 && (current.invitedIds ?? []).length > 0) {
          const pending = await repo.txInvitationsOf(tx, id, current.invitedIds ?? []);
          for (const invitation of pending.values()) if (invitation.status === 'PENDING') withdraw(tx, invitation, { by: callerId, role: 'system', reason: 'group empty' }, at);
        }
        repo.txUpdate(tx, id, { memberIds, ownerId, invitedIds, updatedAt: at });
        repo.txRemoveMember(tx, id, userId);
        if (ownerId && ownerId !== current.ownerId) repo.txUpdateMembership(tx, id, ownerId, { role: 'OWNER' });
        const text = leaving ? `${names.get(userId) ?? 'A member'} left` : `${names.get(callerId)} removed ${names.get(userId) ?? 'a member'}`;
        repo.txCreateMessage(tx, systemMessage(id, leaving ? 'member.left' : 'member.removed', text, [userId], at));
        return { ...current, memberIds, ownerId, invitedIds, updatedAt: at };
      });
      return leaving ? { left: true as const, conversationId: id } : detail(conversation, callerId);
    },

    async send(callerId: string, id: string, body: SendMessageBody, idempotencyKey: string | undefined) {
      const messageId = idempotencyKey ? messageIdFor(id, callerId, idempotencyKey) : repo.newId();
      const message = await db().runTransaction(async (tx) => {
        // One read: the conversation and, for a keyed send, the message a lost first answer may have made.
        const [conversation, existing] = await repo.txConversationAndMessage(tx, id, idempotencyKey ? messageId : undefined);
        if (!conversation || !conversation.memberIds.includes(callerId)) throw notFound();
        if (existing && existing.senderId === callerId) return existing;
        writable(conversation);
        // A block stops a direct conversation both ways (groups and ride, order or booking threads go on; the
        // blocker is not notified of the blocked person's messages there).
        if (conversation.type === 'DIRECT') {
          const other = conversation.memberIds.find((m) => m !== callerId) ?? callerId;
          const blocks = await repo.eitherBlocks(callerId, other, tx);
          if (blocks.aBlocksB || blocks.bBlocksA) throw new ForbiddenError('You cannot message this person').withCode('CHAT_BLOCKED');
        }
        const media = body.type === 'AUDIO' || body.type === 'IMAGE' ? await deps.attachableMedia(callerId, body.mediaId, tx) : undefined;
        if ((body.type === 'AUDIO' || body.type === 'IMAGE') && media?.kind !== body.type) {
          const what = body.type === 'AUDIO' ? 'audio' : 'image';
          throw new AppError(422, `mediaId is not one of your READY ${what} uploads`, [{ field: 'body.mediaId', message: `not a READY ${what} item of yours` }]).withCode('CHAT_ATTACHMENT_INVALID');
        }
        const replied = body.replyToId ? await messageIn(id, body.replyToId, 'body.replyToId', tx) : undefined;
        const record: MessageRecord = {
          id: messageId,
          conversationId: id,
          senderId: callerId,
          type: body.type,
          text: body.type === 'TEXT' ? body.text : null,
          media: media ? { id: media.id, mimeType: media.mimeType, url: media.url } : null,
          location: body.type === 'LOCATION' ? { lat: body.location.lat, lng: body.location.lng } : null,
          replyTo: replied ? { id: replied.id, senderId: replied.senderId, preview: previewOf(replied) } : null,
          system: null,
          createdAt: now(),
          editedAt: null,
          deleted: false,
          fannedOut: false,
          counted: false,
        };
        repo.txCreateMessage(tx, record);
        return record;
      });
      return toMessage(message);
    },

    async listMessages(callerId: string, id: string, query: { limit: number; cursor?: string; before?: string; after?: string }) {
      await memberView(callerId, id);
      const bounds = {
        beforeAt: query.before ? (await messageIn(id, query.before, 'query.before')).createdAt : undefined,
        afterAt: query.after ? (await messageIn(id, query.after, 'query.after')).createdAt : undefined,
      };
      const page = await repo.listMessages(id, callerId, query, bounds);
      const newest = page.items[0]?.createdAt;
      if (newest !== undefined) await markDelivered(id, callerId, newest);
      return { items: page.items.map(toMessage), nextCursor: page.nextCursor };
    },

    async edit(callerId: string, id: string, messageId: string, text: string) {
      const message = await db().runTransaction(async (tx) => {
        const conversation = await memberView(callerId, id, tx);
        writable(conversation);
        const current = await ownRecentMessage(callerId, id, messageId, tx);
        if (current.type !== 'TEXT') throw new ConflictError('Only text messages are edited').withCode('CHAT_NOT_EDITABLE');
        const patch = { text, editedAt: now() };
        repo.txUpdateMessage(tx, current, patch);
        return { ...current, ...patch };
      });
      return toMessage(message);
    },

    async remove(callerId: string, id: string, messageId: string) {
      const message = await db().runTransaction(async (tx) => {
        const conversation = await memberView(callerId, id, tx);
        writable(conversation);
        const current = await ownRecentMessage(callerId, id, messageId, tx);
        // A tombstone: the message keeps its place in the thread, its content is gone.
        const patch = { deleted: true, text: null, media: null, location: null, editedAt: now() };
        repo.txUpdateMessage(tx, current, patch);
        return { ...current, ...patch };
      });
      return toMessage(message);
    },

    /** Moves my read marker forward to a message and recounts my unread after it. */
    async markRead(callerId: string, id: string, upToMessageId: string) {
      const state = await db().runTransaction(async (tx) => {
        await memberView(callerId, id, tx);
        const [membership, upTo] = await Promise.all([repo.membership(id, callerId, tx), messageIn(id, upToMessageId, 'body.upToMessageId', tx)]);
        if (!membership) throw notFound();
        if (upTo.createdAt <= membership.readUpToAt) return membership;
        const unreadCount = await repo.txUnreadAfter(tx, id, callerId, upTo.createdAt);
        const patch = { readUpToId: upTo.id, readUpToAt: upTo.createdAt, unreadCount, deliveredUpToAt: Math.max(membership.deliveredUpToAt, upTo.createdAt) };
        repo.txUpdateMembership(tx, id, callerId, patch);
        return { ...membership, ...patch };
      });
      return { conversationId: id, readUpToId: state.readUpToId, readUpTo: isoOrNull(state.readUpToAt), unreadCount: state.unreadCount };
    },

    async unreadTotal(callerId: string) {
      const unread = await repo.unreadOf(callerId);
      return { unreadCount: unread.reduce((sum, m) => sum + m.unreadCount, 0), conversations: unread.length };
    },

    /**
     * My invitations to groups with a status (PENDING by default), newest first, with the group and inviter. Only a
     * pending invitation shows the group's current title; the others show the title it was made with, so someone
     * no longer invited does not follow the group's renames.
     */
    async invitations(callerId: string, query: { status: InvitationStatus; limit: number; cursor?: string }) {
      const { items, nextCursor } = await repo.invitationsOf(callerId, query.status, query);
      const pending = items.filter((i) => i.status === 'PENDING').map((i) => i.conversationId);
      const [conversations, names] = await Promise.all([repo.getMany(pending), namesOf(items.map((i) => i.invitedBy))]);
      const titles = new Map(conversations.map((c) => [c.id, c.title]));
      return { items: items.map((i) => toInvitation(i, titles.get(i.conversationId) ?? null, names.get(i.invitedBy) ?? null)), nextCursor };
    },
    async acceptInvitation(callerId: string, id: string) {
      const { joined } = await answerInvitation(callerId, id, 'accept');
      return detail(joined!, callerId);
    },
    async declineInvitation(callerId: string, id: string) {
      const { invitation } = await answerInvitation(callerId, id, 'decline');
      const names = await namesOf([invitation.invitedBy]);
      return toInvitation(invitation, null, names.get(invitation.invitedBy) ?? null);
    },
    async preferences(callerId: string) {
      return { groupAdds: (await repo.preferences(callerId))?.groupAdds ?? defaultGroupAdds };
    },
    async setPreferences(callerId: string, body: { groupAdds: GroupAddMode }) {
      await repo.savePreferences({ userId: callerId, groupAdds: body.groupAdds, updatedAt: now() });
      return { groupAdds: body.groupAdds };
    },

    async block(callerId: string, userId: string) {
      if (userId === callerId) throw new BadRequestError('You cannot block yourself').withCode('VALIDATION_FAILED');
      await existingAccounts([userId]);
      const block = await db().runTransaction(async (tx) => {
        const { block: existing, blockedIds } = await repo.txBlockState(tx, callerId, userId);
        // A repeat also puts a block made before the lists existed on the list.
        if (existing && blockedIds.includes(userId)) return existing;
        if (!blockedIds.includes(userId) && blockedIds.length >= CHAT_LIMITS.blocksMax) {
          throw new ConflictError(`You block at most ${CHAT_LIMITS.blocksMax} people`).withCode('CHAT_BLOCKS_FULL');
        }
        const record: BlockRecord = existing ?? { blockerId: callerId, blockedId: userId, createdAt: now() };
        repo.txSaveBlock(tx, record, [...new Set([...blockedIds, userId])]);
        return record;
      });
      await withdrawBetween(callerId, userId);
      return toBlock(block);
    },
    async unblock(callerId: string, userId: string) {
      await db().runTransaction(async (tx) => {
        const { block, blockedIds } = await repo.txBlockState(tx, callerId, userId);
        if (block || blockedIds.includes(userId)) repo.txRemoveBlock(tx, callerId, userId, blockedIds.filter((u) => u !== userId), now());
      });
      return { deleted: true as const };
    },
    async blocks(callerId: string, page: { limit: number; cursor?: string }) {
      const { items, nextCursor } = await repo.blocksOf(callerId, page);
      return { items: items.map(toBlock), nextCursor };
    },

    /** Reports a message of a conversation I am in; one report per message and reporter (a repeat returns it). */
    async report(callerId: string, messageId: string, body: { reason: ReportRecord['reason']; note?: string }, setStatus: (code: number) => void) {
      const message = await repo.messageById(messageId);
      if (!message) throw new NotFoundError('No such message');
      const reportId = `${messageId}_${callerId}`;
      const { report, created } = await db().runTransaction(async (tx) => {
        await memberView(callerId, message.conversationId, tx).catch(() => {
          throw new NotFoundError('No such message');
        });
        const existing = await repo.report(reportId, tx);
        if (existing) return { report: existing, created: false };
        if (message.senderId === callerId) throw new AppError(422, 'You cannot report your own message').withCode('CHAT_OWN_MESSAGE');
        const record: ReportRecord = {
          id: reportId,
          messageId,
          conversationId: message.conversationId,
          reporterId: callerId,
          senderId: message.senderId,
          reason: body.reason,
          note: body.note ?? null,
          excerpt: message.deleted ? previewOf(message) : (message.text ?? previewOf(message)),
          status: 'OPEN',
          createdAt: now(),
          resolvedAt: null,
          resolvedBy: null,
        };
        repo.txCreateReport(tx, record);
        return { report: record, created: true };
      });
      if (!created) setStatus(200);
      return toReport(report);
    },
    async reports(adminId: string, query: { status: ReportRecord['status']; limit: number; cursor?: string }) {
      const { items, nextCursor } = await repo.reportsWithStatus(query.status, adminId, query);
      return { items: items.map(toReport), nextCursor };
    },
    async resolveReport(adminId: string, reportId: string, status: 'DISMISSED' | 'ACTIONED') {
      const report = await db().runTransaction(async (tx) => {
        const current = await repo.report(reportId, tx);
        if (!current) throw new NotFoundError('No such report');
        if (current.status !== 'OPEN') {
          if (current.status === status) return current;
          throw new ConflictError(`The report is ${current.status} already`, { status: current.status });
        }
        const patch = { status, resolvedAt: now(), resolvedBy: adminId };
        repo.txUpdateReport(tx, reportId, patch);
        return { ...current, ...patch };
      });
      return toReport(report);
    },

  };

  async function ownRecentMessage(callerId: string, conversationId: string, messageId: string, tx: Transaction): Promise<MessageRecord> {
    const current = await repo.message(conversationId, messageId, tx);
    if (!current) throw new NotFoundError('No such message');
    if (current.senderId !== callerId) throw new ForbiddenError('Only the sender changes a message').withCode('CHAT_NOT_SENDER');
    if (current.deleted || now() - current.createdAt > CHAT_LIMITS.editWindowMs) {
      throw new ConflictError('Messages are changed within 15 minutes of sending, and not after deletion').withCode('CHAT_EDIT_WINDOW');
    }
    return current;
  }

  /** The delivered marker only moves forward (a member's app fetched messages up to `at`). */
  async function markDelivered(conversationId: string, userId: string, at: number): Promise<void> {
    await db().runTransaction(async (tx) => {
      const membership = await repo.membership(conversationId, userId, tx);
      if (membership && at > membership.deliveredUpToAt) repo.txUpdateMembership(tx, conversationId, userId, { deliveredUpToAt: at });
    });
  }
}

function systemMessage(conversationId: string, event: string, text: string, userIds: string[], at: number, id?: string): MessageRecord {
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


/** Conversations the server opens for other modules' entities, and SYSTEM messages (no caller, no app). */
export const serverConversations = {
  /**
   * The conversation of a ride, order or booking for its parties (e.g. rider and driver), created once: a repeat
   * returns it and adds parties that joined since. Called by the owning module, not by an app.
   */
  async open(context: { type: ContextType; id: string }, parties: Array<{ userId: string; surface: Surface }>): Promise<ConversationRecord> {
    const id = contextConversationId(context);
    return db().runTransaction(async (tx) => {
      const existing = await repo.get(id, tx);
      const at = Date.now();
      if (existing) {
        const joining = parties.filter((p) => !existing.memberIds.includes(p.userId));
        if (joining.length === 0 || existing.closed) return existing;
        const memberIds = [...existing.memberIds, ...joining.map((p) => p.userId)];
        repo.txUpdate(tx, id, { memberIds, updatedAt: at });
        for (const p of joining) repo.txAddMember(tx, newMembership(id, p.userId, 'MEMBER', at, p.surface));
        return { ...existing, memberIds, updatedAt: at };
      }
      const record: ConversationRecord = { id, type: 'CONTEXT', title: null, ownerId: null, memberIds: parties.map((p) => p.userId), context, closed: false, createdBy: SYSTEM_SENDER, createdAt: at, updatedAt: at };
      repo.txCreate(tx, record, parties.map((p) => newMembership(id, p.userId, 'MEMBER', at, p.surface)));
      return record;
    });
  },
  /** The entity is over: its conversation becomes read-only (idempotent). */
  async close(context: { type: ContextType; id: string }): Promise<void> {
    const id = contextConversationId(context);
    await db().runTransaction(async (tx) => {
      const existing = await repo.get(id, tx);
      if (existing && !existing.closed) repo.txUpdate(tx, id, { closed: true, updatedAt: Date.now() });
    });
  },
  /**
   * A SYSTEM message (call missed…) about `userIds`, with an id derived from its cause, so a repeated cause writes
   * it once. Only into a conversation all of them are in (a conversation id named by a client proves nothing).
   */
  async postSystemMessage(conversationId: string, input: { id: string; event: string; text: string; userIds: string[] }): Promise<boolean> {
    return db().runTransaction(async (tx) => {
      const [conversation, existing] = await Promise.all([repo.get(conversationId, tx), repo.message(conversationId, input.id, tx)]);
      if (!conversation || existing || !input.userIds.every((u) => conversation.memberIds.includes(u))) return false;
      repo.txCreateMessage(tx, systemMessage(conversationId, input.event, input.text, input.userIds, Date.now(), input.id));
      return true;
    });
  },
};

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

/** `liveTitle`: the group's title now, shown only while the invitation is pending. */
const toInvitation = (i: InvitationRecord, liveTitle: string | null, inviterName: string | null) => ({
  id: i.id,
  conversationId: i.conversationId,
  title: i.status === 'PENDING' ? liveTitle : (i.title ?? null),
  invitedBy: { id: i.invitedBy, name: inviterName },
  status: i.status,
  createdAt: iso(i.createdAt),
  respondedAt: isoOrNull(i.respondedAt),
});

const toBlock = (b: BlockRecord) => ({ userId: b.blockedId, createdAt: iso(b.createdAt) });

const toReport = (r: ReportRecord) => ({ ...r, createdAt: iso(r.createdAt), resolvedAt: isoOrNull(r.resolvedAt) });

export type ConversationsService = ReturnType<typeof createConversationsService>;
