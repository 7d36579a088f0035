import { randomUUID } from 'node:crypto';
import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { db, inTransaction } from '../../src/platform/core/firebase/firebase';
import { readsTogether } from '../../src/platform/core/firebase/reads-together';
import { requireEmulators } from '../helpers/emulators';

// inTransaction({ readsTogether }): the document reads of one turn go out as one getAll, which begins the
// transaction; queries follow it. Checked against the emulator, with the real transaction's calls recorded.
beforeAll(requireEmulators);

const COLLECTION = 'test_reads_together';
const ref = (id: string) => db().collection(COLLECTION).doc(id);
const converter = {
  toFirestore: (v: { doubled: number }) => ({ n: v.doubled / 2 }),
  fromFirestore: (snap: DocumentSnapshot) => ({ doubled: 2 * (snap.get('n') as number) }),
};

/** The real transaction's read calls, in order: getAll with its number of references, or a query. */
function recorded(tx: Transaction) {
  const calls: string[] = [];
  const getAll = tx.getAll.bind(tx);
  const get = tx.get.bind(tx) as (target: unknown) => Promise<unknown>;
  Object.assign(tx, {
    getAll: (...refs: Parameters<Transaction['getAll']>) => {
      calls.push(`getAll ${refs.length}`);
      return getAll(...refs);
    },
    get: (target: unknown) => {
      calls.push('get');
      return get(target);
    },
  });
  return calls;
}

describe('reads together in a transaction', () => {
  const run = randomUUID();
  const ids = ['a', 'b', 'c'].map((k) => `${run}-${k}`);
  beforeAll(async () => {
    await ref(ids[0]).set({ run, n: 1 });
    await ref(ids[1]).set({ run, n: 2 });
  });
  afterAll(() => Promise.all(ids.map((id) => ref(id).delete())));

  it('answers side-by-side reads (missing, converted, repeated, a getAll, a query, one started hops later) with one getAll', async () => {
    let calls: string[] = [];
    const out = await db().runTransaction(async (real) => {
      calls = recorded(real);
      const tx = readsTogether(real).view;
      const [first, second, missing, query, again, pair] = await Promise.all([
        tx.get(ref(ids[0])),
        tx.get(ref(ids[1]).withConverter(converter)),
        tx.get(ref(ids[2])),
        tx.get(db().collection(COLLECTION).where('run', '==', run)),
        Promise.resolve()
          .then(() => undefined)
          .then(() => tx.get(ref(ids[0]))),
        tx.getAll(ref(ids[1]), ref(ids[2])),
      ]);
      // A later turn's reads are a batch of their own.
      const [later] = await Promise.all([tx.get(ref(ids[1]))]);
      tx.set(ref(ids[2]), { run, n: 3 });
      return {
        first: first.get('n'),
        second: second.data(),
        missing: missing.exists,
        found: query.size,
        again: again.get('n'),
        later: later.get('n'),
        pair: pair.map((p) => p.exists),
      };
    });
    expect(out).toEqual({ first: 1, second: { doubled: 4 }, missing: false, found: 2, again: 1, later: 2, pair: [true, false] });
    expect(calls).toEqual(['getAll 6', 'get', 'getAll 1']);
    expect((await ref(ids[2]).get()).get('n')).toBe(3);
  });

  it('a read still waiting when the attempt ends is refused, not sent into a later attempt', async () => {
    let late: Promise<unknown> | undefined;
    const n = await inTransaction(
      async (tx) => {
        const snap = await tx.get(ref(ids[0]));
        late = tx.get(ref(ids[1]));
        late.catch(() => undefined);
        return snap.get('n') as number;
      },
      { readsTogether: true },
    );
    expect(n).toBe(1);
    await expect(late).rejects.toThrow(/after its transaction attempt had ended/);
  });

  it('a read after a write fails as in a plain transaction (every read of its batch)', async () => {
    await expect(
      inTransaction(
        async (tx) => {
          tx.set(ref(ids[2]), { run, n: 0 });
          await Promise.all([tx.get(ref(ids[0])), tx.get(ref(ids[1]))]);
        },
        { readsTogether: true },
      ),
    ).rejects.toThrow(/reads to be executed before all writes/i);
  });
});
