import { FieldValue, type Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { bothForms, recordFields, storedFields } from '../../platform/kits/firestore/documents';
import { paginate, paginateTimeRange, type Page } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import {
  blockDocument,
  blockId,
  CHAT_BLOCK_LISTS,
  CHAT_BLOCKS,
  CHAT_INVITATIONS,
  CHAT_MEMBERSHIPS,
  CHAT_PREFERENCES,
  conversationDocument,
  CONVERSATIONS,
  invitationId,
  membershipDocument,
  membershipId,
  messageDocument,
  MESSAGES,
  type BlockListRecord,
  type BlockRecord,
  type ChatPreferencesRecord,
  type ConversationRecord,
  type InvitationRecord,
  type MembershipRecord,
  type MessageRecord,
} from './conversations.model';

export type { BlockRecord };

const conversations = () => typedCollection<ConversationRecord>(CONVERSATIONS, conversationDocument);
const memberships = () => plainCollection<MembershipRecord>(CHAT_MEMBERSHIPS, membershipDocument);
// Messages keep their id as a field too: reports find a message by id alone (a collection-group query).
const messages = (conversationId: string) => plainCollection<MessageRecord>(`${CONVERSATIONS}/${conversationId}/${MESSAGES}`, messageDocument);
const blocks = () => plainCollection<BlockRecord>(CHAT_BLOCKS, blockDocument);
const blockLists = () => plainCollection<BlockListRecord>(CHAT_BLOCK_LISTS);
const invitations = () => typedCollection<InvitationRecord>(CHAT_INVITATIONS);
const preferences = () => plainCollection<ChatPreferencesRecord>(CHAT_PREFERENCES);

export const conversationsRepo = {
  newId: () => conversations().doc().id,
  conversationRef: (id: string) => conversations().doc(id),
  get: (id: string, tx?: Transaction) => readRecord(conversations().doc(id), tx),
  /** The conversation and (when named) one of its messages, in one read of the transaction. */
  async txConversationAndMessage(tx: Transaction, id: string, messageId?: string): Promise<[ConversationRecord | undefined, MessageRecord | undefined]> {
    if (!messageId) return [await readRecord(conversations().doc(id), tx), undefined];
    // Mixed types in one getAll: each side keeps its converter, so only the static type is widened here.
    const [conversation, message] = await tx.getAll(
      conversations().doc(id) as FirebaseFirestore.DocumentReference,
      messages(id).doc(messageId) as FirebaseFirestore.DocumentReference,
    );
    return [conversation.exists ? (conversation.data() as ConversationRecord) : undefined, message.exists ? (message.data() as MessageRecord) : undefined];
  },
  /** Conversations by id, in the order asked; missing ones left out. */
  async getMany(ids: string[]): Promise<ConversationRecord[]> {
    if (ids.length === 0) return [];
    const snaps = await db().getAll(...ids.map((id) => conversations().doc(id)));
    return snaps.flatMap((s) => (s.exists ? [{ ...(s.data() as Omit<ConversationRecord, 'id'>), id: s.id }] : []));
  },
  txCreate(tx: Transaction, conversation: ConversationRecord, members: MembershipRecord[]): void {
    tx.create(conversations().doc(conversation.id), conversation);
    for (const m of members) tx.create(memberships().doc(membershipId(m.conversationId, m.userId)), m);
  },
  txUpdate(tx: Transaction, id: string, patch: Partial<ConversationRecord>): void {
    tx.update(conversations().doc(id), storedFields(conversationDocument, patch));
  },

  membershipRef: (conversationId: string, userId: string) => memberships().doc(membershipId(conversationId, userId)),
  membership: (conversationId: string, userId: string, tx?: Transaction) => readRecord(memberships().doc(membershipId(conversationId, userId)), tx),
  /** The memberships of these users in one conversation (in the transaction when given); missing ones left out. */
  async membershipsOf(conversationId: string, userIds: string[], tx?: Transaction): Promise<MembershipRecord[]> {
    if (userIds.length === 0) return [];
    const refs = userIds.map((u) => memberships().doc(membershipId(conversationId, u)));
    const snaps = tx ? await tx.getAll(...refs) : await db().getAll(...refs);
    return snaps.flatMap((s) => (s.exists ? [s.data() as MembershipRecord] : []));
  },
  txAddMember(tx: Transaction, member: MembershipRecord): void {
    tx.create(memberships().doc(membershipId(member.conversationId, member.userId)), member);
  },
  txRemoveMember(tx: Transaction, conversationId: string, userId: string): void {
    tx.delete(memberships().doc(membershipId(conversationId, userId)));
  },
  txUpdateMembership(tx: Transaction, conversationId: string, userId: string, patch: Partial<MembershipRecord>): void {
    tx.update(memberships().doc(membershipId(conversationId, userId)), storedFields(membershipDocument, patch));
  },
  /** My conversations, newest activity first. */
  myConversations(userId: string, page: { limit: number; cursor?: string }): Promise<Page<MembershipRecord>> {
    const query = memberships().where('userId', '==', userId);
    return paginate(query, [{ field: 'lastActivityAt', direction: 'desc' }], { ...page, query: 'chat:conversations', caller: userId }, (d) => d.data());
  },
  /** My conversations with unread messages (the badge). */
  async unreadOf(userId: string): Promise<MembershipRecord[]> {
    return (await memberships().where('userId', '==', userId).where('unreadCount', '>', 0).get()).docs.map((d) => d.data());
  },

  messageRef: (conversationId: string, messageId: string) => messages(conversationId).doc(messageId),
  message: (conversationId: string, messageId: string, tx?: Transaction) => readRecord(messages(conversationId).doc(messageId), tx),
  txCreateMessage(tx: Transaction, message: MessageRecord): void {
    tx.create(messages(message.conversationId).doc(message.id), message);
  },
  txUpdateMessage(tx: Transaction, message: Pick<MessageRecord, 'id' | 'conversationId'>, patch: Partial<MessageRecord>): void {
    tx.update(messages(message.conversationId).doc(message.id), storedFields(messageDocument, patch));
  },
  /** Newest first; `before`/`after` bound the page by a message's time. */
  listMessages(conversationId: string, callerId: string, page: { limit: number; cursor?: string }, bounds: { beforeAt?: number; afterAt?: number }) {
    const tag = `chat:messages:${conversationId}:${bounds.beforeAt ?? ''}:${bounds.afterAt ?? ''}`;
    const request = { ...page, query: tag, caller: callerId };
    const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];
    if (bounds.beforeAt === undefined && bounds.afterAt === undefined) return paginate(messages(conversationId), newestFirst, request, (d) => d.data());
    const build = (bound: (ms: number) => unknown) => {
      let query: FirebaseFirestore.Query<MessageRecord> = messages(conversationId);
      if (bounds.beforeAt !== undefined) query = query.where('createdAt', '<', bound(bounds.beforeAt));
      if (bounds.afterAt !== undefined) query = query.where('createdAt', '>', bound(bounds.afterAt));
      return query;
    };
    // Both forms read (paginateTimeRange): delete after migrate:listened-times has run in every project.
    return paginateTimeRange(build, newestFirst, request, (d) => d.data());
  },
  /**
   * Unread for `userId` after `afterAt`: counted messages (fanned out, not SYSTEM) by others. Only messages the
   * trigger has counted, so one still on its way is counted once, by the trigger.
   */
  async txUnreadAfter(tx: Transaction, conversationId: string, userId: string, afterAt: number): Promise<number> {
    // Once per stored form of createdAt (epoch ms until migrate-listened-times has run, then Timestamps).
    // Both forms read: delete after migrate:listened-times has run in every project.
    const counts = await Promise.all(
      bothForms(afterAt).map(async (bound) => {
        const counted = messages(conversationId).where('counted', '==', true).where('createdAt', '>', bound);
        const [all, mine] = await Promise.all([tx.get(counted.count()), tx.get(counted.where('senderId', '==', userId).count())]);
        return all.data().count - mine.data().count;
      }),
    );
    return counts[0] + counts[1];
  },

  /** Which of `userIds` block `senderId`. */
  async blockersOf(senderId: string, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const snaps = await db().getAll(...userIds.map((u) => blocks().doc(blockId(u, senderId))));
    return new Set(snaps.filter((s) => s.exists).map((s) => s.get('blockerId') as string));
  },
  /** Whether either of the two blocks the other (in the transaction when given). */
  async eitherBlocks(a: string, b: string, tx?: Transaction): Promise<{ aBlocksB: boolean; bBlocksA: boolean }> {
    const refs = [blocks().doc(blockId(a, b)), blocks().doc(blockId(b, a))];
    const [ab, ba] = tx ? await tx.getAll(...refs) : await db().getAll(...refs);
    return { aBlocksB: ab.exists, bBlocksA: ba.exists };
  },
  /** Whom a person blocks (their list: one read); nobody when never set. */
  async blockListOf(userId: string): Promise<ReadonlySet<string>> {
    const snap = await blockLists().doc(userId).get();
    return new Set(snap.exists ? (snap.data() as BlockListRecord).blockedIds : []);
  },
  /** Whom each of `userIds` blocks, one document per person (in the transaction); nobody when never set. */
  async txBlockLists(tx: Transaction, userIds: string[]): Promise<Map<string, ReadonlySet<string>>> {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return new Map();
    const snaps = await tx.getAll(...unique.map((u) => blockLists().doc(u)));
    return new Map(snaps.map((s) => [s.id, new Set(s.exists ? (s.data() as BlockListRecord).blockedIds : [])]));
  },
  /** The block of one pair and the blocker's list, in one read of the transaction. */
  async txBlockState(tx: Transaction, blockerId: string, blockedId: string): Promise<{ block: BlockRecord | undefined; blockedIds: string[] }> {
    const [pair, list] = await tx.getAll(
      blocks().doc(blockId(blockerId, blockedId)) as FirebaseFirestore.DocumentReference,
      blockLists().doc(blockerId) as FirebaseFirestore.DocumentReference,
    );
    return { block: pair.exists ? (pair.data() as BlockRecord) : undefined, blockedIds: list.exists ? (list.data() as BlockListRecord).blockedIds : [] };
  },
  /** Writes a block and the blocker's list (which names the blocked id). */
  txSaveBlock(tx: Transaction, record: BlockRecord, blockedIds: string[]): void {
    tx.set(blocks().doc(blockId(record.blockerId, record.blockedId)), record);
    tx.set(blockLists().doc(record.blockerId), { userId: record.blockerId, blockedIds, updatedAt: record.createdAt });
  },
  txRemoveBlock(tx: Transaction, blockerId: string, blockedId: string, blockedIds: string[], at: number): void {
    tx.delete(blocks().doc(blockId(blockerId, blockedId)));
    tx.set(blockLists().doc(blockerId), { userId: blockerId, blockedIds, updatedAt: at });
  },
  blocksOf(blockerId: string, page: { limit: number; cursor?: string }) {
    const query = blocks().where('blockerId', '==', blockerId);
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], { ...page, query: 'chat:blocks', caller: blockerId }, (d) => d.data());
  },

  /** Each user's group-add preference (absent: never set), in the transaction. */
  async txPreferences(tx: Transaction, userIds: string[]): Promise<Map<string, ChatPreferencesRecord>> {
    if (userIds.length === 0) return new Map();
    const snaps = await tx.getAll(...userIds.map((u) => preferences().doc(u)));
    return new Map(snaps.flatMap((s) => (s.exists ? [[s.id, s.data() as ChatPreferencesRecord] as const] : [])));
  },
  preferences: (userId: string) => readRecord(preferences().doc(userId)),
  async savePreferences(record: ChatPreferencesRecord): Promise<void> {
    await preferences().doc(record.userId).set(record);
  },

  invitationRef: (id: string) => invitations().doc(id),
  invitation: (id: string, tx?: Transaction) => readRecord(invitations().doc(id), tx),
  /** The invitations of these users to one group (in the transaction); missing ones left out. */
  async txInvitationsOf(tx: Transaction, conversationId: string, userIds: string[]): Promise<Map<string, InvitationRecord>> {
    if (userIds.length === 0) return new Map();
    const snaps = await tx.getAll(...userIds.map((u) => invitations().doc(invitationId(conversationId, u))));
    return new Map(snaps.flatMap((s) => (s.exists ? [[(s.data() as InvitationRecord).userId, s.data() as InvitationRecord] as const] : [])));
  },
  /** Pending invitations `invitedBy` made to `userId` (in the transaction), at most `limit`. */
  async txPendingInvitations(tx: Transaction, invitedBy: string, userId: string, limit: number): Promise<InvitationRecord[]> {
    const query = invitations().where('invitedBy', '==', invitedBy).where('userId', '==', userId).where('status', '==', 'PENDING').limit(limit);
    return (await tx.get(query)).docs.map((d) => d.data());
  },
  /** Takes one id off a group's pending invitees (no read of the group needed). */
  txUninvite(tx: Transaction, conversationId: string, userId: string, at: number): void {
    tx.update(conversations().doc(conversationId), storedFields(conversationDocument, { invitedIds: FieldValue.arrayRemove(userId), updatedAt: at }));
  },
  txSaveInvitation(tx: Transaction, record: InvitationRecord): void {
    tx.set(invitations().doc(record.id), record);
  },
  /** My invitations with a status, newest first. */
  invitationsOf(userId: string, status: InvitationRecord['status'], page: { limit: number; cursor?: string }) {
    const query = invitations().where('userId', '==', userId).where('status', '==', status);
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], { ...page, query: `chat:invitations:${status}`, caller: userId }, (d) => d.data());
  },

  /** A message found by id alone (reports name a message without its conversation). */
  async messageById(messageId: string): Promise<MessageRecord | undefined> {
    const snap = await db().collectionGroup(MESSAGES).where('id', '==', messageId).limit(1).get();
    return snap.empty ? undefined : recordFields<MessageRecord>(messageDocument, snap.docs[0].data());
  },
};
