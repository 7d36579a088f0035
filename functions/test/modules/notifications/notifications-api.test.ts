import { collection, doc, getDoc, query, setLogLevel, where } from 'firebase/firestore';
import { adminTokens, registerVerified } from '../../helpers/accounts';
import { call, PASSWORD } from '../../helpers/api';
import { deleteMatching } from '../../helpers/cleanup';
import { requireEmulators } from '../../helpers/emulators';
import { listenInSync, signedInClient } from '../../helpers/firebase-client';
import { db } from '../../../src/platform/core/firebase/firebase';
import { INBOX, PUSH_TOKENS } from '../../../src/modules/notifications/notifications.collections';
import { fcmToken, outboxFor } from '../../helpers/notifications';

beforeAll(requireEmulators);
setLogLevel('error');

const login = (email: string, userAgent: string, deviceName?: string) =>
  call('POST', '/auth/login/password', { body: { email, password: PASSWORD, ...(deviceName ? { deviceName } : {}) }, headers: { 'user-agent': userAgent } });

describe('security.device and push tokens', () => {
  it('a sign-in from a new device puts a SYSTEM item in the inbox and always pushes to the registered devices', async () => {
    const account = await registerVerified();
    const token = fcmToken('sec');
    expect(
      (await call('POST', '/push-tokens', { token: account.accessToken, body: { token, surface: 'CON', platform: 'android', deviceId: 'pixel' } })).body,
    ).toEqual({ status: 'created' });
    expect(
      (await call('POST', '/push-tokens', { token: account.accessToken, body: { token, surface: 'CON', platform: 'android', deviceId: 'pixel' } })).body,
    ).toEqual({ status: 'updated' });
    // Notifications off: security pushes anyway.
    await call('PATCH', '/notifications/preferences', { token: account.accessToken, body: { push: false } });

    await login(account.email, 'Mozilla/5.0 (Windows NT 10.0)');
    const inbox = await call('GET', '/notifications', { token: account.accessToken });
    expect(inbox.body.unreadCount).toBe(1);
    expect(inbox.body.items[0]).toMatchObject({
      kind: 'SYSTEM',
      event: 'security.device',
      read: false,
      data: { sfx: 'notif_urgent', deepLink: { tab: 'AccountTab', screen: 'AuthSessions' }, surface: 'CON' },
    });
    const [pushed] = await outboxFor(token);
    expect(pushed).toMatchObject({ token, data: { event: 'security.device', kind: 'SYSTEM' }, android: { notification: { sound: 'default' } } });

    // The same device again: nothing new.
    await login(account.email, 'Mozilla/5.0 (Windows NT 10.0)');
    expect((await call('GET', '/notifications', { token: account.accessToken })).body.items).toHaveLength(1);
  });

  it("another user's token cannot be deleted (404); signing out removes the session's tokens", async () => {
    const a = await registerVerified();
    const b = await registerVerified();
    const token = fcmToken('logout');
    await call('POST', '/push-tokens', { token: a.accessToken, body: { token, surface: 'CON', platform: 'ios', deviceId: 'iphone' } });
    expect((await call('DELETE', '/push-tokens', { token: b.accessToken, body: { token } })).status).toBe(404);
    expect((await db().collection(PUSH_TOKENS).where('token', '==', token).get()).size).toBe(1);
    await call('POST', '/auth/logout', { token: a.accessToken });
    expect((await db().collection(PUSH_TOKENS).where('token', '==', token).get()).size).toBe(0);
    expect((await call('POST', '/push-tokens', { token: b.accessToken, body: { token: 'short', surface: 'XX', platform: 'ios', deviceId: 'x' } })).status).toBe(
      400,
    );
  });
});

