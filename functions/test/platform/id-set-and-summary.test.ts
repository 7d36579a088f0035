import { randomUUID } from 'node:crypto';
import { db, inTransaction } from '../../src/platform/core/firebase/firebase';
import { shardedCounter } from '../../src/platform/kits/counters/sharded-counter';
import type { Transaction } from 'firebase-admin/firestore';
import { idSet, type IdSet } from '../../src/platform/kits/id-sets/id-set';
import { requireEmulators } from '../helpers/emulators';

// Two kits on the emulator: an id set kept beside its truth (a follow and the set change in one transaction; the set
// starts with the owner's first member, is not kept for an owner with members from before it, and says so when a
// bucket is full), and a sharded counter's sum rolled up into the counted document.
beforeAll(requireEmulators);

const TRUTH = 'test_idset_truth';
const truth = (owner: string, member: string) => db().collection(TRUTH).doc(`${member}_${owner}`);
const truthEmpty = async (tx: Transaction, owner: string) => (await tx.get(db().collection(TRUTH).where('owner', '==', owner).limit(1))).empty;
const set = idSet({ collection: 'test_idsets', buckets: 4, bucketCap: 3, truthIsEmpty: truthEmpty });
/** A follow: the truth and the set in one transaction (a repeat changes nothing). */
const joinIn = (s: IdSet, owner: string, member: string) =>
  inTransaction(async (tx) => {
    const [existing, state] = await Promise.all([tx.get(truth(owner, member)), s.txRead(tx, owner, member)]);
    if (existing.exists) return;
    tx.set(truth(owner, member), { owner, member });
    s.txAdd(tx, state);
  });
const leaveIn = (s: IdSet, owner: string, member: string) =>
  inTransaction(async (tx) => {
    const [existing, state] = await Promise.all([tx.get(truth(owner, member)), s.txRead(tx, owner, member)]);
    if (!existing.exists) return;
    tx.delete(truth(owner, member));
    s.txRemove(tx, state);
  });
const join = (owner: string, member: string) => joinIn(set, owner, member);
const leave = (owner: string, member: string) => leaveIn(set, owner, member);

