// Rollups of a counter into its document: one task per document and second (a repeat in the same second names the
// same task, dropped by Cloud Tasks), run after that second ends; an early delivery (the Tasks emulator runs every task
// at once) waits for the second's end, capped.
const enqueued: Array<{ name: string; data: Record<string, unknown>; options: Record<string, unknown> }> = [];
jest.mock('firebase-admin/functions', () => ({
  getFunctions: () => ({
    taskQueue: (name: string) => ({
      enqueue: async (data: Record<string, unknown>, options: Record<string, unknown>) => {
        enqueued.push({ name, data, options });
      },
    }),
  }),
}));
jest.mock('../../src/platform/core/firebase/firebase', () => ({ firebaseApp: () => ({}) }));

import type { DocumentReference } from 'firebase-admin/firestore';
import { requestRollup, rollupTaskQueue, runRollup, ROLLUP_MARGIN_MS, ROLLUP_WINDOW_MS } from '../../src/platform/kits/counters/rollup';
import type { ShardedCounter } from '../../src/platform/kits/counters/sharded-counter';

const queue = rollupTaskQueue('postCountsRollup', 'postId');

describe('requestRollup', () => {
  beforeEach(() => {
    enqueued.length = 0;
  });

  it('names one task per document and second, run a quarter second after the second ends', async () => {
    const second = 1_800_000_000;
    await requestRollup(queue, 'p1', second * 1000 + 10, second * 1000 + 20);
    await requestRollup(queue, 'p1', second * 1000 + 990, second * 1000 + 995);
    await requestRollup(queue, 'p1', (second + 1) * 1000, (second + 1) * 1000 + 5);
    await requestRollup(queue, 'p2', second * 1000 + 10, second * 1000 + 20);
    const ids = enqueued.map((e) => e.options.id as string);
    expect(ids[0]).toBe(ids[1]);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}-1800000000$/);
    expect(ids[2]).toMatch(/-1800000001$/);
    expect(enqueued[0]).toMatchObject({ data: { postId: 'p1', runAt: (second + 1) * 1000 + ROLLUP_MARGIN_MS }, options: { scheduleDelaySeconds: 2 } });
    expect(enqueued[0].name).toMatch(/functions\/postCountsRollup$/);
  });

  it('a late ask (a trigger delivered after its second) still waits a second at least, as Cloud Tasks schedules in seconds', async () => {
    await requestRollup(queue, 'p1', 1_000, 60_000);
    expect(enqueued[0]).toMatchObject({ data: { runAt: 2_000 + ROLLUP_MARGIN_MS }, options: { scheduleDelaySeconds: 1 } });
  });

  it('refuses a payload without the document id (the queue checks it)', async () => {
    await expect(requestRollup(queue, '', 1_000, 1_000)).rejects.toThrow();
    expect(enqueued).toHaveLength(0);
  });
});

describe('runRollup', () => {
  const counter = (): ShardedCounter<'likes'> & { calls: number } => {
    const fake = {
      calls: 0,
      txAdd: () => undefined,
      read: async () => ({ likes: 0 }),
      readMany: async () => [],
      summaryIn: () => undefined,
      zeroSummary: () => ({}),
      rollUp: async () => {
        fake.calls += 1;
        return { likes: 7 };
      },
    };
    return fake;
  };
  const parent = {} as DocumentReference;

  it('an early task waits for its second to end, then rolls up', async () => {
    const c = counter();
    const slept: number[] = [];
    const result = await runRollup(c, parent, 10_250, { now: () => 9_900, sleep: async (ms) => void slept.push(ms) });
    expect(slept).toEqual([350]);
    expect(result).toEqual({ likes: 7 });
    expect(c.calls).toBe(1);
  });

  it('waits at most a second and a quarter, and not at all when due', async () => {
    const c = counter();
    const slept: number[] = [];
    await runRollup(c, parent, 100_000, { now: () => 0, sleep: async (ms) => void slept.push(ms) });
    await runRollup(c, parent, 100_000, { now: () => 100_001, sleep: async (ms) => void slept.push(ms) });
    expect(slept).toEqual([ROLLUP_WINDOW_MS + ROLLUP_MARGIN_MS]);
    expect(c.calls).toBe(2);
  });
});
