import { randomUUID } from 'node:crypto';
import { DocumentReference, FieldValue, Firestore, Timestamp, WriteBatch } from 'firebase-admin/firestore';
import { db } from '../../src/platform/core/firebase/firebase';
import { incrementAndCount } from '../../src/platform/kits/counters/increment-and-count';
import { firestoreRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit.store';
import { requireEmulators } from '../helpers/emulators';

// incrementAndCount answers the count from the commit (one round trip, no read back), each caller its own count.
beforeAll(requireEmulators);
afterEach(() => jest.restoreAllMocks());

const ref = () => db().collection('test_counters').doc(randomUUID());
type Request = (method: string, request: unknown, tag: string, retryCodes?: number[]) => Promise<unknown>;

describe('incrementAndCount', () => {
  it('answers from the commit: no document is read, and the extra fields are merged beside the count', async () => {
    const counter = ref();
    await counter.set({ kept: 'yes' });
    const reads = jest.spyOn(DocumentReference.prototype, 'get');
    const getAll = jest.spyOn(db(), 'getAll');
    expect(await incrementAndCount(counter, 'count', { extra: { expireAt: 5 } })).toBe(1);
    expect(await incrementAndCount(counter, 'count', { by: 3 })).toBe(4);
    expect(reads).not.toHaveBeenCalled();
    expect(getAll).not.toHaveBeenCalled();
    reads.mockRestore();
    expect((await counter.get()).data()).toEqual({ kept: 'yes', count: 4, expireAt: 5 });
  });

  it('commits with the retries of the public commit', async () => {
    const firestore = Firestore.prototype as unknown as { request: Request };
    const request = jest.spyOn(firestore, 'request');
    await db()
      .batch()
      .set(ref(), { n: FieldValue.increment(1) }, { merge: true })
      .commit();
    await incrementAndCount(ref(), 'n');
    const commits = request.mock.calls.filter(([method]) => method === 'commit');
    expect(commits).toHaveLength(2);
    expect(commits[1][3]).toEqual(commits[0][3]);
  });

  it('20 callers at once each get their own count: 1 to 20, none twice', async () => {
    const counter = ref();
    const counts = await Promise.all(Array.from({ length: 20 }, () => incrementAndCount(counter, 'n')));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await counter.get()).get('n')).toBe(20);
  });

  it('mustExist: adds to an existing document; a missing one is NOT_FOUND and stays missing', async () => {
    const otp = ref();
    await otp.set({ attempts: 2, code: 'kept' });
    expect(await incrementAndCount(otp, 'attempts', { mustExist: true })).toBe(3);
    expect((await otp.get()).data()).toEqual({ attempts: 3, code: 'kept' });
    const missing = ref();
    await expect(incrementAndCount(missing, 'attempts', { mustExist: true })).rejects.toMatchObject({ code: 5 });
    expect((await missing.get()).exists).toBe(false);
  });

  it('refuses what would make the answer ambiguous: a dotted field, a transform among the extra fields, the field twice', async () => {
    await expect(incrementAndCount(ref(), 'a.b')).rejects.toThrow(/plain top-level field/);
    await expect(incrementAndCount(ref(), 'n', { extra: { other: FieldValue.increment(5) } })).rejects.toThrow(/plain values/);
    await expect(incrementAndCount(ref(), 'n', { extra: { nested: { at: FieldValue.serverTimestamp() } } })).rejects.toThrow(/plain values/);
    await expect(incrementAndCount(ref(), 'n', { extra: { n: 1 } })).rejects.toThrow(/plain top-level field/);
  });

  it('an SDK whose commit answers no transform result, or has no internal commit: the count is read back', async () => {
    const counter = ref();
    const batches = WriteBatch.prototype as unknown as { _commit(o: unknown): Promise<{ writeResults?: unknown[] }> };
    const original = batches._commit;
    jest.spyOn(batches, '_commit').mockImplementation(async function (this: unknown, o: unknown) {
      const response = await original.call(this, o);
      return { ...response, writeResults: (response.writeResults ?? []).map(() => ({})) };
    });
    const reads = jest.spyOn(DocumentReference.prototype, 'get');
    expect(await incrementAndCount(counter, 'count')).toBe(1);
    expect(await incrementAndCount(counter, 'count')).toBe(2);
    expect(reads).toHaveBeenCalledTimes(2);
    jest.restoreAllMocks();
    // An SDK without the internal path: its public commit commits some other way.
    const internals = batches as unknown as { _commit: unknown };
    jest.spyOn(WriteBatch.prototype, 'commit').mockImplementation(async function (this: WriteBatch) {
      await original.call(this, {});
      return [];
    });
    internals._commit = undefined;
    try {
      expect(await incrementAndCount(counter, 'count')).toBe(3);
    } finally {
      internals._commit = original;
    }
  });

  it("the rate limit store's hits count one by one, also in a burst, on a counter that expires", async () => {
    const store = firestoreRateLimitStore();
    const key = `test:${randomUUID()}`;
    const expiresAt = Date.now() + 60_000;
    const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment(key, expiresAt)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    await store.giveBack(key);
    expect(await store.increment(key, expiresAt)).toBe(10);
    const stored = await db().collection('rate_limits').doc(key).get();
    expect((stored.get('expireAt') as Timestamp).toMillis()).toBe(expiresAt);
  });
});