describe('id sets', () => {
  it('start with the first member and follow the truth through parallel joins, a repeat and a leave', async () => {
    // Room for all eight in any one bucket: the set stays kept whatever the hashes.
    const roomy = idSet({ collection: 'test_idsets_roomy', buckets: 4, bucketCap: 8, truthIsEmpty: (tx, owner) => truthEmpty(tx, owner) });
    const join = (owner: string, member: string) => joinIn(roomy, owner, member);
    const leave = (owner: string, member: string) => leaveIn(roomy, owner, member);
    const owner = `o-${randomUUID()}`;
    expect((await roomy.read(owner)).ids).toBeUndefined();
    const members = Array.from({ length: 8 }, (_, i) => `m${i}-${randomUUID().slice(0, 6)}`);
    await join(owner, members[0]);
    await Promise.all(members.slice(1).map((m) => join(owner, m)));
    await join(owner, members[3]);
    await leave(owner, members[5]);
    const expected = members.filter((_, i) => i !== 5).sort();
    expect((await roomy.read(owner)).ids?.sort()).toEqual(expected);
    const truthIds = (await db().collection(TRUTH).where('owner', '==', owner).get()).docs.map((d) => d.get('member') as string).sort();
    expect(truthIds).toEqual(expected);
  });

  it('is not kept for an owner whose truth held members before the set, until a backfill writes it', async () => {
    const owner = `o-${randomUUID()}`;
    await truth(owner, 'early').set({ owner, member: 'early' });
    await join(owner, 'late');
    expect((await set.read(owner)).ids).toBeUndefined();
    await inTransaction(async (tx) => {
      const members = (await tx.get(db().collection(TRUTH).where('owner', '==', owner))).docs.map((d) => d.get('member') as string);
      set.txReplace(tx, owner, members);
    });
    expect((await set.read(owner)).ids?.sort()).toEqual(['early', 'late']);
    await leave(owner, 'early');
    expect((await set.read(owner)).ids).toEqual(['late']);
  });

  it('marks a full bucket and answers "not kept" from then on, even after a leave', async () => {
    const owner = `o-${randomUUID()}`;
    // 4 buckets of 3: 13 members fill one bucket past its cap for certain.
    const members = Array.from({ length: 13 }, (_, i) => `m${i}`);
    for (const m of members) await join(owner, m);
    expect((await set.read(owner)).ids).toBeUndefined();
    const buckets = await db().collection('test_idsets').doc(owner).collection('id_buckets').get();
    expect(buckets.docs.some((b) => b.get('full') === true)).toBe(true);
    expect(Math.max(...buckets.docs.map((b) => (b.get('ids') as string[]).length))).toBeLessThanOrEqual(3);
    await leave(owner, 'm0');
    expect((await set.read(owner)).ids).toBeUndefined();
  });

  it('reads other documents alongside in the same call, and lays out seed documents as joins would', async () => {
    const owner = `o-${randomUUID()}`;
    const other = db().collection('test_idsets_other').doc(owner);
    await other.set({ large: true });
    await join(owner, 'a');
    await join(owner, 'b');
    const read = await set.read(owner, [other]);
    expect(read.ids?.sort()).toEqual(['a', 'b']);
    expect(read.alongside.map((s) => s.get('large'))).toEqual([true]);
    // Seed documents for another owner, laid out as the joins would have kept them (the bucket is the member's).
    const seeded = `o-${randomUUID()}`;
    const laid = set.documentsOf(seeded, ['a', 'b']);
    const docs = Object.entries(laid).flatMap(([collection, byId]) =>
      Object.entries(byId).map(([id, data]) => ({ ref: db().collection(collection).doc(id), data })),
    );
    expect(docs).toHaveLength(5);
    const batch = db().batch();
    for (const { ref, data } of docs) batch.set(ref, data);
    await batch.commit();
    expect((await set.read(seeded)).ids?.sort()).toEqual(['a', 'b']);
    const bucketIds = async (o: string) =>
      (await db().collection('test_idsets').doc(o).collection('id_buckets').get()).docs.map((d) => [d.id, d.get('ids')]).filter(([, ids]) => ids.length > 0);
    expect(await bucketIds(seeded)).toEqual(await bucketIds(owner));
  });
});

describe('a sharded counter rolled up into its document', () => {
  const counter = shardedCounter({ fields: ['likes', 'views'] as const, shards: 5, summary: 'counts' });

  it('stores the shards sum with its read time; racing rollups store the latest sum; lists read it with the document', async () => {
    const parent = db().collection('test_summaries').doc(randomUUID());
    await parent.set({ title: 'x', ...counter.zeroSummary(1) });
    expect(counter.summaryIn((await parent.get()).data())).toEqual({ likes: 0, views: 0 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => inTransaction(async (tx) => counter.txAdd(tx, parent, { likes: 1, views: i % 2 }, `u${i}`))));
    const before = Date.now();
    const results = await Promise.all([counter.rollUp(parent), counter.rollUp(parent), counter.rollUp(parent)]);
    expect(results).toEqual(Array(3).fill({ likes: 12, views: 6 }));
    const stored = (await parent.get()).data()!;
    expect(stored).toMatchObject({ title: 'x', counts: { likes: 12, views: 6 } });
    expect(stored.counts.at).toBeGreaterThanOrEqual(before - 5_000);
    expect(counter.summaryIn(stored)).toEqual({ likes: 12, views: 6 });
    expect(await counter.read(parent)).toEqual({ likes: 12, views: 6 });
  });

  it('has nothing to roll up into a document that is gone; a document without a whole summary has none', async () => {
    const gone = db().collection('test_summaries').doc(randomUUID());
    await inTransaction(async (tx) => counter.txAdd(tx, gone, { likes: 1 }));
    expect(await counter.rollUp(gone)).toBeUndefined();
    expect((await gone.get()).exists).toBe(false);
    expect(counter.summaryIn({ counts: { likes: 3 } })).toBeUndefined();
    expect(counter.summaryIn({})).toBeUndefined();
    expect(counter.summaryIn(undefined)).toBeUndefined();
    expect(() => shardedCounter({ fields: ['a'] as const, shards: 2 }).zeroSummary(0)).toThrow(/summary/);
  });
});
