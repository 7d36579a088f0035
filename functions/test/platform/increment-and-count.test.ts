import { randomUUID } from 'node:crypto';
import { DocumentReference, WriteBatch } from 'firebase-admin/firestore';
import { db } from '../../src/platform/core/firebase/firebase';
import { incrementAndCount } from '../../src/platform/kits/counters/increment-and-count';
import { firestoreRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit.store';
import { requireEmulators } from '../helpers/emulators';

// incrementAndCount answers the count from the commit (one round trip, no read back), each caller its own count.
beforeAll(requireEmulators);
afterEach(() => jest.restoreAllMocks());

const ref = () => db().collection('test_counters').doc(randomUUID());

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

  it('20 callers at once each get their own count: 1 to 20, none twice', async () => {
    const counter = ref();
    const counts = await Promise.all(Array.from({ length: 20 }, () => incrementAndCount(counter, 'n')));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await counter.get()).get('n')).toBe(20);
  });

  it('mustExist: a missing document is NOT_FOUND and stays missing', async () => {
    const counter = ref();
    await expect(incrementAndCount(counter, 'attempts', { mustExist: true })).rejects.toMatchObject({ code: 5 });
    expect((await counter.get()).exists).toBe(false);
  });

  it('an SDK whose commit answers no transform result: the count is read back', async () => {
    const counter = ref();
    const commit = WriteBatch.prototype as unknown as { _commit(o: unknown): Promise<{ writeResults?: unknown[] }> };
    const original = commit._commit;
    jest.spyOn(commit, '_commit').mockImplementation(async function (this: unknown, o: unknown) {
      const response = await original.call(this, o);
      return { ...response, writeResults: (response.writeResults ?? []).map(() => ({})) };
    });
    const reads = jest.spyOn(DocumentReference.prototype, 'get');
    expect(await incrementAndCount(counter, 'count')).toBe(1);
    expect(await incrementAndCount(counter, 'count')).toBe(2);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("the rate limit store's hits count one by one, also in a burst", async () => {
    const store = firestoreRateLimitStore();
    const key = `test:${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment(key, Date.now() + 60_000)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    await store.giveBack(key);
    expect(await store.increment(key, Date.now() + 60_000)).toBe(10);
  });
});
