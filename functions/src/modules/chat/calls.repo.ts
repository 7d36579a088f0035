import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import type { CallRecord } from './calls.model';

export const CALLS = 'calls';
const calls = () => db().collection(CALLS);
const fromSnap = (d: FirebaseFirestore.DocumentSnapshot) => ({ ...(d.data() as object), id: d.id }) as CallRecord;

export const callsRepo = {
  newId: () => calls().doc().id,
  async txGet(tx: Transaction, id: string): Promise<CallRecord | undefined> {
    const snap = await tx.get(calls().doc(id));
    return snap.exists ? fromSnap(snap) : undefined;
  },
  // Live calls (ringing or active) of a user, to find a busy line.
  async txLiveCallsOf(tx: Transaction, userId: string): Promise<CallRecord[]> {
    const snap = await tx.get(calls().where('participants', 'array-contains', userId).where('status', 'in', ['RINGING', 'ACTIVE']));
    return snap.docs.map(fromSnap);
  },
  txSave(tx: Transaction, call: CallRecord): void {
    const { id, ...data } = call;
    tx.set(calls().doc(id), data);
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
