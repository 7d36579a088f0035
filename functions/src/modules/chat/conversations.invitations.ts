import type { Transaction } from 'firebase-admin/firestore';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { db } from '../../platform/core/firebase/firebase';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { blockedError, systemMessage, writable, type ConversationsCommon } from './conversations.common';
import {
  blockConflicts,
  CHAT_LIMITS,
  INVITATION_MACHINE,
  invitationId,
  newMembership,
  type ConversationRecord,
  type GroupAddMode,
  type InvitationRecord,
  type InvitationStatus,
} from './conversations.model';
import { conversationsRepo as repo, type BlockRecord } from './conversations.repo';

// Who joins a group and how: admission (preferences, blocks, declined invitations), invitations and their
// answers, preferences, and blocks (which withdraw the invitations between the two).

/** Pending invitations one block withdraws per transaction (each costs three writes). */
const WITHDRAW_BATCH = 50;

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

export function invitationsPart(shared: ConversationsCommon) {
  const { now, defaultGroupAdds, namesOf, detail, existingAccounts } = shared;

  /**
   * Who of `added` joins a group at once and who is invited (their preference; INVITATION when never set), in the
   * transaction. `present` are the group's members and pending invitees: nobody joins or is invited where one of
   * them (or another of `added`) blocks them or is blocked by them, one block list read per person. Refuses anyone
   * who declined before. A pending invitee stays invited whatever their preference now (they join by accepting).
   */
  async function admission(tx: Transaction, ownerId: string, conversationId: string, added: string[], present: string[]) {
    const [blocks, preferences, invitations] = await Promise.all([
      repo.txBlockLists(tx, [...present, ...added]),
      repo.txPreferences(tx, added),
      repo.txInvitationsOf(tx, conversationId, added),
    ]);
    const refused = blockConflicts(blocks, added, present);
    if (refused.length > 0) throw blockedError('Someone you add blocks, or is blocked by, you or someone in the group', blocks.get(ownerId), refused);
    const declined = added.filter((u) => invitations.get(u)?.status === 'DECLINED');
    if (declined.length > 0) throw new ConflictError('They declined an invitation to this group', { userIds: declined }).withCode('CHAT_INVITATION_DECLINED');
    const joinsAtOnce = (u: string) => (preferences.get(u)?.groupAdds ?? defaultGroupAdds) === 'DIRECT' && invitations.get(u)?.status !== 'PENDING';
    return { joining: added.filter(joinsAtOnce), invited: added.filter((u) => !joinsAtOnce(u)), invitations };
  }

  /**
   * One move of an invitation already read in the caller's transaction (its reads come first): the kit checks it,
   * saves it and records the event.
   */
  async function moveInvitation(
    tx: Transaction,
    invitation: InvitationRecord,
    action: 'reinvite' | 'withdraw',
    actor: { by: string; role: 'owner' | 'system'; reason?: string },
    next: (to: InvitationRecord['status']) => InvitationRecord,
    at: number,
  ): Promise<void> {
    await transition(
      INVITATION_MACHINE,
      { load: async () => invitation, save: (t, record) => repo.txSaveInvitation(t, record), ref: (record) => repo.invitationRef(record.id) },
      {
        action,
        by: actor.by,
        rolesOf: () => [actor.role],
        apply: (_, to) => next(to),
        now: at,
        ...(actor.reason ? { reason: actor.reason } : {}),
        missing: () => new NotFoundError('No such invitation'),
      },
      tx,
    );
  }

  /** Writes the invitations of `invited` (new, or reopened after an accepted one whose invitee left). */
  async function invite(
    tx: Transaction,
    group: { id: string; title: string | null },
    ownerId: string,
    invited: string[],
    existing: Map<string, InvitationRecord>,
    at: number,
  ): Promise<void> {
    for (const userId of invited) {
      const previous = existing.get(userId);
      if (previous?.status === 'PENDING') continue;
      const record: InvitationRecord = {
        id: invitationId(group.id, userId),
        conversationId: group.id,
        userId,
        invitedBy: ownerId,
        title: group.title,
        status: 'PENDING',
        createdAt: at,
        updatedAt: at,
        respondedAt: null,
      };
      if (previous) await moveInvitation(tx, previous, 'reinvite', { by: ownerId, role: 'owner' }, (to) => ({ ...record, status: to }), at);
      else repo.txSaveInvitation(tx, record);
    }
  }

  /** Withdraws a pending invitation (the caller updates the group's `invitedIds`). */
  async function withdraw(
    tx: Transaction,
    invitation: InvitationRecord,
    actor: { by: string; role: 'owner' | 'system'; reason?: string },
    at: number,
  ): Promise<void> {
    await moveInvitation(tx, invitation, 'withdraw', actor, (to) => ({ ...invitation, status: to, updatedAt: at, respondedAt: at }), at);
  }

  /**
   * A block withdraws the pending invitations between the two, either way (inviter → invitee), in batches after
   * the block is stored; accepting checks blocks itself, so one left over by a crash still cannot be accepted.
   */
  async function withdrawBetween(blockerId: string, blockedId: string): Promise<void> {
    for (;;) {
      const withdrawn = await db().runTransaction(async (tx) => {
        const found = (
          await Promise.all([
            repo.txPendingInvitations(tx, blockerId, blockedId, WITHDRAW_BATCH),
            repo.txPendingInvitations(tx, blockedId, blockerId, WITHDRAW_BATCH),
          ])
        ).flat();
        const at = now();
        for (const invitation of found) {
          await withdraw(tx, invitation, { by: blockerId, role: 'system', reason: 'block' }, at);
          repo.txUninvite(tx, invitation.conversationId, invitation.userId, at);
        }
        return found.length;
      });
      if (withdrawn === 0) return;
    }
  }

  /** Accepting, in the invitation's transaction: the invitee joins the group if nothing stands in the way. */
  async function join(
    tx: Transaction,
    callerId: string,
    conversation: ConversationRecord,
    invitedIds: string[],
    name: string | null,
    at: number,
  ): Promise<ConversationRecord> {
    writable(conversation);
    if (conversation.memberIds.length === 0) throw new NotFoundError('The group no longer exists');
    if (conversation.memberIds.includes(callerId)) throw new ConflictError('Already a member', { userIds: [callerId] }).withCode('CHAT_ALREADY_MEMBER');
    // A block made since the invitation, either way with the owner or any member, stops the join.
    const blocks = await repo.txBlockLists(tx, [callerId, ...conversation.memberIds]);
    if (blockConflicts(blocks, [callerId], conversation.memberIds).length > 0) {
      throw blockedError('You block, or are blocked by, someone in this group', blocks.get(callerId), conversation.memberIds);
    }
    if (conversation.memberIds.length >= CHAT_LIMITS.groupMembersMax)
      throw new ConflictError(`A group holds at most ${CHAT_LIMITS.groupMembersMax} members`).withCode('CHAT_GROUP_FULL');
    const memberIds = [...conversation.memberIds, callerId];
    repo.txUpdate(tx, conversation.id, { memberIds, invitedIds, updatedAt: at });
    repo.txAddMember(tx, newMembership(conversation.id, callerId, 'MEMBER', at));
    repo.txCreateMessage(tx, systemMessage(conversation.id, 'member.joined', `${name ?? 'A member'} joined`, [callerId], at));
    return { ...conversation, memberIds, invitedIds, updatedAt: at };
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
          if (action === 'decline') repo.txUpdate(tx, conversation.id, { invitedIds });
          else joined = await join(tx, callerId, conversation, invitedIds, names.get(callerId) ?? null, at);
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

  const operations = {
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
        if (block || blockedIds.includes(userId))
          repo.txRemoveBlock(
            tx,
            callerId,
            userId,
            blockedIds.filter((u) => u !== userId),
            now(),
          );
      });
      return { deleted: true as const };
    },
    async blocks(callerId: string, page: { limit: number; cursor?: string }) {
      const { items, nextCursor } = await repo.blocksOf(callerId, page);
      return { items: items.map(toBlock), nextCursor };
    },
  };

  return { admission, invite, withdraw, operations };
}
