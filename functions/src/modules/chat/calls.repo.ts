import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import type { CallRecord } from './calls.model';

export const CALLS = 'calls';
// `call_lines/{userId}`: the ids of a user's live (ringing or active) calls, kept by every save. A busy
// check reads two of these by id instead of querying calls inside the transaction: point reads, one
// document per user to contend on (queries in transactions are slow and lock ranges).
export const CALL_LINES = 'call_lines';
const calls = () => db().collection(CALLS);
const lines = () => db().collection(CALL_LINES);
const fieldValue = () => (require('firebase-admin/firestore') as typeof import('firebase-admin/firestore')).FieldValue;
const isLive = (call: CallRecord) => call.status === 'RINGING' || call.status === 'ACTIVE';
const fromSnap = (d: FirebaseFirestore.DocumentSnapshot) => ({ ...(d.data() as object), id: d.id }) as CallRecord;

export const callsRepo = {
  newId: () => calls().doc().id,
  async txGet(tx: Transaction, id: string): Promise<CallRecord | undefined> {
    const snap = await tx.get(calls().doc(id));
    return snap.exists ? fromSnap(snap) : undefined;
  },
  // Live calls (ringing or active) of each user, to find a busy line: the lines in one read, then the
  // calls they name (none when both users are free).
  async txLiveCallsOf(tx: Transaction, userIds: string[]): Promise<CallRecord[][]> {
    const lineSnaps = await tx.getAll(...userIds.map((u) => lines().doc(u)));
    const idsPerUser = lineSnaps.map((snap) => (snap.get('callIds') as string[] | undefined) ?? []);
    const ids = [...new Set(idsPerUser.flat())];
    if (ids.length === 0) return userIds.map(() => []);
    const byId = new Map((await tx.getAll(...ids.map((id) => calls().doc(id)))).filter((d) => d.exists).map((d) => [d.id, fromSnap(d)]));
    return idsPerUser.map((list) => list.map((id) => byId.get(id)).filter((c): c is CallRecord => c !== undefined && isLive(c)));
  },
  /** Saves the call and keeps both participants' lines in step with its status. */
  txSave(tx: Transaction, call: CallRecord): void {
    const { id, ...data } = call;
    tx.set(calls().doc(id), data);
    const callIds = isLive(call) ? fieldValue().arrayUnion(id) : fieldValue().arrayRemove(id);
    for (const userId of call.participants) tx.set(lines().doc(userId), { callIds }, { merge: true });
  },
  async history(userId: string, opts: { limit: number; cursor?: string }) {
    let query = calls().where('participants', 'array-contains', userId).orderBy('createdAt', 'desc').orderBy('__name__', 'desc');
    if (opts.cursor) {
      const after = await calls().doc(opts.cursor).get();
      if (after.exists) query = query.startAfter(after);
    }
    const snap = await query.limit(opts.limit).get();
    return { calls: snap.docs.map(fromSnap), nextCursor: snap.size === opts.limit ? snap.docs[snap.size - 1].id : null };
  },
};

export async function callDeadline(id: string): Promise<number | undefined> {
  const snap = await calls().doc(id).get();
  return snap.exists ? (snap.get('ringExpiresAt') as number) : undefined;
}
