import type { DocumentReference, Transaction } from 'firebase-admin/firestore';
import { firestoreApi } from '../../core/firebase/firebase';
import { sha256 } from '../ids/digest';

// Counters a popular document takes faster than its one sustained write a second (likes of a post, followers of a
// well-known account): each change lands on one of `shards` documents under the counted one
// (`{document}/{subcollection}/{n}`), so the counter takes about `shards` writes a second; the count is their sum,
// read with one aggregate query (billed as one read per 1,000 index entries: one read for a counter). A change rides
// the caller's transaction together with the write that justifies it (the like, the follow), so a count is exact:
// a repeated like that finds its like document there adds nothing. A counter's fields are fixed once it counts:
// every shard holds every field (an aggregate with several sums counts only the documents holding all of its
// fields), so a field added later reads 0 everywhere until every existing shard is given it (a migration).

export const COUNTER_SHARDS = 'counter_shards';

export type Counts<F extends string> = Record<F, number>;

export interface ShardedCounter<F extends string> {
  /** Adds `deltas` to one shard in the caller's transaction (after its reads). `key` (e.g. the actor) picks the shard. */
  txAdd(tx: Transaction, parent: DocumentReference, deltas: Partial<Counts<F>>, key?: string): void;
  /** The counts of one document (0 for a field never changed). */
  read(parent: DocumentReference): Promise<Counts<F>>;
  /** The counts of several documents, read in parallel, in order. */
  readMany(parents: readonly DocumentReference[]): Promise<Array<Counts<F>>>;
}

export function shardedCounter<F extends string>(options: { fields: readonly F[]; shards: number }): ShardedCounter<F> {
  const { fields, shards } = options;
  if (!(Number.isInteger(shards) && shards >= 1 && shards <= 100)) throw new Error(`shardedCounter: shards must be 1..100 (got ${shards})`);
  const shardOf = (key: string | undefined) => (key === undefined ? Math.floor(Math.random() * shards) : parseInt(sha256(key).slice(0, 8), 16) % shards);
  const zero = () => Object.fromEntries(fields.map((f) => [f, 0])) as Counts<F>;
  async function read(parent: DocumentReference): Promise<Counts<F>> {
    const { AggregateField } = firestoreApi();
    const snap = await parent
      .collection(COUNTER_SHARDS)
      .aggregate(Object.fromEntries(fields.map((f) => [f, AggregateField.sum(f)])))
      .get();
    const data = snap.data() as Record<string, number | null>;
    const counts = zero();
    for (const f of fields) counts[f] = Math.round(data[f] ?? 0);
    return counts;
  }
  return {
    txAdd(tx, parent, deltas, key) {
      const { FieldValue } = firestoreApi();
      const changes = Object.entries(deltas).filter(([f, d]) => fields.includes(f as F) && typeof d === 'number' && d !== 0);
      if (changes.length === 0) return;
      const shard = parent.collection(COUNTER_SHARDS).doc(String(shardOf(key)));
      // Every field on every shard (0 added where unchanged): an aggregate query with several sums counts only the
      // documents that hold all of its fields.
      const delta = new Map(changes);
      tx.set(shard, Object.fromEntries(fields.map((f) => [f, FieldValue.increment((delta.get(f) as number | undefined) ?? 0)])), { merge: true });
    },
    read,
    readMany: (parents) => Promise.all(parents.map((p) => read(p))),
  };
}
