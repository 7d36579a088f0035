import { defineMachine } from '../../src/platform/kits/state-machine/state-machine';
import { defineTaskQueue, documentTaskQueue } from '../../src/platform/kits/tasks/tasks';
import * as z from 'zod/mini';

// The deadlines kit: the declaration's pure parts, the scheduling (through platform/kits/tasks' enqueue, mocked here),
// and the task loop on a fake clock.
const mockEnqueued: unknown[][] = [];
jest.mock('../../src/platform/kits/tasks/tasks', () => ({
  ...(jest.requireActual('../../src/platform/kits/tasks/tasks') as object),
  enqueue: async (...args: unknown[]) => void mockEnqueued.push(args),
}));
const { defineDeadline, runDeadlineTask } =
  require('../../src/platform/kits/deadlines/deadlines') as typeof import('../../src/platform/kits/deadlines/deadlines');

type Hold = { id: string; status: 'HELD' | 'CONFIRMED' | 'LAPSED'; holdUntil: number; note?: string };
const holds = defineMachine<Hold['status'], 'confirm' | 'lapse', 'guest' | 'system'>({
  entity: 'hold',
  states: ['HELD', 'CONFIRMED', 'LAPSED'],
  moves: { confirm: { from: 'HELD', to: 'CONFIRMED', by: 'guest' }, lapse: { from: 'HELD', to: 'LAPSED', by: 'system' } },
  codes: { transition: 'CONFLICT', actor: 'CONFLICT' },
});
const HOLD = defineDeadline({
  entity: 'hold',
  queue: documentTaskQueue('bookingHoldExpiry', 'holdId'),
  idField: 'holdId',
  taskId: (id, phase) => `hold-${id}${phase ? `-${phase}` : ''}`,
  dueAt: (h: Hold) => (h.status === 'HELD' ? h.holdUntil : null),
  expiry: {
    machine: holds,
    action: 'lapse',
    by: 'system:hold-deadline',
    apply: (h: Hold, to: Hold['status'], at: number): Hold => ({ ...h, status: to, note: `lapsed at ${at}` }),
  },
  maxWaitMs: 2_000,
});
const held = (holdUntil: number): Hold => ({ id: 'h1', status: 'HELD', holdUntil });

describe('platform/kits/deadlines: the declaration', () => {
  it('is due from its due time on, and never in a status without a deadline', () => {
    expect([HOLD.isDue(held(1_000), 999), HOLD.isDue(held(1_000), 1_000)]).toEqual([false, true]);
    expect(HOLD.isDue({ ...held(1_000), status: 'CONFIRMED' }, 5_000)).toBe(false);
  });

  it('the lazy check on read expires a due entity by the declared move, and leaves others as they are', () => {
    expect(HOLD.settle(held(1_000), 1_500)).toEqual({ entity: { ...held(1_000), status: 'LAPSED', note: 'lapsed at 1500' }, expired: true });
    expect(HOLD.settle(held(2_000), 1_500)).toEqual({ entity: held(2_000), expired: false });
    const confirmed: Hold = { ...held(1_000), status: 'CONFIRMED' };
    expect(HOLD.settle(confirmed, 9_000)).toEqual({ entity: confirmed, expired: false });
  });

  it('gives transition its deadline: the due time, the expiry action, who expires and the expired entity', () => {
    const expiry = HOLD.expiry();
    expect([expiry.action, expiry.by, expiry.dueAt(held(7))]).toEqual(['lapse', 'system:hold-deadline', 7]);
    expect(expiry.apply(held(7), 'LAPSED', 9).note).toBe('lapsed at 9');
  });

  it('a deadline declared without an expiry move refuses to make one up', () => {
    const bare = defineDeadline({
      entity: 'x',
      queue: documentTaskQueue('xExpiry', 'xId'),
      idField: 'xId',
      taskId: (id) => id,
      dueAt: (h: Hold) => h.holdUntil,
    });
    expect(() => bare.expiry()).toThrow(/no expiry move/);
  });
});

