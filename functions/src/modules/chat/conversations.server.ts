import { db } from '../../platform/core/firebase/firebase';
import type { Surface } from '../notifications';
import { systemMessage } from './conversations.common';
import { contextConversationId, newMembership, SYSTEM_SENDER, type ContextType, type ConversationRecord } from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';

/** Conversations the server opens for other modules' entities, and SYSTEM messages (no caller, no app). */
export const serverConversations = {
  /**
   * The conversation of a ride, order or booking for its parties (e.g. rider and driver), created once: a repeat
   * returns it and adds parties that joined since. Called by the owning module, not by an app. `stillParties`: the
   * parties as the entity stands, read in this transaction (a courier released since the caller read it, whose
   * `leave` may have run already, is not added back: the entity's change and this open are serialised).
   */
  async open(
    context: { type: ContextType; id: string },
    named: Array<{ userId: string; surface: Surface }>,
    stillParties?: (tx: FirebaseFirestore.Transaction) => Promise<(userId: string) => boolean>,
  ): Promise<ConversationRecord> {
    const id = contextConversationId(context);
    return db().runTransaction(async (tx) => {
      const [existing, isParty] = await Promise.all([repo.get(id, tx), stillParties ? stillParties(tx) : () => true]);
      const parties = named.filter((p) => isParty(p.userId));
      const at = Date.now();
      if (existing) {
        const joining = parties.filter((p) => !existing.memberIds.includes(p.userId));
        if (joining.length === 0 || existing.closed) return existing;
        const memberIds = [...existing.memberIds, ...joining.map((p) => p.userId)];
        repo.txUpdate(tx, id, { memberIds, updatedAt: at });
        for (const p of joining) repo.txAddMember(tx, newMembership(id, p.userId, 'MEMBER', at, p.surface));
        return { ...existing, memberIds, updatedAt: at };
      }
      const record: ConversationRecord = {
        id,
        type: 'CONTEXT',
        title: null,
        ownerId: null,
        memberIds: parties.map((p) => p.userId),
        context,
        closed: false,
        createdBy: SYSTEM_SENDER,
        createdAt: at,
        updatedAt: at,
      };
      repo.txCreate(
        tx,
        record,
        parties.map((p) => newMembership(id, p.userId, 'MEMBER', at, p.surface)),
      );
      return record;
    });
  },
  /** A party left the entity (a courier who gave an order up): out of its conversation (idempotent). */
  async leave(context: { type: ContextType; id: string }, userId: string): Promise<void> {
    const id = contextConversationId(context);
    await db().runTransaction(async (tx) => {
      const existing = await repo.get(id, tx);
      if (!existing || !existing.memberIds.includes(userId)) return;
      repo.txUpdate(tx, id, { memberIds: existing.memberIds.filter((m) => m !== userId), updatedAt: Date.now() });
      repo.txRemoveMember(tx, id, userId);
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
