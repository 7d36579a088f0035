import { db, firestoreApi, inTransaction } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { ASSISTANT_CONVERSATIONS, ASSISTANT_MESSAGES } from './assistant.collections';
import type { AssistantMessageRecord } from './assistant.model';

const conversation = (userId: string) => db().collection(ASSISTANT_CONVERSATIONS).doc(userId);
const messagesOf = (userId: string) => typedCollection<AssistantMessageRecord>(`${ASSISTANT_CONVERSATIONS}/${userId}/${ASSISTANT_MESSAGES}`);
// Paging breaks ties by id: a question and its answer never share a time (the answer is a millisecond later).
const NEWEST_FIRST = [{ field: 'createdAt', direction: 'desc' }] as const;
const DELETE_BATCH = 400;

export const assistantRepo = {
  newId: (userId: string) => messagesOf(userId).doc().id,
  /** A question and its answer, with the conversation's counters, in one batch. */
  async append(userId: string, messages: readonly AssistantMessageRecord[], at: number): Promise<void> {
    const { FieldValue } = firestoreApi();
    const batch = db().batch();
    for (const m of messages) batch.create(messagesOf(userId).doc(m.id), m);
    batch.set(conversation(userId), { userId, updatedAt: at, messageCount: FieldValue.increment(messages.length) }, { merge: true });
    await batch.commit();
  },
  get: (userId: string, id: string) => readRecord(messagesOf(userId).doc(id)),
  page: (userId: string, request: PageRequest): Promise<Page<AssistantMessageRecord>> => paginate(messagesOf(userId), NEWEST_FIRST, request, (d) => d.data()),
  /** The latest `n` messages, oldest first. */
  async recent(userId: string, n: number): Promise<AssistantMessageRecord[]> {
    const snap = await messagesOf(userId).orderBy('createdAt', 'desc').limit(n).get();
    return snap.docs.map((d) => d.data()).reverse();
  },
  /** Deletes one message; false when there is none (a repeat deletes nothing and counts nothing). */
  async remove(userId: string, id: string): Promise<boolean> {
    const { FieldValue } = firestoreApi();
    return inTransaction(async (tx) => {
      const ref = messagesOf(userId).doc(id);
      if (!(await readRecord(ref, tx))) return false;
      tx.delete(ref);
      tx.set(conversation(userId), { messageCount: FieldValue.increment(-1) }, { merge: true });
      return true;
    });
  },
  /** Every message of the user's conversation, in batches; answers how many went. */
  async clear(userId: string): Promise<number> {
    let deleted = 0;
    for (;;) {
      const snap = await messagesOf(userId).limit(DELETE_BATCH).select().get();
      if (snap.empty) break;
      const batch = db().batch();
      snap.docs.forEach((d) => batch.delete(d.ref));
      await batch.commit();
      deleted += snap.size;
    }
    await conversation(userId).delete();
    return deleted;
  },
};
