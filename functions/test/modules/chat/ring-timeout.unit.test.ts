import type { CallRecord } from '../../../src/modules/chat/calls.model';
import { handleRingTimeout } from '../../../src/modules/chat/calls.tasks';

// A fake clock: sleeping moves it forward; `ringing` says what the call document holds at a given time.
function harness(ringing: (t: number) => number | undefined) {
  let t = 1_000_000;
  const checks: number[] = [];
  const settled: string[] = [];
  const deps = {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    load: async () => {
      checks.push(t);
      const until = ringing(t);
      return until === undefined ? undefined : ({ status: 'RINGING', ringExpiresAt: until } as CallRecord);
    },
    settle: async (id: string) => {
      settled.push(id);
      return { status: 'MISSED' };
    },
  };
  return { deps, checks, settled, start: t };
}

describe('ring timeout task', () => {
  it('delivered early, waits for the deadline and settles once', async () => {
    const h = harness(() => 1_000_000 + 3_000);
    expect(await handleRingTimeout('c1', h.deps)).toBe('settled');
    expect(h.settled).toEqual(['c1']);
    expect(h.checks.at(-1)).toBe(h.start + 3_000);
  });

  it('stops waiting as soon as the call is answered or cancelled, without settling it', async () => {
    const h = harness((t) => (t < 1_000_000 + 1_000 ? 1_000_000 + 30_000 : undefined));
    expect(await handleRingTimeout('c2', h.deps)).toBe('already-settled');
    expect(h.settled).toEqual([]);
    expect(h.checks.at(-1)! - h.start).toBeLessThanOrEqual(1_000);
  });

  it('never settles before the deadline: a ring too far off fails so the queue retries later', async () => {
    const h = harness(() => 1_000_000 + 100_000);
    await expect(handleRingTimeout('c3', h.deps)).rejects.toThrow(/retry later/);
    expect(h.settled).toEqual([]);
  });

  it('a call already settled or unknown needs nothing', async () => {
    const h = harness(() => undefined);
    expect(await handleRingTimeout('c4', h.deps)).toBe('already-settled');
    expect(h.checks).toHaveLength(1);
  });
});

describe('missed-call trigger: which writes notify', () => {
  const { missedCallOf } = require('../../../src/modules/chat/calls.triggers') as typeof import('../../../src/modules/chat/calls.triggers');
  const base = {
    id: 'c1',
    callerId: 'a',
    calleeId: 'b',
    participants: ['a', 'b'],
    type: 'audio',
    conversationId: null,
    endedBy: null,
    ringExpiresAt: 1,
    createdAt: 1,
    answeredAt: null,
    endedAt: null,
    updatedAt: 1,
  } as const;
  const call = (status: string, endReason: string | null = null) => ({ ...base, status, endReason }) as never;

  it('RINGING → MISSED and a call created DECLINED for a busy callee notify; nothing else does', () => {
    expect(missedCallOf(call('RINGING'), call('MISSED', 'no_answer'))).toBeDefined();
    expect(missedCallOf(undefined, call('DECLINED', 'busy'))).toBeDefined();
    expect(missedCallOf(call('MISSED', 'no_answer'), call('MISSED', 'no_answer'))).toBeUndefined(); // a rewrite, no change
    expect(missedCallOf(call('RINGING'), call('DECLINED', 'declined'))).toBeUndefined();
    expect(missedCallOf(call('RINGING'), call('ACTIVE'))).toBeUndefined();
    expect(missedCallOf(call('MISSED', 'no_answer'), undefined)).toBeUndefined();
  });
});
