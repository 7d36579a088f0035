import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { db } from '../../platform/core/firebase/firebase';
import { conversationsCommon, systemMessage, writable, type ConversationsDeps } from './conversations.common';
import { invitationsPart } from './conversations.invitations';
import { messagesPart } from './conversations.messages';
import { CHAT_LIMITS, directConversationId, invitationId, newMembership, type ConversationRecord } from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';
import { reportsPart } from './conversations.reports';

// The conversations service: conversations and their members here; messages, invitations and blocks, and reports
// in their own files (conversations.messages, .invitations, .reports), over one shared part (conversations.common).

export type { ConversationsDeps } from './conversations.common';
export { toMessage } from './conversations.common';
export { serverConversations } from './conversations.server';

type CreateBody = { type: 'DIRECT'; userId: string } | { type: 'GROUP'; title: string; memberIds: string[] };

const MEMBER_PREVIEW = 5;

export function createConversationsService(deps: ConversationsDeps) {
  const shared = conversationsCommon(deps);
  const { now, namesOf, memberView, common, detail, existingAccounts } = shared;
  const { admission, invite, withdraw, operations: invitations } = invitationsPart(shared);

  const conversations = {
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
          const record: ConversationRecord = {
            id,
            type: 'DIRECT',
            title: null,
            ownerId: null,
            memberIds: [callerId, body.userId],
            context: null,
            closed: false,
            createdBy: callerId,
            createdAt: at,
            updatedAt: at,
          };
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
        const created: ConversationRecord = {
          id,
          type: 'GROUP',
          title: body.title,
          ownerId: callerId,
          memberIds: [callerId, ...joining],
          invitedIds: invited,
          context: null,
          closed: false,
          createdBy: callerId,
          createdAt: at,
          updatedAt: at,
        };
        repo.txCreate(tx, created, [newMembership(id, callerId, 'OWNER', at), ...joining.map((u) => newMembership(id, u, 'MEMBER', at))]);
        await invite(tx, created, callerId, invited, invitations, at);
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
        return [
          {
            ...common(conversation, m, callerId, names, muted),
            members: previewed.get(conversation.id)!.map((userId) => ({ userId, name: names.get(userId) ?? null })),
          },
        ];
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
        if (current.memberIds.length + joining.length + invitedIds.length > CHAT_LIMITS.groupMembersMax)
          throw new ConflictError(`A group holds at most ${CHAT_LIMITS.groupMembersMax} members`).withCode('CHAT_GROUP_FULL');
        const at = now();
        const memberIds = [...current.memberIds, ...joining];
        repo.txUpdate(tx, id, { memberIds, invitedIds, updatedAt: at });
        for (const u of joining) repo.txAddMember(tx, newMembership(id, u, 'MEMBER', at));
        await invite(tx, current, callerId, invited, invitations, at);
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
          if (invitation) await withdraw(tx, invitation, { by: callerId, role: 'owner' }, at);
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
          for (const invitation of pending.values())
            if (invitation.status === 'PENDING') await withdraw(tx, invitation, { by: callerId, role: 'system', reason: 'group empty' }, at);
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
  };

  return { ...conversations, ...messagesPart(shared), ...invitations, ...reportsPart(shared) };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
