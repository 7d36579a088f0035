import { collection, doc, getDoc, query, setLogLevel, Timestamp as ClientTimestamp, where } from 'firebase/firestore';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { expectAllPublished, expectPublished } from '../../helpers/contract';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { listenInSync, signedInClient } from '../../helpers/firebase-client';
import { PREFERENCES, REALTIME } from '../../../src/modules/notifications/notifications.collections';
import { CALLS } from '../../../src/modules/chat/chat.collections';
import { inboxPage, inboxQuery, outboxFor, realtimeQuery } from '../../helpers/notifications';

beforeAll(requireEmulators);
setLogLevel('error');

const start = (caller: Tokens, callee: Tokens, extra: Record<string, unknown> = {}) =>
  call('POST', '/chat/calls', { token: caller.accessToken, body: { calleeId: callee.user.id, ...extra } });
const act = (who: Tokens, id: string, action: string) => call('POST', `/chat/calls/${id}/${action}`, { token: who.accessToken });

describe('calls', () => {
  it('ring: callee hears call:ring through a Firestore listener, gets CALL_INCOMING and a high-priority push even with notifications off', async () => {
    const caller = await registerVerified();
    const callee = await registerVerified({ language: 'vi' });
    const fcm = `fcm-call-${Date.now()}-${'c'.repeat(40)}`;
    await call('POST', '/push-tokens', { token: callee.accessToken, body: { token: fcm, surface: 'CON', platform: 'android', deviceId: 'p' } });
    await call('PATCH', '/notifications/preferences', { token: callee.accessToken, body: { push: false } });

    const minted = await call('POST', '/auth/firebase-token', { token: callee.accessToken });
    const { firestore, close } = await signedInClient(minted.body.token, 'callee');
    try {
      const { heard: ring } = await listenInSync(query(collection(firestore, REALTIME), where('recipientId', '==', callee.user.id)), (snap) =>
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a raw Firestore document, asserted field by field
        snap.docs.map((d) => d.data() as Record<string, any>).find((d) => d.type === 'call:ring'),
      );
      const started = await start(caller, callee, { type: 'video' });
      expect(started.status).toBe(201);
      expect(started.body).toMatchObject({ status: 'RINGING', callerId: caller.user.id, calleeId: callee.user.id, type: 'video' });
      const heard = await ring;
      expect(heard.payload).toMatchObject({
        event: 'call.incoming',
        kind: 'CALL_INCOMING',
        entityId: started.body.id,
        sfx: 'call_ringtone_incoming',
        surface: 'CON',
      });
      expect(heard.data).toMatchObject({ callId: started.body.id, callerId: caller.user.id });
      // Participants read the call document; the listener sees it live.
      // (A loaded machine may take the 10-s test ring past its deadline before this read: then it is MISSED.)
      const live = (await getDoc(doc(firestore, CALLS, started.body.id))).data();
      expect(live).toMatchObject({ callerId: caller.user.id, calleeId: callee.user.id, status: expect.stringMatching(/^(RINGING|MISSED)$/) });

      // In the callee's language (read in the transaction that created the call), in the inbox and the push.
      expect((await inboxPage(callee)).find((i) => i.entityId === started.body.id)).toMatchObject({
        kind: 'CALL_INCOMING',
        title: 'Cuộc gọi đến',
        body: 'Cuộc gọi video đến',
      });
      const pushed = await outboxFor(fcm);
      expect(pushed[0]).toMatchObject({
        data: { event: 'call.incoming' },
        android: { priority: 'high', ttl: 30_000, notification: { channelId: 'app-calls', title: 'Cuộc gọi đến', body: 'Cuộc gọi video đến' } },
      });
      await act(callee, started.body.id, 'decline');
      // The client SDK hands every time as its Timestamp; the stored documents parse with the published schemas.
      expect(heard.data.ringExpiresAt).toBeInstanceOf(ClientTimestamp);
      expect(heard.data.ringExpiresAt.toMillis()).toBe(Date.parse(started.body.ringExpiresAt));
      expect(live!.createdAt).toBeInstanceOf(ClientTimestamp);
      await expectPublished('CallDocument', `${CALLS}/${started.body.id}`);
      await expectPublished('NotificationPreferencesDocument', `${PREFERENCES}/${callee.user.id}`);
      await expectAllPublished('RealtimeEventDocument', realtimeQuery(callee.user.id));
      await expectAllPublished('InboxItemDocument', inboxQuery(callee.user.id));
    } finally {
      await close();
    }
  });

  it('a retried start with the same Idempotency-Key replays the first answer, even after the call ended', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const key = `call-${Date.now()}`;
    const first = await call('POST', '/chat/calls', { token: a.accessToken, body: { calleeId: b.user.id }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    await act(a, first.body.id, 'cancel');
    const retry = await call('POST', '/chat/calls', { token: a.accessToken, body: { calleeId: b.user.id }, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await db().collection(CALLS).where('callerId', '==', a.user.id).get()).size).toBe(1);
  });

  it('without an Idempotency-Key (as the spec shows it): 201, and a double tap rings once (one ringing call per pair)', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const taps = await Promise.all([start(a, b), start(a, b), start(a, b)]);
    expect(taps.map((t) => t.status)).toEqual([201, 201, 201]);
    expect(new Set(taps.map((t) => t.body.id)).size).toBe(1);
    expect(taps.every((t) => t.headers.get('idempotent-replayed') === null)).toBe(true);
    const later = await start(a, b);
    expect(later.body.id).toBe(taps[0].body.id);
    expect((await db().collection(CALLS).where('callerId', '==', a.user.id).get()).size).toBe(1);
    // Keyed retries racing: one call too.
    const key = `call-race-${Date.now()}`;
    const [c, d] = [await registerVerified(), await registerVerified()];
    const keyed = await Promise.all(
      [0, 1, 2].map(() => call('POST', '/chat/calls', { token: c.accessToken, body: { calleeId: d.user.id }, headers: { 'idempotency-key': key } })),
    );
    expect(new Set(keyed.filter((k) => k.status === 201).map((k) => k.body.id)).size).toBe(1);
    expect((await db().collection(CALLS).where('callerId', '==', c.user.id).get()).size).toBe(1);
    await act(a, taps[0].body.id, 'cancel');
    await act(c, keyed.find((k) => k.status === 201)!.body.id, 'cancel');
  });

  it('answer (callee only) → ACTIVE → end → ENDED; illegal moves are 409; strangers get 404', async () => {
    const [a, b, stranger] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const { body: ringing } = await start(a, b);
    const callerAnswers = await act(a, ringing.id, 'answer');
    expect([callerAnswers.status, callerAnswers.body.code]).toEqual([409, 'CALL_NOT_ALLOWED']);
    expect((await act(stranger, ringing.id, 'answer')).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    const answered = await act(b, ringing.id, 'answer');
    expect(answered.body).toMatchObject({ status: 'ACTIVE', answeredAt: expect.any(String) });
    expect((await act(b, ringing.id, 'decline')).body).toMatchObject({ statusCode: 409, code: 'CALL_TRANSITION', details: { status: 'ACTIVE' } });
    expect((await act(a, ringing.id, 'cancel')).body.code).toBe('CALL_TRANSITION');
    expect((await act(a, ringing.id, 'end')).body).toMatchObject({ status: 'ENDED', endReason: 'hangup', endedBy: a.user.id });
    expect((await act(b, ringing.id, 'end')).status).toBe(409);
    const history = await call('GET', '/chat/calls', { token: b.accessToken });
    expect(history.body.calls[0]).toMatchObject({ id: ringing.id, status: 'ENDED' });
    expect((await call('GET', '/chat/calls', { token: stranger.accessToken })).body.calls).toEqual([]);
  });

  it('decline → DECLINED, cancel → CANCELLED; calling yourself is 400, an unknown user 404', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const first = (await start(a, b)).body;
    expect((await act(b, first.id, 'decline')).body).toMatchObject({ status: 'DECLINED', endReason: 'declined' });
    const second = (await start(a, b)).body;
    expect((await act(a, second.id, 'cancel')).body).toMatchObject({ status: 'CANCELLED', endReason: 'cancelled' });
    expect((await call('POST', '/chat/calls', { token: a.accessToken, body: { calleeId: a.user.id } })).status).toBe(400);
    expect((await call('POST', '/chat/calls', { token: a.accessToken, body: { calleeId: 'nobody' } })).status).toBe(404);
  });

  it('answer, decline and cancel racing: exactly one wins', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = [await registerVerified(), await registerVerified()];
      const ringing = (await start(a, b)).body;
      const results = await Promise.all([act(b, ringing.id, 'answer'), act(b, ringing.id, 'decline'), act(a, ringing.id, 'cancel')]);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(2);
      const final = (await call('GET', '/chat/calls', { token: a.accessToken })).body.calls[0].status;
      expect(final).toBe(results.find((r) => r.status === 200)!.body.status);
    }
  });

  it('a busy callee: the new call is DECLINED (busy) and the callee gets a missed call; a caller already in a call gets 409', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const first = (await start(a, b)).body;
    await act(b, first.id, 'answer');
    const busy = await start(c, b);
    expect(busy.body).toMatchObject({ status: 'DECLINED', endReason: 'busy' });
    // The missed-call notice comes from the trigger on the call's status change.
    await waitFor(async () => ((await inboxPage(b)).some((i) => i.kind === 'CALL_MISSED' && i.entityId === busy.body.id) ? true : undefined));
    expect((await start(a, c)).body).toMatchObject({ statusCode: 409, code: 'CALL_BUSY' });
    // Calling the same person again while your call still rings returns that call.
    const [x, y] = [await registerVerified(), await registerVerified()];
    const ring1 = (await start(x, y)).body;
    expect((await start(x, y)).body.id).toBe(ring1.id);
    await act(x, ring1.id, 'cancel');
  });

  it('a call that is over frees both lines: cancelled, declined or ended, either side can call again', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const first = (await start(a, b)).body;
    expect((await start(b, c)).status).toBe(409); // b has a call ringing
    await act(a, first.id, 'cancel');
    const second = (await start(b, a)).body;
    expect(second.status).toBe('RINGING');
    await act(a, second.id, 'decline');
    const third = (await start(a, b)).body;
    await act(b, third.id, 'answer');
    expect((await start(c, a)).body).toMatchObject({ status: 'DECLINED', endReason: 'busy' });
    await act(a, third.id, 'end');
    expect((await start(c, a)).body.status).toBe('RINGING');
  });
});
