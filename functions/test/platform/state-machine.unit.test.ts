import { AppError } from '../../src/platform/core/errors/app-error';
import { defineMachine, EVENTS } from '../../src/platform/kits/state-machine/state-machine';

const door = defineMachine({
  entity: 'door',
  states: ['OPEN', 'CLOSED', 'LOCKED'] as const,
  moves: {
    close: { from: 'OPEN', to: 'CLOSED', by: ['guest', 'owner'] },
    open: { from: 'CLOSED', to: 'OPEN', by: ['guest', 'owner'] },
    lock: { from: ['OPEN', 'CLOSED'], to: 'LOCKED', by: 'owner' },
    unlock: { from: 'LOCKED', to: 'CLOSED', by: 'owner' },
  },
  codes: { transition: 'CALL_TRANSITION', actor: 'CALL_NOT_ALLOWED' },
});

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a throw');
};

describe('platform/kits/state-machine', () => {
  it('moves by the table: several from-states, role lists', () => {
    expect(door.check('lock', 'OPEN', ['owner'])).toBe('LOCKED');
    expect(door.check('lock', 'CLOSED', ['owner'])).toBe('LOCKED');
    expect(door.check('close', 'OPEN', ['guest'])).toBe('CLOSED');
    expect(door.target('unlock')).toBe('CLOSED');
  });

  it('refuses an actor without the role with the actor code, before looking at the status', () => {
    const err = errorOf(() => door.check('lock', 'LOCKED', ['guest']));
    expect([err.statusCode, err.code]).toEqual([409, 'CALL_NOT_ALLOWED']);
  });

  it('refuses a move from a wrong status with the transition code and the actions that remain', () => {
    const err = errorOf(() => door.check('open', 'LOCKED', ['owner']));
    expect([err.statusCode, err.code]).toEqual([409, 'CALL_TRANSITION']);
    expect(err.details).toEqual({ status: 'LOCKED', allowed: ['unlock'] });
  });

  it('lists the actions an actor may take', () => {
    expect(door.allowed('OPEN', ['guest'])).toEqual(['close']);
    expect(door.allowed('OPEN', ['owner'])).toEqual(['close', 'lock']);
    expect(door.allowed('LOCKED', ['guest'])).toEqual([]);
    expect(door.can('unlock', 'LOCKED', ['owner'])).toBe(true);
  });

  it('rejects a table naming an unknown status at definition time', () => {
    expect(() =>
      defineMachine({
        entity: 'x',
        states: ['A'] as const,
        moves: { go: { from: 'A', to: 'B' as 'A', by: 'r' } },
        codes: { transition: 'CONFLICT', actor: 'CONFLICT' },
      }),
    ).toThrow(/unknown status B/);
  });
});

