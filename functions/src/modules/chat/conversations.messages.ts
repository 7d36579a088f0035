import type { Transaction } from 'firebase-admin/firestore';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { isoOrNull } from '../../platform/kits/time/time';
import { notFound, toMessage, writable, type ConversationsCommon } from './conversations.common';
import { CHAT_LIMITS, messageIdFor, previewOf, type MessageRecord } from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';
import type { SendMessageBody } from './conversations.schemas';
import { BoundedMap } from '../../platform/kits/memo/bounded-map';

// Messages of a conversation: send (a keyed send makes one message however often it is retried), list, edit and
// delete within the window, and the read and delivered markers.

// The other member of a direct conversation as a sender last found it, per conversation and sender: the send then
// reads the two members' blocks with the conversation (one round trip less). Only a hint: the conversation read in
// the transaction decides, and blocks are always read there. Bounded: the hint set longest ago goes first.
const DIRECT_PEER_HINTS_MAX = 10_000;
type Blocks = { aBlocksB: boolean; bBlocksA: boolean };

export function messagesPart(shared: ConversationsCommon) {
  const { deps, now, memberView, messageIn } = shared;
  const directPeerHints = new BoundedMap<string, string>(DIRECT_PEER_HINTS_MAX);
  const rememberPeer = (key: string, peer: string) => {
    if (directPeerHints.get(key) !== peer) directPeerHints.set(key, peer);
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

  /** The message record of a send, after its checks (blocks in a direct conversation, the attachment, the reply). */
  async function composed(
    tx: Transaction,
    callerId: string,
    conversation: { id: string; type: string; memberIds: string[] },
    messageId: string,
    body: SendMessageBody,
    hinted?: { peer: string; blocks: Blocks },
  ): Promise<MessageRecord> {
    const id = conversation.id;
    // A block stops a direct conversation both ways (groups and ride, order or booking threads go on; the
    // blocker is not notified of the blocked person's messages there).
    if (conversation.type === 'DIRECT') {
      const other = conversation.memberIds.find((m) => m !== callerId) ?? callerId;
      const blocks = hinted?.peer === other ? hinted.blocks : await repo.eitherBlocks(callerId, other, tx);
      if (blocks.aBlocksB || blocks.bBlocksA) throw new ForbiddenError('You cannot message this person').withCode('CHAT_BLOCKED');
    }
    const media = body.type === 'AUDIO' || body.type === 'IMAGE' ? await deps.attachableMedia(callerId, body.mediaId, tx) : undefined;
    if ((body.type === 'AUDIO' || body.type === 'IMAGE') && media?.kind !== body.type) {
      const what = body.type === 'AUDIO' ? 'audio' : 'image';
      throw new AppError(422, `mediaId is not one of your READY ${what} uploads`, [
        { field: 'body.mediaId', message: `not a READY ${what} item of yours` },
      ]).withCode('CHAT_ATTACHMENT_INVALID');
    }
    const replied = body.replyToId ? await messageIn(id, body.replyToId, 'body.replyToId', tx) : undefined;
    return {
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
  }

  return {
    /**
     * `idempotencyKey`: the route's Idempotency-Key; a keyed send names its message, so a retry finds it. `admitted`:
     * resolves once the caller is let in (the send starts beside the guards): awaited before any write.
     */
    async send(callerId: string, id: string, body: SendMessageBody, idempotencyKey: string | undefined, admitted: () => Promise<unknown>) {
      const messageId = idempotencyKey ? messageIdFor(id, callerId, idempotencyKey) : repo.newId();
      const hintKey = `${id}/${callerId}`;
      const peer = directPeerHints.get(hintKey);
      const message = await inTransaction(
        async (tx) => {
          // One read: the conversation, for a keyed send the message a lost first answer may have made, and the two
          // members' blocks when the other member is known from an earlier send.
          const [[conversation, existing], peerBlocks] = await Promise.all([
            repo.txConversationAndMessage(tx, id, idempotencyKey ? messageId : undefined),
            peer === undefined ? undefined : repo.eitherBlocks(callerId, peer, tx),
          ]);
          if (!conversation || !conversation.memberIds.includes(callerId)) throw notFound();
          if (existing && existing.senderId === callerId) return existing;
          writable(conversation);
          const record = await composed(tx, callerId, conversation, messageId, body, peerBlocks && { peer: peer!, blocks: peerBlocks });
          await admitted();
          if (conversation.type === 'DIRECT') rememberPeer(hintKey, conversation.memberIds.find((m) => m !== callerId) ?? callerId);
          repo.txCreateMessage(tx, record);
          return record;
        },
        { readsTogether: true },
      );
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
  };
}
