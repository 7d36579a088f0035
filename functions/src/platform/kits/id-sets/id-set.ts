import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../core/firebase/firebase';
import { bucketOf as bucketNumber } from '../ids/digest';

// A set of ids kept beside the documents that are its truth (e.g. an author's follows), for a reader that needs all of
// it at once (e.g. a fan-out): one getAll of a few documents instead of a query over thousands. The ids are spread over
// `buckets` documents by a hash of the id (`{collection}/{owner}/id_buckets/{n}`), so the set takes about `buckets`
// changes a second; each change rides the transaction that changes the truth, so the two never disagree.
// Kept only where it can be whole:
// - it starts with the owner's first member (the truth held nobody before): an owner whose members were stored
//   before sets existed has none, and its readers go to the truth (a backfill may write it: `txReplace`);
// - a bucket holds at most `bucketCap` ids: a member that finds its bucket full marks it, and from then on the set
//   answers "not kept" for good (an owner that big is read from the truth, or not read whole at all).

export const ID_BUCKETS = 'id_buckets';

export interface IdSetOptions {
  /** The collection of the sets' documents (`{collection}/{owner}`: the set's start; buckets below it). */
  collection: string;
  buckets: number;
  bucketCap: number;
  /** Whether the truth holds no member of `owner` (read in the transaction; called only for an owner with no set). */
  truthIsEmpty(tx: Transaction, owner: string): Promise<boolean>;
}

/** What a change's transaction read: the set's start and the member's bucket. */
export interface IdSetState {
  owner: string;
  member: string;
  /** The set is kept (it started), or starts with this member. */
  kept: boolean;
  starts: boolean;
  bucket: DocumentReference;
  bucketSize: number;
  bucketFull: boolean;
}

export interface IdSet {
  /** The reads of a change of `member` in `owner`'s set (in the transaction, before its writes). */
  txRead(tx: Transaction, owner: string, member: string): Promise<IdSetState>;
  /** Adds the member read by txRead (the transaction's truth gains it). */
  txAdd(tx: Transaction, state: IdSetState): void;
  /** Removes the member read by txRead (the transaction's truth loses it). */
  txRemove(tx: Transaction, state: IdSetState): void;
  /**
   * Every id of `owner`'s set (`ids`), undefined when it is not kept (never started, or a bucket is full): read the
   * truth then. `alongside`: other documents the caller needs, read in the same getAll (one round trip).
   */
  read(owner: string, alongside?: readonly DocumentReference[]): Promise<{ ids: string[] | undefined; alongside: DocumentSnapshot[] }>;
  /** Writes `owner`'s whole set from the truth's ids, read in the same transaction (a backfill). */
  txReplace(tx: Transaction, owner: string, ids: readonly string[]): void;
  /** The documents of `owner`'s set holding `ids`, by collection path and id (seed data: `{ collection: { id: data } }`). */
  documentsOf(owner: string, ids: readonly string[]): Record<string, Record<string, Record<string, unknown>>>;
}

export function idSet(options: IdSetOptions): IdSet {
  const { collection, buckets, bucketCap, truthIsEmpty } = options;
  if (!(Number.isInteger(buckets) && buckets >= 1 && buckets <= 100)) throw new Error(`idSet: buckets must be 1..100 (got ${buckets})`);
  const start = (owner: string) => db().collection(collection).doc(owner);
  const allBuckets = (owner: string) => Array.from({ length: buckets }, (_, n) => start(owner).collection(ID_BUCKETS).doc(String(n)));
  const bucketOf = (owner: string, member: string) =>
    start(owner)
      .collection(ID_BUCKETS)
      .doc(String(bucketNumber(member, buckets)));
  /** The set's documents holding `ids`, by path (every bucket, the empty ones too: a whole set). */
  const layout = (owner: string, ids: readonly string[]) => {
    const grouped = new Map<string, string[]>(allBuckets(owner).map((b) => [b.path, []]));
    for (const id of new Set(ids)) grouped.get(bucketOf(owner, id).path)!.push(id);
    return [...grouped].map(([path, members]) => ({
      path,
      data: members.length > bucketCap ? { ids: members.slice(0, bucketCap), full: true } : { ids: members },
    }));
  };
  const idsIn = (snap: DocumentSnapshot) => (snap.get('ids') as string[] | undefined) ?? [];

  return {
    async txRead(tx, owner, member) {
      const bucket = bucketOf(owner, member);
      const [started, stored] = await tx.getAll(start(owner), bucket);
      const starts = !started.exists && (await truthIsEmpty(tx, owner));
      return { owner, member, kept: started.exists || starts, starts, bucket, bucketSize: idsIn(stored).length, bucketFull: stored.get('full') === true };
    },
    txAdd(tx, state) {
      if (!state.kept) return;
      const { FieldValue } = firestoreApi();
      if (state.starts) tx.set(start(state.owner), { owner: state.owner });
      if (state.bucketFull) return;
      // At the cap the bucket is marked instead: the set is no longer whole, and says so.
      tx.set(state.bucket, state.bucketSize >= bucketCap ? { full: true } : { ids: FieldValue.arrayUnion(state.member) }, { merge: true });
    },
    txRemove(tx, state) {
      if (!state.kept || state.starts) return;
      tx.set(state.bucket, { ids: firestoreApi().FieldValue.arrayRemove(state.member) }, { merge: true });
    },
    async read(owner, alongside = []) {
      const [started, ...rest] = await db().getAll(start(owner), ...allBuckets(owner), ...alongside);
      const stored = rest.slice(0, buckets);
      const kept = started.exists && !stored.some((b) => b.get('full') === true);
      return { ids: kept ? [...new Set(stored.flatMap(idsIn))] : undefined, alongside: rest.slice(buckets) };
    },
    txReplace(tx, owner, ids) {
      tx.set(start(owner), { owner });
      for (const { path, data } of layout(owner, ids)) tx.set(db().doc(path), data);
    },
    documentsOf(owner, ids) {
      const buckets = Object.fromEntries(layout(owner, ids).map(({ path, data }) => [path.slice(path.lastIndexOf('/') + 1), data]));
      return { [collection]: { [owner]: { owner } }, [start(owner).collection(ID_BUCKETS).path]: buckets };
    },
  };
}
