import { setLogLevel } from 'firebase/firestore';
import { createCallsService } from '../../../src/modules/chat/calls.service';
import { onCallWritten } from '../../../src/modules/chat/calls.triggers';
import { createHub } from '../../../src/modules/notifications/hub';
import { outboxTransport } from '../../../src/platform/core/push/transport';
import { db } from '../../../src/platform/core/firebase/firebase';
import { readHistory } from '../../../src/platform/kits/state-machine/state-machine';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { CALLS } from '../../../src/modules/chat/chat.collections';
import { inboxPage, inboxOf, realtimeOf } from '../../helpers/notifications';

// The ring timeout and its task (split from calls.test.ts: these wait on 10-s rings, so they run beside it).
beforeAll(requireEmulators);
setLogLevel('error');

const start = (caller: Tokens, callee: Tokens, extra: Record<string, unknown> = {}) =>
  call('POST', '/chat/calls', { token: caller.accessToken, body: { calleeId: callee.user.id, ...extra } });
const act = (who: Tokens, id: string, action: string) => call('POST', `/chat/calls/${id}/${action}`, { token: who.accessToken });
// The callee's CALL_MISSED items once the trigger has run (at least one), after a pause that would let a
// duplicate show up.
async function missedNoticesSettle(calleeId: string): Promise<string[]> {
  const read = async () => (await inboxOf(calleeId, { kind: 'CALL_MISSED' })).map((item) => item.entityId as string);
  await waitFor(async () => ((await read()).length > 0 ? true : undefined));
  await new Promise((r) => setTimeout(r, 1500));
  return read();
}

describe('the ring timeout', () => {
  it('no answer: the ring timeout makes it MISSED with CALL_MISSED and call:ended for the callee', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const ringing = (await start(a, b)).body;
    const missed = await waitFor(async () => (await inboxPage(b)).find((i) => i.kind === 'CALL_MISSED' && i.entityId === ringing.id));
    expect(missed.event).toBe('call.missed');
    expect((await call('GET', '/chat/calls', { token: a.accessToken })).body.calls[0]).toMatchObject({
      id: ringing.id,
      status: 'MISSED',
      endReason: 'no_answer',
    });
    const ended = (await realtimeOf(b.user.id)).find((e) => e.type === 'call:ended');
    expect(ended?.payload).toMatchObject({ event: 'call.missed', entityId: ringing.id, sfx: 'call_missed' });
    expect((await act(b, ringing.id, 'answer')).status).toBe(409);
  });
});

describe('many unanswered rings on the emulator stack', () => {
  // The Tasks emulator delivers ring tasks at once and each waits in a Functions worker until its deadline.
  // Were they not capped, eight waiting rings would hold all eight worker slots and stall the API until
  // the first ring ran out.
  it('eight rings waiting do not stall the API: a ninth call is started and answered while they still ring; all eight then end MISSED', async () => {
    const people = await Promise.all(Array.from({ length: 18 }, () => registerVerified()));
    const pairs = Array.from({ length: 9 }, (_, i) => [people[2 * i], people[2 * i + 1]] as const);
    const waiting = (await Promise.all(pairs.slice(0, 8).map(([caller, callee]) => start(caller, callee)))).map((r) => r.body.id as string);
    await new Promise((r) => setTimeout(r, 2500)); // the Tasks emulator hands out queued tasks once a second
    const [caller, callee] = pairs[8];
    const ninth = (await start(caller, callee)).body;
    expect((await act(callee, ninth.id, 'answer')).body.status).toBe('ACTIVE');
    const statuses = async () => (await db().getAll(...waiting.map((id) => db().collection(CALLS).doc(id)))).map((d) => d.get('status') as string);
    expect(await statuses()).toEqual(Array(8).fill('RINGING'));
    await waitFor(async () => ((await statuses()).every((s) => s === 'MISSED') ? true : undefined));
    await act(caller, ninth.id, 'end');
  }, 120_000);
});