describe('platform/kits/deadlines: scheduling', () => {
  beforeEach(() => (mockEnqueued.length = 0));

  it('its scheduler enqueues on its queue, with the entity id as payload, the task id for dedup and the delay', async () => {
    await HOLD.scheduler.schedule('h9', 42, 'second');
    expect(mockEnqueued).toEqual([[HOLD.spec.queue, { holdId: 'h9' }, { id: 'hold-h9-second', delaySec: 42 }]]);
  });

  it('arm asks for the task at the due time (whole seconds, at least one), and not at all without a deadline', async () => {
    const asked: Array<[string, number, string | undefined]> = [];
    const scheduler = { schedule: async (id: string, delaySec: number, phase?: string) => void asked.push([id, delaySec, phase]) };
    await HOLD.arm(scheduler, held(31_200), 1_000);
    await HOLD.arm(scheduler, held(500), 1_000, 'late');
    await HOLD.arm(scheduler, { ...held(9_000), status: 'CONFIRMED' }, 1_000);
    expect(asked).toEqual([
      ['h1', 31, undefined],
      ['h1', 1, 'late'],
    ]);
  });

  it('payloadOf: arm hands the scheduler the payload of the entity (and the scheduler enqueues it as given)', async () => {
    const PAIR = defineDeadline({
      entity: 'pair',
      queue: defineTaskQueue('pairCheck', z.object({ holdId: z.string(), ownerId: z.string() })),
      idField: 'holdId',
      payloadOf: (h: Hold & { ownerId: string }) => ({ holdId: h.id, ownerId: h.ownerId }),
      taskId: (id) => `pair-${id}`,
      dueAt: (h) => h.holdUntil,
    });
    const asked: unknown[][] = [];
    await PAIR.arm({ schedule: async (...args: unknown[]) => void asked.push(args) }, { ...held(11_000), ownerId: 'o1' }, 1_000);
    expect(asked).toEqual([['h1', 10, undefined, { holdId: 'h1', ownerId: 'o1' }]]);
    await PAIR.scheduler.schedule('h2', 5, undefined, { holdId: 'h2', ownerId: 'o2' });
    expect(mockEnqueued).toEqual([[PAIR.spec.queue, { holdId: 'h2', ownerId: 'o2' }, { id: 'pair-h2', delaySec: 5 }]]);
  });

  it('a scheduler that fails does not fail the caller: the lazy check covers a task never queued', async () => {
    await expect(HOLD.arm({ schedule: async () => Promise.reject(new Error('queue down')) }, held(5_000), 1_000)).resolves.toBeUndefined();
  });
});

describe('platform/kits/deadlines: the task', () => {
  // A fake clock: sleeping moves it on; `stored` says what the entity is at a given time.
  function clock(stored: (t: number) => Hold | undefined) {
    let t = 10_000;
    const expired: number[] = [];
    const deps = {
      now: () => t,
      sleep: async (ms: number) => void (t += ms),
      load: async () => stored(t),
      expire: async () => void expired.push(t),
    };
    return { deps, expired, start: t };
  }

  it('delivered early within its wait, waits for the due time and expires once, never before it', async () => {
    const c = clock(() => held(11_200));
    expect(await HOLD.run('h1', c.deps)).toBe('expired');
    expect(c.expired).toEqual([11_200]);
  });

  it('further off than its wait, asks the queue to retry later without expiring', async () => {
    const c = clock(() => held(20_000));
    await expect(HOLD.run('h1', c.deps)).rejects.toThrow('hold h1 is not due yet (in 10 s): retry later');
    expect(c.expired).toEqual([]);
  });

  it('an entity settled meanwhile (or gone) frees the worker at once: nothing to expire', async () => {
    const c = clock((t) => (t < 10_500 ? held(11_500) : { ...held(11_500), status: 'CONFIRMED' }));
    expect(await HOLD.run('h1', c.deps)).toBe('settled');
    expect(await HOLD.run('h1', clock(() => undefined).deps)).toBe('settled');
    expect(c.expired).toEqual([]);
  });

  it('a repeated delivery after the expiry finds nothing due', async () => {
    let state: Hold = held(5_000);
    const c = clock(() => state);
    c.deps.expire = async () => void (state = { ...state, status: 'LAPSED' });
    expect([await HOLD.run('h1', c.deps), await HOLD.run('h1', c.deps)]).toEqual(['expired', 'settled']);
  });

  it('the loop without a declaration: no wait allowed means an early task fails at once (the queue backs off)', async () => {
    await expect(runDeadlineTask('p1', { dueOf: async () => Date.now() + 60_000, expire: async () => undefined, name: 'payment' })).rejects.toThrow(
      /payment p1 is not due yet/,
    );
  });
});
