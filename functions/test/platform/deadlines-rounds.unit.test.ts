import { defineDeadline, roundDelayMs, roundPhase } from '../../src/platform/kits/deadlines/deadlines';
import { documentTaskQueue } from '../../src/platform/kits/tasks/tasks';

// The deadlines kit's rounds: a deadline armed again while nothing happens (a search finding nobody), each round's
// wait doubling from the first to a cap.
type Search = { id: string; status: 'SEARCHING' | 'FOUND'; retryAt: number };
const declare = (rounds?: { firstSec: number; maxSec: number }) =>
  defineDeadline<Search, Search['status'], 'find', 'searchId'>({
    entity: 'search',
    queue: documentTaskQueue('testSearch', 'searchId'),
    idField: 'searchId',
    taskId: (id, phase) => `search-${id}-${phase ?? 'r0'}`,
    dueAt: (s) => (s.status === 'SEARCHING' ? s.retryAt : null),
    rounds,
  });

describe('the deadlines kit’s rounds', () => {
  it('waits the first time, doubling each round up to the cap', () => {
    const rounds = { firstSec: 15, maxSec: 120 };
    expect([0, 1, 2, 3, 4, 5, 50].map((attempt) => roundDelayMs(rounds, attempt))).toEqual([15_000, 30_000, 60_000, 120_000, 120_000, 120_000, 120_000]);
    // A huge or odd attempt number stays at the cap; a negative one is the first round.
    expect([roundDelayMs(rounds, 10_000), roundDelayMs(rounds, -3), roundDelayMs(rounds, 1.7)]).toEqual([120_000, 15_000, 30_000]);
    expect(roundDelayMs({ firstSec: 10, maxSec: 25 }, 1)).toBe(20_000);
    expect(roundDelayMs({ firstSec: 10, maxSec: 25 }, 2)).toBe(25_000);
  });

  it('is asked of the declaration, which refuses it without rounds; each round is a phase of its own', () => {
    expect(declare({ firstSec: 15, maxSec: 120 }).nextRound(2)).toBe(60_000);
    expect(() => declare().nextRound(0)).toThrow(/no rounds declared/);
    expect([roundPhase(undefined), roundPhase(0), roundPhase(3)]).toEqual(['r0', 'r0', 'r3']);
  });
});