// `transition` runs in the caller's transaction when given one: a fake transaction records the writes, so every path
// (related reads, lazy expiry, tolerant mode) is checked without the emulator.
describe('platform/kits/state-machine transition', () => {
  const { transition, TransitionEventSchema, readHistory } =
    require('../../src/platform/kits/state-machine/state-machine') as typeof import('../../src/platform/kits/state-machine/state-machine');
  type Request = import('../../src/platform/kits/state-machine/state-machine').TransitionRequest<Call, Status, Action, Role, unknown>;

  type Status = 'RINGING' | 'ACTIVE' | 'ENDED' | 'MISSED';
  type Action = 'answer' | 'end' | 'timeout';
  type Role = 'callee' | 'system';
  type Call = { id: string; status: Status; dueAt: number; callee: string; note?: string; endedAt?: number };
  const calls = defineMachine<Status, Action, Role>({
    entity: 'call',
    states: ['RINGING', 'ACTIVE', 'ENDED', 'MISSED'],
    moves: {
      answer: { from: 'RINGING', to: 'ACTIVE', by: 'callee' },
      end: { from: 'ACTIVE', to: 'ENDED', by: 'callee' },
      timeout: { from: 'RINGING', to: 'MISSED', by: 'system' },
    },
    codes: { transition: 'CALL_TRANSITION', actor: 'CALL_NOT_ALLOWED' },
  });
  const deadline = {
    dueAt: (c: Call) => (c.status === 'RINGING' ? c.dueAt : null),
    action: 'timeout' as const,
    by: 'system:deadline',
    apply: (c: Call, _to: Status, at: number) => ({ ...c, endedAt: at }),
  };

  function harness(stored: Call | undefined) {
    const log: string[] = [];
    const events: Array<Record<string, unknown>> = [];
    const saved: Call[] = [];
    const ref = { collection: () => ({ doc: () => ({ id: 'e' }) }) } as unknown as FirebaseFirestore.DocumentReference;
    const tx = { create: (_ref: unknown, event: Record<string, unknown>) => void events.push(event) } as unknown as FirebaseFirestore.Transaction;
    const store = {
      load: async () => (log.push('load'), stored),
      save: (_tx: unknown, next: Call) => void (log.push('save'), saved.push(next)),
      ref: () => ref,
      alongside: () => void log.push('alongside'),
    };
    return { log, events, saved, tx, store };
  }
  const request = (action: Action, over: Partial<Request> = {}): Request => ({
    action,
    by: action === 'timeout' ? 'system:task' : 'u2',
    now: 1_000,
    rolesOf: (c: Call): Role[] => (action === 'timeout' ? ['system'] : c.callee === 'u2' ? ['callee'] : []),
    apply: (c: Call, to: Status) => ({ ...c, status: to }),
    missing: () => new Error('missing'),
    ...over,
  });
  const ringing = (dueAt: number): Call => ({ id: 'c1', status: 'RINGING', dueAt, callee: 'u2' });

  it('reads related documents in the transaction before any check or write, and hands them to roles, guard and apply', async () => {
    const h = harness(ringing(5_000));
    const seen: unknown[] = [];
    const result = await transition(
      calls,
      h.store,
      request('answer', {
        read: async () => (h.log.push('read'), { line: 'busy' }),
        rolesOf: (_c: Call, related: unknown): Role[] => (seen.push(related), ['callee']),
        guard: (_c: Call, related: unknown) => void (h.log.push('guard'), seen.push(related)),
        apply: (c: Call, to: Status, related: unknown) => ({ ...c, status: to, note: (related as { line: string }).line }),
      }),
      h.tx,
    );
    expect(h.log).toEqual(['load', 'read', 'guard', 'alongside', 'save']);
    expect(seen).toEqual([{ line: 'busy' }, { line: 'busy' }]);
    expect(result).toMatchObject({ changed: true, expired: false, after: { status: 'ACTIVE', note: 'busy' } });
    expect(h.events).toEqual([{ action: 'answer', from: 'RINGING', to: 'ACTIVE', by: 'u2', at: 1_000 }]);
  });

  it('a guard that refuses stops the move before any write', async () => {
    const h = harness(ringing(5_000));
    const blocked = Object.assign(new Error('blocked'), { code: 'CHAT_BLOCKED' });
    await expect(
      transition(
        calls,
        h.store,
        request('answer', {
          guard: () => {
            throw blocked;
          },
        }),
        h.tx,
      ),
    ).rejects.toBe(blocked);
    expect([h.saved, h.events]).toEqual([[], []]);
  });

  it('hides an entity the actor may not see as missing, and refuses an actor without the role before the status', async () => {
    await expect(transition(calls, harness(ringing(5_000)).store, request('answer', { visible: () => false }), harness(undefined).tx)).rejects.toThrow(
      'missing',
    );
    await expect(transition(calls, harness(undefined).store, request('answer'), harness(undefined).tx)).rejects.toThrow('missing');
    const h = harness({ ...ringing(5_000), status: 'ENDED', callee: 'u3' });
    await expect(transition(calls, h.store, request('answer'), h.tx)).rejects.toMatchObject({ code: 'CALL_NOT_ALLOWED' });
  });

  it('past its deadline the entity is expired first: the expiry is written, then the move is refused as the machine says', async () => {
    const h = harness(ringing(900));
    const err = (await transition(calls, h.store, request('answer', { deadline }), h.tx).then(
      () => undefined,
      (e: unknown) => e,
    )) as AppError;
    expect([err.statusCode, err.code, err.details]).toEqual([409, 'CALL_TRANSITION', { status: 'MISSED', allowed: [] }]);
    expect(h.saved).toEqual([{ ...ringing(900), status: 'MISSED', endedAt: 1_000 }]);
    expect(h.events).toEqual([{ action: 'timeout', from: 'RINGING', to: 'MISSED', by: 'system:deadline', at: 1_000 }]);
  });

  it('the expiry action itself, past the deadline, is the lazy expiry (one event, by the deadline)', async () => {
    const h = harness(ringing(1_000));
    const result = await transition(calls, h.store, request('timeout', { deadline }), h.tx);
    expect(result).toMatchObject({ changed: true, expired: true, after: { status: 'MISSED', endedAt: 1_000 } });
    expect(h.events.map((e) => e.by)).toEqual(['system:deadline']);
  });

  it('before the deadline nothing expires: the move runs as usual', async () => {
    const h = harness(ringing(1_001));
    expect(await transition(calls, h.store, request('answer', { deadline }), h.tx)).toMatchObject({
      changed: true,
      expired: false,
      after: { status: 'ACTIVE' },
    });
    expect(h.events.map((e) => e.action)).toEqual(['answer']);
  });

  it('the expiry action before the due time changes nothing: tolerant answers changed: false, otherwise 409', async () => {
    const h = harness(ringing(5_000));
    expect(await transition(calls, h.store, request('timeout', { deadline, tolerant: 'refused' }), h.tx)).toMatchObject({
      changed: false,
      expired: false,
      after: { status: 'RINGING' },
    });
    await expect(transition(calls, h.store, request('timeout', { deadline }), h.tx)).rejects.toMatchObject({ code: 'CALL_TRANSITION' });
    expect([h.saved, h.events]).toEqual([[], []]);
  });

  it("a guard refusing after a lazy expiry: the expiry stands (written), the guard's error is thrown", async () => {
    const h = harness(ringing(900));
    const blocked = new Error('blocked');
    const outcome = await transition(
      calls,
      h.store,
      request('answer', {
        deadline,
        guard: () => {
          throw blocked;
        },
      }),
      h.tx,
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(outcome).toBe(blocked);
    expect(h.saved.map((c) => c.status)).toEqual(['MISSED']);
    expect(h.events.map((e) => e.action)).toEqual(['timeout']);
  });

  it("the expiry's own work runs before its write, on the expiry path and before a following move's", async () => {
    const h = harness(ringing(900));
    const withWork = { ...deadline, alongside: () => void h.log.push('expiry work') };
    await transition(calls, h.store, request('timeout', { deadline: withWork }), h.tx);
    expect(h.log).toEqual(['load', 'expiry work', 'save']);
  });

  it('an expiry followed by a move the expired status allows writes the entity once and both events', async () => {
    const resume = defineMachine<Status, Action, Role>({
      ...calls.definition,
      moves: { ...calls.definition.moves, end: { from: ['ACTIVE', 'MISSED'], to: 'ENDED', by: 'callee' } },
    });
    const h = harness(ringing(500));
    const result = await transition(resume, h.store, request('end', { deadline }), h.tx);
    expect(result).toMatchObject({ changed: true, expired: true, after: { status: 'ENDED', endedAt: 1_000 } });
    expect(h.saved).toHaveLength(1);
    expect(h.events.map((e) => `${e.from}→${e.to}`)).toEqual(['RINGING→MISSED', 'MISSED→ENDED']);
  });

  it("tolerant 'target': already in the target status is changed: false with no write; another status is still 409", async () => {
    const there = harness({ ...ringing(5_000), status: 'ACTIVE' });
    expect(await transition(calls, there.store, request('answer', { tolerant: 'target' }), there.tx)).toMatchObject({
      changed: false,
      expired: false,
      after: { status: 'ACTIVE' },
    });
    expect([there.saved, there.events]).toEqual([[], []]);
    const elsewhere = harness({ ...ringing(5_000), status: 'ENDED' });
    await expect(transition(calls, elsewhere.store, request('answer', { tolerant: 'target' }), elsewhere.tx)).rejects.toMatchObject({
      code: 'CALL_TRANSITION',
    });
  });

  it("tolerant 'refused': any status that refuses the move is changed: false; an actor without the role is still refused", async () => {
    const ended = harness({ ...ringing(5_000), status: 'ENDED' });
    expect(await transition(calls, ended.store, request('timeout', { tolerant: 'refused' }), ended.tx)).toMatchObject({ changed: false });
    expect(ended.events).toEqual([]);
    const stranger = harness({ ...ringing(5_000), status: 'ENDED', callee: 'u3' });
    await expect(transition(calls, stranger.store, request('end', { tolerant: 'refused' }), stranger.tx)).rejects.toMatchObject({ code: 'CALL_NOT_ALLOWED' });
  });

  it('a tolerant move after a lazy expiry keeps the expiry and reports it', async () => {
    const h = harness(ringing(10));
    expect(await transition(calls, h.store, request('answer', { deadline, tolerant: 'refused' }), h.tx)).toMatchObject({
      changed: false,
      expired: true,
      after: { status: 'MISSED' },
    });
    expect(h.events.map((e) => e.action)).toEqual(['timeout']);
  });

  it('accepts says whether an action leaves a status, whoever acts', () => {
    expect([calls.accepts('timeout', 'RINGING'), calls.accepts('timeout', 'ACTIVE')]).toEqual([true, false]);
  });

  it('one event schema: a stored line parses (reason optional or null), a malformed one does not', () => {
    expect(TransitionEventSchema.parse({ action: 'answer', from: 'RINGING', to: 'ACTIVE', by: 'u2', at: 1, extra: 1 })).toEqual({
      action: 'answer',
      from: 'RINGING',
      to: 'ACTIVE',
      by: 'u2',
      at: 1,
    });
    expect(TransitionEventSchema.parse({ action: 'a', from: 'A', to: 'B', by: 'system:x', at: 2, reason: null }).reason).toBeNull();
    expect(() => TransitionEventSchema.parse({ action: 'a', from: 'A', to: 'B', at: '2020' })).toThrow();
  });

  it('the history reader reads the events subcollection in the order asked, checked by the schema', async () => {
    const asked: unknown[] = [];
    const docs = [{ data: () => ({ action: 'answer', from: 'RINGING', to: 'ACTIVE', by: 'u2', at: 1 }) }];
    const query = {
      orderBy(...a: unknown[]) {
        asked.push(['orderBy', ...a]);
        return this;
      },
      limit(n: number) {
        asked.push(['limit', n]);
        return this;
      },
      get: async () => ({ docs }),
    };
    const ref = { collection: (name: string) => (asked.push(['collection', name]), query) } as unknown as FirebaseFirestore.DocumentReference;
    expect(await readHistory<Status, Action>(ref, { order: 'desc', limit: 5 })).toEqual([{ action: 'answer', from: 'RINGING', to: 'ACTIVE', by: 'u2', at: 1 }]);
    expect(asked).toEqual([
      ['collection', EVENTS],
      ['orderBy', 'at', 'desc'],
      ['limit', 5],
    ]);
    // A line that is not an event is left out, not a failure of the whole history.
    docs.push({ data: () => ({ action: 'x' }) as never, ref: { path: 'calls/c1/events/bad' } } as never);
    expect(await readHistory<Status, Action>(ref)).toHaveLength(1);
  });
});
