import type { DocumentReference, Transaction } from 'firebase-admin/firestore';
import { firestoreApi, inTransaction } from '../../core/firebase/firebase';
import { bucketOf } from '../ids/digest';

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
  /** The counts last rolled up into a counted document's data; undefined when it holds none (or `summary` is off). */
  summaryIn(data: object | undefined): Counts<F> | undefined;
  /** The summary field of a document created with nothing counted yet (stored with it). */
  zeroSummary(at: number): Record<string, CountsSummary<F>>;
  /** Rolls the shards' sum up into the counted document, in one transaction; undefined when the document is gone. */
  rollUp(parent: DocumentReference): Promise<Counts<F> | undefined>;
}

/** The rolled-up counts with `at`, the time the shards were summed (the aggregate's read time). */
export type CountsSummary<F extends string> = Counts<F> & { at: number };

export function shardedCounter<F extends string>(options: { fields: readonly F[]; shards: number; summary?: string }): ShardedCounter<F> {
  const { fields, shards, summary } = options;
  if (!(Number.isInteger(shards) && shards >= 1 && shards <= 100)) throw new Error(`shardedCounter: shards must be 1..100 (got ${shards})`);
  const shardOf = (key: string | undefined) => (key === undefined ? Math.floor(Math.random() * shards) : bucketOf(key, shards));
  const zero = () => Object.fromEntries(fields.map((f) => [f, 0])) as Counts<F>;
  const sums = (parent: DocumentReference) => {
    const { AggregateField } = firestoreApi();
    return parent.collection(COUNTER_SHARDS).aggregate(Object.fromEntries(fields.map((f) => [f, AggregateField.sum(f)])));
  };
  const countsOf = (data: Record<string, number | null>) => {
    const counts = zero();
    for (const f of fields) counts[f] = Math.round(data[f] ?? 0);
    return counts;
  };
  function summaryOf(data: object | undefined): Counts<F> | undefined {
    const stored = summary === undefined || data === undefined ? undefined : (data as Record<string, unknown>)[summary];
    if (typeof stored !== 'object' || stored === null) return undefined;
    const values = stored as Record<string, unknown>;
    if (!fields.every((f) => typeof values[f] === 'number')) return undefined;
    return Object.fromEntries(fields.map((f) => [f, values[f]])) as Counts<F>;
  }
  async function read(parent: DocumentReference): Promise<Counts<F>> {
    return countsOf((await sums(parent).get()).data() as Record<string, number | null>);
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
    summaryIn: summaryOf,
    zeroSummary(at) {
      if (summary === undefined) throw new Error('shardedCounter: zeroSummary needs the summary option');
      return { [summary]: { ...zero(), at } };
    },
    async rollUp(parent) {
      if (summary === undefined) throw new Error('shardedCounter: rollUp needs the summary option');
      // The sum is read outside the transaction (which would lock every shard against the changes it counts); the
      // transaction on the document stores it unless a sum read later is there already (two rollups racing).
      const snap = await sums(parent).get();
      const counts = countsOf(snap.data() as Record<string, number | null>);
      const at = snap.readTime.toMillis();
      return inTransaction(async (tx) => {
        const doc = await tx.get(parent);
        if (!doc.exists) return undefined;
        const stored = doc.get(summary) as Partial<CountsSummary<F>> | undefined;
        if (typeof stored?.at === 'number' && stored.at >= at) return summaryOf(doc.data()) ?? counts;
        tx.update(parent, { [summary]: { ...counts, at } });
        return counts;
      });
    },
  };
}
