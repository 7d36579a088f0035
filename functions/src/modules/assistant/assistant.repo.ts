import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { ASSISTANT_CONVERSATIONS, ASSISTANT_MESSAGES } from './assistant.collections';
import type { AssistantMessageRecord } from './assistant.model';

const conversation = (userId: string) => db().collection(ASSISTANT_CONVERSATIONS).doc(userId);
const messagesOf = (userId: string) => typedCollection<AssistantMessageRecord>(`${ASSISTANT_CONVERSATIONS}/${userId}/${ASSISTANT_MESSAGES}`);
// Paging breaks ties by id: a question and its answer never share a time (the answer is a millisecond later).
const NEWEST_FIRST = [{ field: 'createdAt', direction: 'desc' }] as const;
const DELETE_BATCH = 400;
const DELETE_BATCHES = 10;

export const assistantRepo = {
  newId: (userId: string) => messagesOf(userId).doc().id,
  /** A question and its answer in one batch (a message of a fixed id, written again, is the same message). */
  async append(userId: string, messages: readonly AssistantMessageRecord[], at: number): Promise<void> {
    const batch = db().batch();
    for (const m of messages) batch.set(messagesOf(userId).doc(m.id), m);
    batch.set(conversation(userId), { userId, updatedAt: at }, { merge: true });
    await batch.commit();
  },
  get: (userId: string, id: string) => readRecord(messagesOf(userId).doc(id)),
  page: (userId: string, request: PageRequest): Promise<Page<AssistantMessageRecord>> => paginate(messagesOf(userId), NEWEST_FIRST, request, (d) => d.data()),
  /** The latest `n` messages, oldest first. */
  async recent(userId: string, n: number): Promise<AssistantMessageRecord[]> {
    const snap = await messagesOf(userId).orderBy('createdAt', 'desc').limit(n).get();
    return snap.docs.map((d) => d.data()).reverse();
  },
  /** Deletes one message; false when there is none (of this user's). */
  async remove(userId: string, id: string): Promise<boolean> {
    return inTransaction(async (tx) => {
      const ref = messagesOf(userId).doc(id);
      if (!(await readRecord(ref, tx))) return false;
      tx.delete(ref);
      return true;
    });
  },
  /** The user's conversation, deleted in batches: at most DELETE_BATCHES per call (`more`: call again). */
  async clear(userId: string): Promise<{ deleted: number; more: boolean }> {
    let deleted = 0;
    for (let i = 0; i < DELETE_BATCHES; i++) {
      const snap = await messagesOf(userId).limit(DELETE_BATCH).select().get();
      if (snap.empty) {
        await conversation(userId).delete();
        return { deleted, more: false };
      }
      const batch = db().batch();
      snap.docs.forEach((d) => batch.delete(d.ref));
      await batch.commit();
      deleted += snap.size;
    }
    return { deleted, more: true };
  },
};
