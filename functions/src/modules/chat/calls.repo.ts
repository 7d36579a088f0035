import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { CALL_LINES, CALLS, callDocument, type CallRecord } from './calls.model';
import { accounts } from '../users';

const calls = () => typedCollection<CallRecord>(CALLS, callDocument);
const lines = () => db().collection(CALL_LINES);
const fieldValue = () => firestoreApi().FieldValue;
const isLive = (call: CallRecord) => call.status === 'RINGING' || call.status === 'ACTIVE';

export const callsRepo = {
  newId: () => calls().doc().id,
  ref: (id: string) => calls().doc(id),
  get: (id: string, tx?: Transaction) => readRecord(calls().doc(id), tx),
  // What starting a call needs: the callee's account and both users' live (ringing or active) calls.
  // The account and the two lines in one read, then the calls the lines name (none when both are free).
  async txStartState(tx: Transaction, callerId: string, calleeId: string) {
    const [calleeSnap, ...lineSnaps] = await tx.getAll(accounts.ref(calleeId), lines().doc(callerId), lines().doc(calleeId));
    const idsPerUser = lineSnaps.map((snap) => (snap.get('callIds') as string[] | undefined) ?? []);
    const ids = [...new Set(idsPerUser.flat())];
    const byId =
      ids.length === 0
        ? new Map<string, CallRecord>()
        : new Map((await tx.getAll(...ids.map((id) => calls().doc(id)))).flatMap((d) => (d.exists ? [[d.id, d.data()!] as const] : [])));
    const [callerCalls, calleeCalls] = idsPerUser.map((list) => list.map((id) => byId.get(id)).filter((c): c is CallRecord => c !== undefined && isLive(c)));
    return { callee: accounts.fromSnapshot(calleeSnap), callerCalls, calleeCalls };
  },
  /** Saves the call and keeps both participants' lines in step with its status. */
  txSave(tx: Transaction, call: CallRecord): void {
    tx.set(calls().doc(call.id), call);
    const callIds = isLive(call) ? fieldValue().arrayUnion(call.id) : fieldValue().arrayRemove(call.id);
    for (const userId of call.participants) tx.set(lines().doc(userId), { callIds }, { merge: true });
  },
  history(userId: string, opts: { limit: number; cursor?: string }) {
    const query = calls().where('participants', 'array-contains', userId);
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], { ...opts, query: 'calls:history', caller: userId }, (d) => d.data());
  },
};
