// The transition kit's `beside` read: started once before the transaction, awaited in its read step, never the cause
// of another attempt. The kit's own transaction is a stand-in that, like the Firestore SDK (transaction.ts,
// isRetryableTransactionError), runs the function again after an error carrying a retryable gRPC code (CANCELLED 1,
// UNKNOWN 2, DEADLINE_EXCEEDED 4, RESOURCE_EXHAUSTED 8, ABORTED 10, INTERNAL 13, UNAVAILABLE 14, UNAUTHENTICATED 16)
// and gives up on any other error; 5 attempts here (the project's inTransaction allows 25).
const attempts: number[] = [];
jest.mock('../../src/platform/core/firebase/firebase', () => ({
  inTransaction: async (fn: (tx: unknown) => Promise<unknown>) => {
    const retryable = new Set([1, 2, 4, 8, 10, 13, 14, 16]);
    for (let attempt = 1; ; attempt++) {
      attempts.push(attempt);
      try {
        return await fn({ create: () => undefined });
      } catch (err) {
        if (attempt === 5 || !retryable.has((err as { code?: number }).code ?? -1)) throw err;
      }
    }
  },
}));

import { defineMachine, transition, type TransitionStore } from '../../src/platform/kits/state-machine/state-machine';

type Status = 'NEW' | 'TAKEN';
type Item = { id: string; status: Status; card?: string | null };
const machine = defineMachine<Status, 'take', 'system'>({
  entity: 'item',
  states: ['NEW', 'TAKEN'],
  moves: { take: { from: 'NEW', to: 'TAKEN', by: 'system' } },
  codes: { transition: 'CALL_TRANSITION', actor: 'CALL_NOT_ALLOWED' },
});

function store(log: string[], saved: Item[], stored: Item | null = { id: 'i1', status: 'NEW' }): TransitionStore<Item, Status, 'take'> {
  const ref = { collection: () => ({ doc: () => ({ id: 'e' }) }) } as unknown as FirebaseFirestore.DocumentReference;
  return {
    load: async () => (log.push('load'), stored ?? undefined),
    save: (_tx, next) => void (log.push('save'), saved.push(next)),
    ref: () => ref,
  };
}

const base = { action: 'take' as const, by: 'system:test', now: 1, rolesOf: (): Array<'system'> => ['system'], missing: () => new Error('missing') };

describe('platform/kits/state-machine transition: a read beside the transaction', () => {
  beforeEach(() => (attempts.length = 0));

  it('starts before the entity is read, and its answer reaches the read step, guard and apply', async () => {
    const log: string[] = [];
    const saved: Item[] = [];
    let answer!: (card: string) => void;
    const moved = transition(machine, store(log, saved), {
      ...base,
      beside: () => (log.push('beside'), new Promise<string>((resolve) => (answer = resolve))),
      read: async (_tx, _item, card) => ({ card: await card }),
      guard: (_item, related) => void log.push(`guard ${related.card}`),
      apply: (item, to, related) => ({ ...item, status: to, card: related.card }),
    });
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['beside', 'load']); // the transaction waits in its read step for the card
    answer('card-1');
    const result = await moved;
    expect(log).toEqual(['beside', 'load', 'guard card-1', 'save']);
    expect(result.after).toEqual({ id: 'i1', status: 'TAKEN', card: 'card-1' });
    expect(saved).toHaveLength(1);
  });

  it('a failed read fails the move with its own error, once: not another attempt of the transaction, nothing saved', async () => {
    const log: string[] = [];
    const saved: Item[] = [];
    let reads = 0;
    const unavailable = Object.assign(new Error('14 UNAVAILABLE: the card could not be read'), { code: 14 });
    await expect(
      transition(machine, store(log, saved), {
        ...base,
        beside: async () => {
          reads += 1;
          throw unavailable;
        },
        read: async (_tx, _item, card) => ({ card: await card }),
        apply: (item, to) => ({ ...item, status: to }),
      }),
    ).rejects.toBe(unavailable);
    // Unwrapped, the same error's retryable code would have made the stand-in (as the SDK) run the transaction 5 times.
    expect({ attempts, reads, saved }).toEqual({ attempts: [1], reads: 1, saved: [] });
  });

  it('fails the move even when the read step does not await it', async () => {
    const saved: Item[] = [];
    const gone = new Error('no card');
    await expect(
      transition(machine, store([], saved), {
        ...base,
        beside: async () => {
          throw gone;
        },
        read: async () => ({}),
        apply: (item, to) => ({ ...item, status: to }),
      }),
    ).rejects.toBe(gone);
    expect(saved).toEqual([]);
  });

  it('a transaction retried for its own reasons reuses the answer read once', async () => {
    const saved: Item[] = [];
    let reads = 0;
    let conflicts = 1;
    const result = await transition(machine, store([], saved), {
      ...base,
      beside: async () => `card-${++reads}`,
      read: async (_tx, _item, card) => {
        const value = await card;
        if (conflicts-- > 0) throw Object.assign(new Error('10 ABORTED'), { code: 10 });
        return { card: value };
      },
      apply: (item, to, related) => ({ ...item, status: to, card: related.card }),
    });
    expect({ attempts, reads, card: result.after.card }).toEqual({ attempts: [1, 2], reads: 1, card: 'card-1' });
  });

  it("a missing entity is the move's answer, and the read beside it failing meanwhile goes nowhere (nothing unhandled)", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(
        transition(machine, store([], [], null), {
          ...base,
          beside: async () => {
            throw new Error('no card');
          },
          read: async (_tx, _item, card) => ({ card: await card }),
          apply: (item, to) => ({ ...item, status: to }),
        }),
      ).rejects.toThrow('missing');
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("is refused in a caller's transaction, before anything is read", async () => {
    const log: string[] = [];
    let reads = 0;
    const tx = { create: () => undefined } as unknown as FirebaseFirestore.Transaction;
    await expect(
      transition(machine, store(log, []), { ...base, beside: async () => ++reads, read: async () => ({}), apply: (item, to) => ({ ...item, status: to }) }, tx),
    ).rejects.toThrow("`beside` runs in the kit's own transaction only");
    expect({ log, reads }).toEqual({ log: [], reads: 0 });
  });
});