describe('inbox and preferences', () => {
  it('lists newest first with paging and marks some or all read; ids of others are ignored', async () => {
    const account = await registerVerified();
    for (const ua of ['UA-1', 'UA-2', 'UA-3']) await login(account.email, ua);
    const other = await registerVerified();
    await login(other.email, 'UA-x');
    const otherItem = (await call('GET', '/notifications', { token: other.accessToken })).body.items[0].id;

    const page1 = await call('GET', '/notifications?limit=2', { token: account.accessToken });
    expect(page1.body.items).toHaveLength(2);
    expect(page1.body.unreadCount).toBe(3);
    const page2 = await call('GET', `/notifications?limit=2&cursor=${page1.body.nextCursor}`, { token: account.accessToken });
    expect(page2.body.items).toHaveLength(1);
    expect(Date.parse(page1.body.items[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(page1.body.items[1].createdAt));

    const marked = await call('PATCH', '/notifications', { token: account.accessToken, body: { ids: [page1.body.items[0].id, otherItem] } });
    expect(marked.body).toEqual({ updated: 1, unreadCount: 2 });
    expect((await call('GET', '/notifications', { token: other.accessToken })).body.unreadCount).toBe(1);
    expect((await call('GET', '/notifications?unreadOnly=true', { token: account.accessToken })).body.items).toHaveLength(2);
    expect((await call('PATCH', '/notifications', { token: account.accessToken, body: { all: true } })).body).toEqual({ updated: 2, unreadCount: 0 });
    expect((await call('PATCH', '/notifications', { token: account.accessToken, body: {} })).status).toBe(400);
  });

  it('preferences: defaults, master switch, per-channel split, mute per conversation', async () => {
    const account = await registerVerified();
    const t = account.accessToken;
    expect((await call('GET', '/notifications/preferences', { token: t })).body).toEqual({
      push: true,
      channels: { chat: true, ride: true, order: true, wallet: true, social: true, promo: true },
      mutedConversations: [],
    });
    expect((await call('PATCH', '/notifications/preferences', { token: t, body: { channels: { promo: false } } })).body.channels).toMatchObject({
      promo: false,
      chat: true,
    });
    expect((await call('PUT', '/notifications/mutes/conv-42', { token: t })).body.mutedConversations).toEqual(['conv-42']);
    expect((await call('DELETE', '/notifications/mutes/conv-42', { token: t })).body.mutedConversations).toEqual([]);
    expect((await call('PATCH', '/notifications/preferences', { token: t, body: {} })).status).toBe(400);
    expect((await call('PATCH', '/notifications/preferences', { token: t, body: { channels: { calls: false } } })).status).toBe(400);
    expect((await call('GET', '/notifications/preferences')).status).toBe(401);
  });
});

describe('admin.broadcast', () => {
  // It reaches every consumer of the run so far: its items go when done (test/helpers/cleanup.ts says why).
  const broadcasts: string[] = [];
  afterAll(async () => {
    for (const id of broadcasts) await deleteMatching(db().collection(INBOX).where('entityId', '==', id));
  });

  it('ADMIN only; every consumer gets a SYSTEM item, registered devices a push (promo opt-outs excluded)', async () => {
    const user = await registerVerified();
    const optedOut = await registerVerified();
    const token = fcmToken('bc');
    const optedOutToken = fcmToken('bc-off');
    await call('POST', '/push-tokens', { token: user.accessToken, body: { token, surface: 'CON', platform: 'android', deviceId: 'a' } });
    await call('POST', '/push-tokens', { token: optedOut.accessToken, body: { token: optedOutToken, surface: 'CON', platform: 'android', deviceId: 'b' } });
    await call('PATCH', '/notifications/preferences', { token: optedOut.accessToken, body: { channels: { promo: false } } });
    expect((await call('POST', '/notifications/broadcast', { token: user.accessToken, body: { title: 'Hi', body: 'x' } })).status).toBe(403);

    const admin = await adminTokens();
    const key = `weekend-${Date.now()}`;
    const body = { title: 'Weekend deal', body: '20% off rides', surfaces: ['CON'] };
    const res = await call('POST', '/notifications/broadcast', { token: admin.accessToken, body, headers: { 'idempotency-key': key } });
    // Accepted at once; the job (Cloud Tasks function broadcastJob) delivers it.
    expect(res.status).toBe(202);
    broadcasts.push(res.body.broadcastId);
    expect(res.body).toMatchObject({ broadcastId: expect.any(String), title: 'Weekend deal', surfaces: ['CON'] });
    const replay = await call('POST', '/notifications/broadcast', { token: admin.accessToken, body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(202);
    expect(replay.body.broadcastId).toBe(res.body.broadcastId);
    const reused = await call('POST', '/notifications/broadcast', {
      token: admin.accessToken,
      body: { ...body, body: 'other' },
      headers: { 'idempotency-key': key },
    });
    expect(reused.status).toBe(422);
    expect((await call('POST', '/notifications/broadcast', { token: admin.accessToken, body, headers: { 'idempotency-key': 'a b' } })).status).toBe(400);
    const deadline = Date.now() + 60_000;
    let progress = await call('GET', `/notifications/broadcast/${res.body.broadcastId}`, { token: admin.accessToken });
    while (progress.body.status !== 'DONE' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      progress = await call('GET', `/notifications/broadcast/${res.body.broadcastId}`, { token: admin.accessToken });
    }
    expect(progress.body).toMatchObject({ status: 'DONE', finishedAt: expect.any(String) });
    expect(progress.body.inboxItems).toBeGreaterThanOrEqual(2);
    expect((await call('GET', '/notifications/broadcast/nope', { token: admin.accessToken })).status).toBe(404);
    expect((await call('GET', `/notifications/broadcast/${res.body.broadcastId}`, { token: user.accessToken })).status).toBe(403);
    const item = (await call('GET', '/notifications', { token: user.accessToken })).body.items.find((i: { event: string }) => i.event === 'admin.broadcast');
    expect(item).toMatchObject({ kind: 'SYSTEM', title: 'Weekend deal', data: { sfx: 'notif_promo', entityId: res.body.broadcastId } });
    expect((await outboxFor(token)).some((m) => m.data.event === 'admin.broadcast')).toBe(true);
    expect((await outboxFor(optedOutToken)).some((m) => m.data.event === 'admin.broadcast')).toBe(false);
    expect(
      (await call('GET', '/notifications', { token: optedOut.accessToken })).body.items.some((i: { event: string }) => i.event === 'admin.broadcast'),
    ).toBe(true);
  });
});

describe('listening with the Firebase client SDK', () => {
  it('a custom token signs the app in; it hears its own new inbox item and cannot read another user', async () => {
    const account = await registerVerified();
    const other = await registerVerified();
    await login(other.email, 'UA-other');
    const otherItem = (await call('GET', '/notifications', { token: other.accessToken })).body.items[0].id;

    const minted = await call('POST', '/auth/firebase-token', { token: account.accessToken });
    expect(minted.body).toMatchObject({ uid: account.user.id, expiresInSec: 3600 });
    const { firestore, signedIn, close } = await signedInClient(minted.body.token, 'listener');
    try {
      expect(signedIn.user.uid).toBe(account.user.id);
      expect((await signedIn.user.getIdTokenResult()).claims.roles).toEqual(['USER']);

      expect((await call('GET', '/notifications', { token: account.accessToken })).body.items).toEqual([]);
      const { heard } = await listenInSync(query(collection(firestore, INBOX), where('recipientId', '==', account.user.id)), (snap) =>
        snap.docs.map((d) => d.data()).find((d) => d.event === 'security.device'),
      );
      await login(account.email, 'UA-new-device');
      expect(await heard).toMatchObject({ event: 'security.device', kind: 'SYSTEM' });
      await expect(getDoc(doc(firestore, INBOX, otherItem))).rejects.toMatchObject({ code: 'permission-denied' });
    } finally {
      await close();
    }
  });
});