describe('the ring timeout task', () => {
  it('a duplicate delivery settles the call once and notifies once', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    let now = Date.now();
    const service = createCallsService({
      hub: createHub({ transport: outboxTransport() }),
      scheduler: { schedule: async () => undefined },
      ringTimeoutSec: 30,
      now: () => now,
    });
    const ringing = await service.start(a.user.id, { calleeId: b.user.id, type: 'audio' });
    now += 31_000;
    const results = await Promise.all([service.timeout(ringing.id), service.timeout(ringing.id)]);
    expect(results.map((r) => r.status)).toEqual(['MISSED', 'MISSED']);
    expect(await missedNoticesSettle(b.user.id)).toEqual([ringing.id]);
  });

  // In-process with a long ring: the emulator settles the crossing transactions' lock conflict by a
  // timeout of a few seconds, and the ring timeout must not join that race.
  it('a failing ring push does not stop the ring timeout; a failing hub on the missed notice is retried and notifies exactly once', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const realHub = createHub({ transport: outboxTransport() });
    const scheduled: string[] = [];
    let now = Date.now();
    // The hub's push fails after the ring committed.
    const failingPushHub = {
      ...realHub,
      dispatchInTransaction: (tx: Parameters<typeof realHub.dispatchInTransaction>[0], input: Parameters<typeof realHub.dispatchInTransaction>[1]) => {
        realHub.dispatchInTransaction(tx, input);
        return async () => {
          throw new Error('FCM unavailable');
        };
      },
    };
    const service = createCallsService({
      hub: failingPushHub,
      scheduler: { schedule: async (id) => void scheduled.push(id) },
      ringTimeoutSec: 30,
      now: () => now,
    });
    const ringing = await service.start(a.user.id, { calleeId: b.user.id, type: 'audio' });
    expect(ringing.status).toBe('RINGING');
    expect(scheduled).toEqual([ringing.id]);

    now += 31_000;
    expect((await service.timeout(ringing.id)).status).toBe('MISSED');
    // The trigger's work, delivered three times by hand, the first with a hub that fails once.
    const stored = (await db().collection(CALLS).doc(ringing.id).get()).data();
    type Change = Parameters<typeof onCallWritten>[0];
    const change = { before: { ...stored, status: 'RINGING', id: ringing.id }, after: { ...stored, id: ringing.id } } as Change;
    let failures = 0;
    const flakyHub = {
      dispatch: async (input: Parameters<typeof realHub.dispatch>[0]) => {
        if (failures++ === 0) throw new Error('Firestore unavailable');
        return realHub.dispatch(input);
      },
    };
    await expect(onCallWritten(change, flakyHub)).rejects.toThrow('Firestore unavailable');
    expect(['notified', 'duplicate']).toContain(await onCallWritten(change, flakyHub));
    expect(await onCallWritten(change, flakyHub)).toBe('duplicate');
    expect(await missedNoticesSettle(b.user.id)).toEqual([ringing.id]);
    expect(await onCallWritten({ before: change.before, after: change.before }, flakyHub)).toBe('ignored');
  });

  it('two people calling each other at once: one call rings, the other caller gets 409', async () => {
    const service = createCallsService({
      hub: createHub({ transport: outboxTransport() }),
      scheduler: { schedule: async () => undefined },
      ringTimeoutSec: 60,
    });
    for (let round = 0; round < 2; round += 1) {
      const [a, b] = [await registerVerified(), await registerVerified()];
      const results = await Promise.allSettled([
        service.start(a.user.id, { calleeId: b.user.id, type: 'audio' }),
        service.start(b.user.id, { calleeId: a.user.id, type: 'audio' }),
      ]);
      const rang = results.filter((r) => r.status === 'fulfilled');
      expect(rang).toHaveLength(1);
      expect((rang[0] as PromiseFulfilledResult<{ status: string }>).value.status).toBe('RINGING');
      expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ statusCode: 409 });
      expect((await db().collection(CALLS).where('participants', 'array-contains', a.user.id).get()).size).toBe(1);
    }
  });

  // The state-machine kit's lazy expiry in a real transaction: the refusal is thrown after the commit, so the expiry stays.
  it('answering a ring past its deadline is 409, and the MISSED it found is stored with its one event; the late task adds nothing', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    let now = Date.now();
    const service = createCallsService({
      hub: createHub({ transport: outboxTransport() }),
      scheduler: { schedule: async () => undefined },
      ringTimeoutSec: 30,
      now: () => now,
    });
    const ringing = await service.start(a.user.id, { calleeId: b.user.id, type: 'audio' });
    now += 31_000;
    await expect(service.answer(b.user.id, ringing.id)).rejects.toMatchObject({ statusCode: 409, code: 'CALL_TRANSITION', details: { status: 'MISSED' } });
    const ref = db().collection(CALLS).doc(ringing.id);
    expect((await ref.get()).data()).toMatchObject({ status: 'MISSED', endReason: 'no_answer', endedBy: null });
    const history = async () => (await readHistory(ref)).map((e) => `${e.action} ${e.from}→${e.to} by ${e.by}`);
    expect(await history()).toEqual(['timeout RINGING→MISSED by system:ring-deadline']);
    expect((await service.timeout(ringing.id)).status).toBe('MISSED');
    expect(await history()).toHaveLength(1);
  });

  it('a ring whose timeout task was lost does not block the line: the next call settles it MISSED and notifies once', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    let now = Date.now();
    const service = createCallsService({
      hub: createHub({ transport: outboxTransport() }),
      scheduler: { schedule: async () => undefined },
      ringTimeoutSec: 30,
      now: () => now,
    });
    const lost = await service.start(a.user.id, { calleeId: b.user.id, type: 'audio' });
    await expect(service.start(a.user.id, { calleeId: c.user.id, type: 'audio' })).rejects.toMatchObject({ statusCode: 409 });
    now += 31_000;
    const next = await service.start(a.user.id, { calleeId: c.user.id, type: 'audio' });
    expect(next.status).toBe('RINGING');
    expect((await db().collection(CALLS).doc(lost.id).get()).data()).toMatchObject({ status: 'MISSED', endReason: 'no_answer' });
    expect((await service.timeout(lost.id)).status).toBe('MISSED');
    expect(await missedNoticesSettle(b.user.id)).toEqual([lost.id]);
  });
});
