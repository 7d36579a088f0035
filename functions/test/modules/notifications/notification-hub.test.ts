import { randomUUID } from 'node:crypto';
import type { DocumentReference } from 'firebase-admin/firestore';
import '../../../src/modules/chat/chat.events';
import '../../../src/modules/auth/auth.events';
import { createHub } from '../../../src/modules/notifications/hub';
import { aggregateMilestone } from '../../../src/modules/notifications/aggregate';
import { SOCIAL_TEXTS } from '../../../src/modules/social/social.texts';
import '../../../src/modules/social/social.events';
import { notificationsRepo } from '../../../src/modules/notifications/notifications.repo';
import { createBroadcast, getBroadcast, runBroadcast } from '../../../src/modules/notifications/broadcast.job';
import { db } from '../../../src/platform/core/firebase/firebase';
import { asWritten, type Locale } from '../../../src/platform/kits/i18n';
import { newUserRecord, USERS } from '../../../src/modules/users/users.model';
import { usersRepo } from '../../../src/modules/users/users.repo';
import { accounts } from '../../../src/modules/users';
import { RIDE_EVENTS } from '../../../src/modules/rides/rides.events';
import { RIDE_TEXTS } from '../../../src/modules/rides/rides.texts';
import { CHAT_TEXTS } from '../../../src/modules/chat/chat.texts';
import type { PushResult, PushTransport } from '../../../src/platform/core/push/transport';
import { deleteAll, deleteMatching } from '../../helpers/cleanup';
import { requireEmulators } from '../../helpers/emulators';
import type { KnownEvent } from '../../../src/modules/notifications/events';
import { INBOX, PUSH_DEVICES } from '../../../src/modules/notifications/notifications.collections';
import { inboxOf, present, realtimeOf } from '../../helpers/notifications';
import '../../../src/modules/rides/rides.events';
import '../../../src/modules/driver/driver.events';
import '../../../src/modules/orders/orders.events';

// The hub's own tests dispatch spec events by name (modules use their `X_EVENTS.notice`, checked at compile time).
const ev = (name: string) => name as KnownEvent;

// The bulk fan-outs' inbox items and devices (thousands) are removed when the file is done (test/helpers/cleanup.ts
// says why): `bulk` records an entity id, `bulkDocs` the device documents written straight.
const bulkEntities: string[] = [];
const bulkDocs: DocumentReference[] = [];
const bulk = (entityId: string) => (bulkEntities.push(entityId), entityId);
afterAll(async () => {
  await deleteAll(bulkDocs);
  for (const id of bulkEntities) await deleteMatching(db().collection(INBOX).where('entityId', '==', id));
});

// The hub in-process on the Firestore emulator, with a recording push transport.
beforeAll(requireEmulators);

function recordingTransport(fail: Record<string, string> = {}) {
  const sent: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const transport: PushTransport = {
    name: 'outbox',
    async sendEach(messages) {
      sent.push(...(messages as Array<Record<string, unknown>>));
      return messages.map((m): PushResult => {
        const code = fail[(m as { token: string }).token];
        return code ? { success: false, errorCode: code } : { success: true, messageId: randomUUID() };
      });
    },
  };
  return { transport, sent };
}

async function userWithToken(surface: 'CON' | 'PAR' | 'DRV' = 'CON', platform: 'android' | 'ios' = 'android') {
  const userId = `hub-${randomUUID()}`;
  const token = `token-${randomUUID()}-${'x'.repeat(20)}`;
  await notificationsRepo.saveToken({ userId, token, surface, platform, deviceId: 'd1', sessionId: `s-${userId}`, createdAt: 1, updatedAt: 1 });
  return { userId, token };
}

describe('dispatch', () => {
  it('inbox + realtime + push with the spec payload, in that order of decisions', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const rider = await userWithToken('CON');
    const [report] = await hub.dispatch({
      event: ev('ride.matched'),
      recipients: [{ userId: rider.userId, surface: 'CON' }],
      entityId: 'ride-1',
      text: asWritten({ title: 'Driver found', body: 'Minh is on the way' }),
    });
    expect(report).toMatchObject({ inbox: true, realtime: true, duplicate: false, push: { sent: 1, failed: 0 } });
    const [item] = await inboxOf(rider.userId);
    expect(item).toMatchObject({ kind: 'RIDE', event: 'ride.matched', entityId: 'ride-1', read: false, surface: 'CON' });
    expect(Object.keys(item.data).sort()).toEqual(['deepLink', 'entityId', 'event', 'kind', 'notificationId', 'sfx', 'surface']);
    expect(item.data.deepLink).toEqual({ tab: 'MapTab', screen: 'RideDetail', params: { id: 'ride-1', appLink: 'app://rides/ride-1' } });
    const [rt] = await realtimeOf(rider.userId);
    expect(rt).toMatchObject({ type: 'ride:status', payload: { notificationId: report.notificationId } });
    expect(rt.expireAt.toMillis()).toBeGreaterThan(Date.now());
    expect(sent[0]).toMatchObject({
      token: rider.token,
      data: { event: 'ride.matched', sfx: 'ride_driver_assigned', surface: 'CON' },
      android: { notification: { channelId: 'app-rides' } },
    });
  });

  it('a duplicate delivery of the same occurrence notifies once; a new occurrence notifies again', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const user = await userWithToken();
    const input = {
      event: ev('chat.message'),
      recipients: [{ userId: user.userId, surface: 'CON' as const }],
      entityId: 'conv-1',
      occurrence: 'msg-1',
      conversationId: 'conv-1',
      text: asWritten({ title: 'Lan', body: 'hi' }),
    };
    const results = await Promise.all([hub.dispatch(input), hub.dispatch(input), hub.dispatch(input)]);
    expect(results.flat().filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await inboxOf(user.userId)).toHaveLength(1);
    expect(sent).toHaveLength(1);
    await hub.dispatch({ ...input, occurrence: 'msg-2' });
    expect(await inboxOf(user.userId)).toHaveLength(2);
    expect(sent).toHaveLength(2);
  });

  it('a user named twice in one dispatch (two hats) gets one item, under the first surface the event allows', async () => {
    const { transport } = recordingTransport();
    const hub = createHub({ transport });
    const user = await userWithToken('CON');
    const reports = await hub.dispatch({
      event: ev('ride.matched'),
      recipients: [
        { userId: user.userId, surface: 'CON' },
        { userId: user.userId, surface: 'DRV' },
      ],
      entityId: 'ride-twice',
      text: asWritten({ title: 'Driver found', body: '' }),
    });
    expect(reports).toHaveLength(1);
    expect((await inboxOf(user.userId)).map((i) => i.surface)).toEqual(['CON']);
  });

  it('telemetry (ride:location) is realtime only: no inbox, no push', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const user = await userWithToken();
    const [report] = await hub.dispatch({
      event: ev('ride:location'),
      recipients: [{ userId: user.userId, surface: 'CON' }],
      entityId: 'ride-2',
      realtimeData: { lat: 10.7, lng: 106.7 },
    });
    expect(report).toMatchObject({ inbox: false, realtime: true });
    expect(await inboxOf(user.userId)).toHaveLength(0);
    expect((await realtimeOf(user.userId))[0]).toMatchObject({ type: 'ride:location', data: { lat: 10.7, lng: 106.7 } });
    expect(sent).toHaveLength(0);
  });

  it('preferences, mute and presence skip push (inbox still written); calls push anyway', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const user = await userWithToken();
    const to = [{ userId: user.userId, surface: 'CON' as const }];
    await notificationsRepo.savePreferences(
      user.userId,
      { push: true, channels: { chat: true, ride: false, order: true, wallet: true, social: true, promo: true }, muted: { 'conv-muted': true } },
      Date.now(),
    );
    await present('chat_conv-here', user.userId, Date.now() + 60_000);
    await present('chat_conv-stale', user.userId, Date.now() - 1000);
    await present('ride_ride-here', user.userId, Date.now() + 60_000);

    const push = async (input: Partial<Parameters<typeof hub.dispatch>[0]> & { event: string }) =>
      (await hub.dispatch({ recipients: to, entityId: randomUUID(), text: asWritten({ title: 't', body: 'b' }), ...input }))[0].push;
    expect(await push({ event: ev('ride.arrived') })).toEqual({ skipped: 'preferences' });
    expect(await push({ event: ev('chat.message'), conversationId: 'conv-muted' })).toEqual({ skipped: 'muted' });
    expect(await push({ event: ev('chat.message'), conversationId: 'conv-here' })).toEqual({ skipped: 'present' });
    expect(await push({ event: ev('chat.message'), conversationId: 'conv-stale' })).toMatchObject({ sent: 1 });
    expect(await push({ event: ev('order.confirmed'), roomId: 'ride_ride-here' })).toEqual({ skipped: 'present' });
    expect(await push({ event: ev('call.incoming'), conversationId: 'conv-muted' })).toMatchObject({ sent: 1 });
    expect(sent.map((m) => m.data.event)).toEqual(['chat.message', 'call.incoming']);
    expect(await inboxOf(user.userId)).toHaveLength(6);
  });

  it('removes a token only on the two dead-token errors', async () => {
    const dead = await userWithToken();
    const invalid = await userWithToken();
    const flaky = await userWithToken();
    const { transport } = recordingTransport({
      [dead.token]: 'messaging/registration-token-not-registered',
      [invalid.token]: 'messaging/invalid-registration-token',
      [flaky.token]: 'messaging/server-unavailable',
    });
    const hub = createHub({ transport });
    for (const u of [dead, invalid, flaky]) {
      const [r] = await hub.dispatch({
        event: ev('security.device'),
        recipients: [{ userId: u.userId, surface: 'CON' }],
        entityId: randomUUID(),
        text: asWritten({ title: 't', body: 'b' }),
      });
      expect(r.push).toMatchObject({ sent: 0, failed: 1 });
    }
    expect(await notificationsRepo.tokensOf(dead.userId, 'CON')).toHaveLength(0);
    expect(await notificationsRepo.tokensOf(invalid.userId, 'CON')).toHaveLength(0);
    expect(await notificationsRepo.tokensOf(flaky.userId, 'CON')).toHaveLength(1);
  });

  it('a device token follows its latest account; signing out that session removes it everywhere', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const first = await userWithToken();
    const second = `hub-${randomUUID()}`;
    await notificationsRepo.saveToken({
      userId: second,
      token: first.token,
      surface: 'CON',
      platform: 'android',
      deviceId: 'd1',
      sessionId: `s-${second}`,
      createdAt: 2,
      updatedAt: 2,
    });
    const notify = async (userId: string) =>
      (
        await hub.dispatch({
          event: ev('security.device'),
          recipients: [{ userId, surface: 'CON' }],
          entityId: randomUUID(),
          text: asWritten({ title: 't', body: 'b' }),
        })
      )[0].push;
    expect(await notify(first.userId)).toEqual({ skipped: 'no-tokens' });
    expect(await notify(second)).toMatchObject({ sent: 1 });
    expect(sent.map((m) => m.token)).toEqual([first.token]);
    expect(await notificationsRepo.deleteTokensOfSessions([`s-${second}`])).toBe(1);
    expect(await notificationsRepo.tokensOf(second, 'CON')).toEqual([]);
    expect(await notify(second)).toEqual({ skipped: 'no-tokens' });
  });

  it('dispatchFanout reaches consumer, partner owner and driver as the table says', async () => {
    const { transport } = recordingTransport();
    const hub = createHub({ transport });
    const [con, par, drv] = [await userWithToken('CON'), await userWithToken('PAR'), await userWithToken('DRV')];
    const created = await hub.dispatchFanout({
      event: ev('order.created'),
      entityId: 'order-1',
      consumerId: con.userId,
      partnerOwnerId: par.userId,
      driverId: drv.userId,
      text: asWritten({ title: 'Order', body: 'new' }),
    });
    expect(created.map((r) => r.surface).sort()).toEqual(['CON', 'PAR']);
    const completed = await hub.dispatchFanout({
      event: ev('ride.completed'),
      entityId: 'ride-9',
      consumerId: con.userId,
      partnerOwnerId: par.userId,
      driverId: drv.userId,
      text: asWritten({ title: 'Ride', body: 'done' }),
    });
    expect(completed.map((r) => r.surface).sort()).toEqual(['CON', 'DRV']);
    expect((await inboxOf(drv.userId))[0].data.deepLink).toMatchObject({ tab: 'TripTab', screen: 'TripHistory' });
  });

  it('many recipients: batched creates, a partly done earlier delivery is not repeated, push decided per recipient', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const entityId = bulk(`promo-${randomUUID()}`);
    const withTokens = [await userWithToken(), await userWithToken(), await userWithToken()];
    const others = Array.from({ length: 620 }, () => `hub-bulk-${randomUUID()}`);
    const recipients = [...others.slice(0, 300), ...withTokens.map((u) => u.userId), ...others.slice(300)].map((userId) => ({
      userId,
      surface: 'CON' as const,
    }));
    await notificationsRepo.savePreferences(
      withTokens[2].userId,
      { push: true, channels: { chat: true, ride: true, order: true, wallet: true, social: true, promo: false }, muted: {} },
      Date.now(),
    );
    // One recipient already has the item (an earlier, interrupted delivery): it lands in the first batch.
    const input = { event: ev('admin.broadcast'), recipients, entityId, text: asWritten({ title: 'Sale', body: 'today' }) };
    await hub.dispatch({ ...input, recipients: [recipients[10]] });

    const reports = await hub.dispatch(input);
    expect(reports).toHaveLength(623);
    expect(reports.filter((r) => r.duplicate).map((r) => r.userId)).toEqual([recipients[10].userId]);
    expect((await db().collection(INBOX).where('entityId', '==', entityId).count().get()).data().count).toBe(623);
    const byUser = new Map(reports.map((r) => [r.userId, r.push]));
    expect(byUser.get(withTokens[0].userId)).toEqual({ sent: 1, failed: 0, removedTokens: 0 });
    expect(byUser.get(withTokens[1].userId)).toEqual({ sent: 1, failed: 0, removedTokens: 0 });
    expect(byUser.get(withTokens[2].userId)).toEqual({ skipped: 'preferences' });
    expect(byUser.get(others[0])).toEqual({ skipped: 'no-tokens' });
    expect(sent.map((m) => m.token).sort()).toEqual([withTokens[0].token, withTokens[1].token].sort());

    expect((await hub.dispatch(input)).every((r) => r.duplicate)).toBe(true);
    expect(sent).toHaveLength(2);
  });

  // Device documents read by the spied Firestore client during `run` (point reads only).
  async function devicePointReads(run: () => Promise<unknown>): Promise<number> {
    const spy = jest.spyOn(db(), 'getAll');
    try {
      await run();
      return spy.mock.calls.flat().filter((ref) => (ref as { path?: string }).path?.startsWith(`${PUSH_DEVICES}/`)).length;
    } finally {
      spy.mockRestore();
    }
  }
  const tokenRecord = (userId: string, token: string) => ({
    userId,
    token,
    surface: 'CON' as const,
    platform: 'android' as const,
    deviceId: 'd1',
    sessionId: `s-${userId}`,
    createdAt: 1,
    updatedAt: 1,
  });

  it('a fan-out to 500 or more recipients over an id span with few devices reads them with a range query, not one read per recipient', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const prefix = `span-${randomUUID()}-`;
    const ids = Array.from({ length: 1_200 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
    const holders = [7, 800, 1_199];
    const tokens = holders.map(() => `token-${randomUUID()}-${'y'.repeat(20)}`);
    await Promise.all(holders.map((i, k) => notificationsRepo.saveToken(tokenRecord(ids[i], tokens[k]))));
    // Recipients in any order: the span is the smallest and the largest id.
    const recipients = [...ids].reverse().map((userId) => ({ userId, surface: 'CON' as const }));
    let reports: Awaited<ReturnType<typeof hub.dispatch>> = [];
    const pointReads = await devicePointReads(async () => {
      reports = await hub.dispatch({
        event: ev('admin.broadcast'),
        recipients,
        entityId: bulk(`range-${randomUUID()}`),
        text: asWritten({ title: 'T', body: 'B' }),
      });
    });
    expect(pointReads).toBe(0);
    expect(sent.map((m) => m.token).sort()).toEqual([...tokens].sort());
    expect(
      reports
        .filter((r) => 'sent' in r.push)
        .map((r) => r.userId)
        .sort(),
    ).toEqual(holders.map((i) => ids[i]).sort());
    expect(reports.filter((r) => 'skipped' in r.push && r.push.skipped === 'no-tokens')).toHaveLength(1_197);
  });

  it('the same range-read fan-out delivered twice at once (a retried trigger) creates each item once and pushes each device once', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const prefix = `twice-${randomUUID()}-`;
    const ids = Array.from({ length: 1_050 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
    const tokens = [3, 1_000].map(() => `token-${randomUUID()}-${'u'.repeat(20)}`);
    await notificationsRepo.saveToken(tokenRecord(ids[3], tokens[0]));
    await notificationsRepo.saveToken(tokenRecord(ids[1_000], tokens[1]));
    const input = {
      event: ev('admin.broadcast'),
      recipients: ids.map((userId) => ({ userId, surface: 'CON' as const })),
      entityId: bulk(`twice-${randomUUID()}`),
      text: asWritten({ title: 'T', body: 'B' }),
    };
    const [a, b] = await Promise.all([hub.dispatch(input), hub.dispatch(input)]);
    // Each recipient's item was created by exactly one of the two deliveries.
    expect(a.filter((r) => !r.duplicate).length + b.filter((r) => !r.duplicate).length).toBe(1_050);
    expect((await db().collection(INBOX).where('entityId', '==', input.entityId).count().get()).data().count).toBe(1_050);
    expect(sent.map((m) => m.token).sort()).toEqual([...tokens].sort());
  });

  it('below one audience page (499 recipients) the devices are read one by one; from 500 with the range query', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const prefix = `page-${randomUUID()}-`;
    const ids = Array.from({ length: 500 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
    const token = `token-${randomUUID()}-${'p'.repeat(20)}`;
    await notificationsRepo.saveToken(tokenRecord(ids[250], token));
    const dispatchTo = (list: string[]) =>
      hub.dispatch({
        event: ev('admin.broadcast'),
        recipients: list.map((userId) => ({ userId, surface: 'CON' as const })),
        entityId: bulk(`page-${randomUUID()}`),
        text: asWritten({ title: 'T', body: 'B' }),
      });
    expect(await devicePointReads(() => dispatchTo(ids.slice(0, 499)))).toBe(499);
    expect(await devicePointReads(() => dispatchTo(ids))).toBe(0);
    expect(sent.map((m) => m.token)).toEqual([token, token]);
  });

  it('a span holding more devices than recipients (other accounts between them) falls back to point reads and pushes to recipients only', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const prefix = `dense-${randomUUID()}-`;
    const ids = Array.from({ length: 1_100 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
    const mine = [`token-${randomUUID()}-${'z'.repeat(20)}`, `token-${randomUUID()}-${'z'.repeat(20)}`];
    await notificationsRepo.saveToken(tokenRecord(ids[0], mine[0]));
    await notificationsRepo.saveToken(tokenRecord(ids[1_099], mine[1]));
    // 1,120 device documents of accounts that are not recipients, inside the recipients' span.
    for (let b = 0; b < 4; b += 1) {
      const batch = db().batch();
      for (let i = b * 280; i < (b + 1) * 280; i += 1) {
        const other = `${prefix}0500-other-${i}`;
        batch.set(db().collection(PUSH_DEVICES).doc(other), { tokens: { [`t${i}`]: tokenRecord(other, `token-other-${i}-${'w'.repeat(20)}`) } });
        bulkDocs.push(db().collection(PUSH_DEVICES).doc(other));
      }
      await batch.commit();
    }
    const pointReads = await devicePointReads(() =>
      hub.dispatch({
        event: ev('admin.broadcast'),
        recipients: ids.map((userId) => ({ userId, surface: 'CON' as const })),
        entityId: bulk(`dense-${randomUUID()}`),
        text: asWritten({ title: 'T', body: 'B' }),
      }),
    );
    expect(pointReads).toBe(1_100);
    expect(sent.map((m) => m.token).sort()).toEqual([...mine].sort());
  });

  it("ids outside the plain ASCII set (whose order may differ from Firestore's) are read one by one, and still reached", async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const prefix = `plain-${randomUUID()}-`;
    const ids = [...Array.from({ length: 1_100 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`), `${prefix}é-account`];
    const token = `token-${randomUUID()}-${'v'.repeat(20)}`;
    await notificationsRepo.saveToken(tokenRecord(ids[1_100], token));
    const pointReads = await devicePointReads(() =>
      hub.dispatch({
        event: ev('admin.broadcast'),
        recipients: ids.map((userId) => ({ userId, surface: 'CON' as const })),
        entityId: bulk(`plain-${randomUUID()}`),
        text: asWritten({ title: 'T', body: 'B' }),
      }),
    );
    expect(pointReads).toBe(1_101);
    expect(sent.map((m) => m.token)).toEqual([token]);
  });

  it('refuses an event missing from the table (at run time too, for a name forced past the compiler)', async () => {
    const hub = createHub({ transport: recordingTransport().transport });
    await expect(hub.dispatch({ event: ev('pizza.delivered'), recipients: [], entityId: 'x' })).rejects.toThrow(/Unknown event/);
  });
});

describe("texts in each recipient's language", () => {
  // An account with a language (or none: it follows DEFAULT_LOCALE, vi here), with a device.
  async function account(locale?: Locale) {
    const device = await userWithToken('CON');
    await db().runTransaction(async (tx) =>
      usersRepo.txCreate(
        tx,
        newUserRecord({ id: device.userId, email: null, name: 'X', passwordHash: null, emailVerified: true, provider: null, now: Date.now(), locale }),
      ),
    );
    return device;
  }
  // The hub's reads of accounts' languages, recorded.
  function countingHub() {
    const { transport, sent } = recordingTransport();
    const asked: string[][] = [];
    const hub = createHub({ transport, localesOf: (ids) => (asked.push(ids), accounts.localesOf(ids)) });
    return { hub, sent, asked };
  }
  const pushedTo = (sent: Array<Record<string, any>>, token: string) => sent.find((m) => m.token === token)?.android.notification; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('a vi account, an en account and one that never chose read the same notice in their own language: inbox and push, one read for all', async () => {
    const { hub, sent, asked } = countingHub();
    const [vi, en, older] = [await account('vi'), await account('en'), await account()];
    const entityId = `ride-${randomUUID()}`;
    const reports = await hub.dispatch(
      RIDE_EVENTS.notice({
        event: 'ride.completed',
        recipients: [vi, en, older].map((a) => ({ userId: a.userId, surface: 'CON' as const })),
        entityId,
        text: RIDE_TEXTS.text('ride.completed', { fare: 52_000 }),
      }),
    );
    expect(reports.map((r) => r.push)).toEqual([1, 2, 3].map(() => expect.objectContaining({ sent: 1 })));
    const itemOf = async (userId: string) => (await inboxOf(userId)).find((i) => i.entityId === entityId);
    expect(await itemOf(vi.userId)).toMatchObject({ title: 'Chuyến đi đã hoàn tất', body: 'Cước phí 52.000\u00a0₫' });
    expect(await itemOf(en.userId)).toMatchObject({ title: 'Trip completed', body: 'Fare ₫52,000' });
    expect(await itemOf(older.userId)).toMatchObject({ title: 'Chuyến đi đã hoàn tất' });
    expect(pushedTo(sent, vi.token)).toMatchObject({ title: 'Chuyến đi đã hoàn tất', body: 'Cước phí 52.000\u00a0₫' });
    expect(pushedTo(sent, en.token)).toMatchObject({ title: 'Trip completed', body: 'Fare ₫52,000' });
    expect(pushedTo(sent, older.token)).toMatchObject({ title: 'Chuyến đi đã hoàn tất' });
    expect(asked).toEqual([[vi.userId, en.userId, older.userId]]);
  });

  it("a language the caller already read is not read again; an administrator's words go out as written, reading none", async () => {
    const { hub, sent, asked } = countingHub();
    const en = await account('en');
    const to = (locale?: Locale) => [{ userId: en.userId, surface: 'CON' as const, ...(locale ? { locale } : {}) }];
    await hub.dispatch(
      RIDE_EVENTS.notice({ event: 'ride.pickup', recipients: to('en'), entityId: `ride-${randomUUID()}`, text: RIDE_TEXTS.text('ride.pickup', {}) }),
    );
    await hub.dispatch({
      event: ev('admin.broadcast'),
      recipients: to(),
      entityId: `bc-${randomUUID()}`,
      text: asWritten({ title: 'Khuyến mãi', body: 'Giảm 20% hôm nay' }),
    });
    expect(asked).toEqual([]);
    expect(sent.map((m) => m.android.notification.title)).toEqual(['Trip started', 'Khuyến mãi']);
  });

  it('inside a transaction the caller names each language (the ring of a call); a notice people read needs a text', async () => {
    const { hub, sent, asked } = countingHub();
    const en = await account('en');
    const entityId = `call-${randomUUID()}`;
    const push = await db().runTransaction(async (tx) =>
      hub.dispatchInTransaction(tx, {
        event: ev('call.incoming'),
        recipients: [{ userId: en.userId, surface: 'CON', locale: 'en' }],
        entityId,
        text: CHAT_TEXTS.text('call.incoming', { video: false }),
      }),
    );
    await push();
    expect((await inboxOf(en.userId)).find((i) => i.entityId === entityId)).toMatchObject({ title: 'Incoming call', body: 'Incoming call' });
    expect([asked, sent.map((m) => m.android.notification.title)]).toEqual([[], ['Incoming call']]);
    await expect(hub.dispatch({ event: ev('ride.arrived'), recipients: [{ userId: en.userId, surface: 'CON' }], entityId })).rejects.toThrow(/give it a text/);
  });
});

describe('broadcast job', () => {
  // Its 3,000 accounts and their inbox items are removed when done (test/helpers/cleanup.ts says why).
  const written: DocumentReference[] = [];
  const broadcasts: string[] = [];
  afterAll(async () => {
    await deleteAll(written);
    for (const id of broadcasts) await deleteMatching(db().collection(INBOX).where('entityId', '==', id));
  });

  it('a broadcast to 3,000 accounts interrupted mid-page resumes at its cursor and reaches each account exactly once', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport });
    const accounts = Array.from({ length: 3000 }, () => `bc-acct-${randomUUID()}`);
    const bothApps = new Set(accounts.filter((_, i) => i % 10 === 0));
    const locked = `bc-locked-${randomUUID()}`;
    for (let i = 0; i < accounts.length; i += 500) {
      const batch = db().batch();
      for (const id of accounts.slice(i, i + 500))
        batch.set(db().collection(USERS).doc(id), { hats: bothApps.has(id) ? ['CON', 'PAR'] : ['CON'], roles: ['USER'], disabled: false });
      written.push(...accounts.slice(i, i + 500).map((id) => db().collection(USERS).doc(id)));
      await batch.commit();
    }
    await db()
      .collection(USERS)
      .doc(locked)
      .set({ hats: ['CON'], roles: ['USER'], disabled: true });
    // Devices on the first page (ids sort first), so the crash cannot fall between their item and push.
    const device = async (userId: string, surface: 'CON' | 'PAR') => {
      const token = `token-${randomUUID()}-${'x'.repeat(20)}`;
      await notificationsRepo.saveToken({
        userId,
        token,
        surface,
        platform: 'android',
        deviceId: surface,
        sessionId: `s-${userId}`,
        createdAt: 1,
        updatedAt: 1,
      });
      return token;
    };
    const [conUser, parUser, bothUser] = ['con', 'par', 'both'].map((tag) => `0000-bc-${tag}-${randomUUID()}`);
    await db()
      .collection(USERS)
      .doc(conUser)
      .set({ hats: ['CON'], roles: ['USER'], disabled: false });
    await db()
      .collection(USERS)
      .doc(parUser)
      .set({ hats: ['PAR'], roles: ['USER', 'PARTNER_OWNER'], disabled: false });
    await db()
      .collection(USERS)
      .doc(bothUser)
      .set({ hats: ['CON', 'PAR'], roles: ['USER', 'PARTNER_OWNER'], disabled: false });
    const tokens = {
      con: await device(conUser, 'CON'),
      par: await device(parUser, 'PAR'),
      bothCon: await device(bothUser, 'CON'),
      bothPar: await device(bothUser, 'PAR'),
    };
    // Other test files create, lock and re-role accounts while this runs. So: every account active both before
    // and after gets exactly one item; anyone else who gets one was active before or after, or created during the run.
    const startedAt = Date.now();
    const activeAccounts = async () => {
      const ids = new Set<string>();
      for (const hat of ['CON', 'PAR']) {
        (await db().collection(USERS).where('hats', 'array-contains', hat).where('disabled', '==', false).select().get()).docs.forEach((d) => ids.add(d.id));
      }
      return ids;
    };
    const audience = await activeAccounts();

    const request = { title: 'News', body: 'hello', surfaces: ['CON', 'PAR'] as Array<'CON' | 'PAR'> };
    const { broadcast, created } = await createBroadcast('admin-1', request, `key-${randomUUID()}`, Date.now());
    broadcasts.push(broadcast.id);
    expect(created).toBe(true);
    // The runner dies after dispatching its second page, before saving the cursor.
    await expect(
      runBroadcast(broadcast.id, {
        hub,
        afterDispatch: (page) => {
          if (page === 2) throw new Error('instance stopped');
        },
      }),
    ).rejects.toThrow('instance stopped');
    const interrupted = await getBroadcast(broadcast.id);
    expect(interrupted).toMatchObject({ status: 'RUNNING', pages: 1, leaseOwner: null });
    expect(interrupted.cursor).not.toBeNull();

    expect(await runBroadcast(broadcast.id, { hub })).toBe('done');
    const done = await getBroadcast(broadcast.id);
    expect(done.status).toBe('DONE');

    const items = (await db().collection(INBOX).where('entityId', '==', broadcast.id).select('recipientId').get()).docs.map(
      (d) => d.get('recipientId') as string,
    );
    const perAccount = new Map<string, number>();
    for (const id of items) perAccount.set(id, (perAccount.get(id) ?? 0) + 1);
    expect(accounts.every((id) => perAccount.get(id) === 1)).toBe(true);
    expect(perAccount.get(locked)).toBeUndefined();
    expect([...perAccount.values()].every((n) => n === 1)).toBe(true);
    const audienceAfter = await activeAccounts();
    expect([...audience].filter((id) => audienceAfter.has(id) && perAccount.get(id) !== 1)).toEqual([]);
    const newcomers = new Set((await db().collection(USERS).where('createdAt', '>=', startedAt).select().get()).docs.map((d) => d.id));
    // Re-roled into CON or PAR during the run (a driver made a USER again by another file) counts as active after.
    expect(items.filter((id) => !audience.has(id) && !audienceAfter.has(id) && !newcomers.has(id))).toEqual([]);
    expect(done.inboxItems).toBe(items.length);
    // One push per account, to the first listed app it holds (the one its single item is for).
    const pushes = (token: string) => sent.filter((m) => m.token === token).length;
    expect([pushes(tokens.con), pushes(tokens.par), pushes(tokens.bothCon), pushes(tokens.bothPar)]).toEqual([1, 1, 1, 0]);
    expect(perAccount.get(bothUser)).toBe(1);
    expect(done.pushesSent).toBe(sent.length);

    // A finished job stays finished.
    expect(await runBroadcast(broadcast.id, { hub })).toBe('done');
    expect((await db().collection(INBOX).where('entityId', '==', broadcast.id).count().get()).data().count).toBe(items.length);
  }, 180_000);

  it('one Idempotency-Key names one broadcast per administrator; another message under it is 422', async () => {
    const key = `key-${randomUUID()}`;
    const request = { title: 'Sale', body: 'today', surfaces: ['CON'] as Array<'CON'> };
    const first = await createBroadcast('admin-1', request, key, Date.now());
    const again = await createBroadcast('admin-1', request, key, Date.now());
    expect(again).toMatchObject({ created: false, broadcast: { id: first.broadcast.id } });
    await expect(createBroadcast('admin-1', { ...request, body: 'tomorrow' }, key, Date.now())).rejects.toMatchObject({ statusCode: 422 });
    expect((await createBroadcast('admin-2', request, key, Date.now())).broadcast.id).not.toBe(first.broadcast.id);
    const racing = await Promise.all(Array.from({ length: 5 }, () => createBroadcast('admin-3', request, key, Date.now())));
    expect(new Set(racing.map((r) => r.broadcast.id)).size).toBe(1);
    expect(racing.filter((r) => r.created)).toHaveLength(1);
  });

  it('two runners never work on one broadcast at once: the second is refused while the lease holds', async () => {
    const hub = createHub({ transport: recordingTransport().transport });
    const { broadcast } = await createBroadcast('admin-1', { title: 'x', body: 'y', surfaces: ['DRV'] }, undefined, Date.now());
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = runBroadcast(broadcast.id, { hub, afterDispatch: () => held });
    await new Promise((r) => setTimeout(r, 300));
    await expect(runBroadcast(broadcast.id, { hub })).rejects.toMatchObject({ statusCode: 409 });
    release();
    expect(await first).toBe('done');
  });
});

describe('aggregated notices', () => {
  /** One act per call: `act` names it (a redelivery repeats it), `total` is the caller's count when it has one. */
  const likeOf =
    (hub: ReturnType<typeof createHub>, recipientId: string, postId: string) =>
    (actorId: string, name: string, opts: { total?: number; act?: string } = {}) =>
      hub.dispatchAggregated({
        event: ev('social.like'),
        recipients: [{ userId: recipientId, surface: 'CON' }],
        entityId: postId,
        params: { postId },
        aggregate: {
          actor: { id: actorId, name },
          occurrence: opts.act ?? `${actorId}-${randomUUID()}`,
          total: opts.total,
          text: (group) => SOCIAL_TEXTS.text('social.like', group),
        },
      });
  const english = async (ids: string[]) => new Map(ids.map((id): [string, Locale] => [id, 'en']));

  it('one item per recipient and entity: names, count and text follow the people; a push when new or read since', async () => {
    const { transport, sent } = recordingTransport();
    const hub = createHub({ transport, localesOf: english, serverSecret: 'hub-test-secret' });
    const author = await userWithToken();
    const like = likeOf(hub, author.userId, `post-${randomUUID()}`);
    expect((await like('u1', 'Lan', { act: 'a1' }))[0]).toMatchObject({ duplicate: false, inbox: true, realtime: false, push: { sent: 1 } });
    // The act redelivered, or the same person again while the group is unread: nothing changes.
    expect((await like('u1', 'Lan', { act: 'a1' }))[0]).toMatchObject({ duplicate: true, inbox: false });
    expect((await like('u1', 'Lan'))[0]).toMatchObject({ duplicate: true, inbox: false });
    await like('u2', 'Minh');
    const [third] = await like('u3', 'Hoa');
    expect(third).toMatchObject({ duplicate: false, inbox: true, push: { skipped: 'grouped' } });
    const items = await inboxOf(author.userId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'SOCIAL_LIKE', body: 'Hoa and 2 others liked your post', read: false, group: { names: ['Hoa', 'Minh'], count: 3 } });
    expect(JSON.stringify(items[0].group)).not.toContain('u1');
    expect(sent).toHaveLength(1);
    // Read since: the next person starts a new group (the caller's total still counts everyone) and pushes; an act
    // counted before the read, redelivered after it, still changes nothing.
    await db().collection(INBOX).doc(third.notificationId).update({ read: true });
    expect((await like('u1', 'Lan', { act: 'a1' }))[0]).toMatchObject({ duplicate: true });
    await like('u4', 'Tuan', { total: 4 });
    expect(await inboxOf(author.userId)).toMatchObject([{ body: 'Tuan and 3 others liked your post', read: false, group: { names: ['Tuan'], count: 4 } }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ android: { notification: { body: 'Tuan and 3 others liked your post' } } });
    // Someone of an earlier group acting again after the read is news again.
    await db().collection(INBOX).doc(third.notificationId).update({ read: true });
    await like('u1', 'Lan');
    expect(await inboxOf(author.userId)).toMatchObject([{ body: 'Lan liked your post', group: { count: 1 } }]);
    // The same people in parallel: counted once each.
    await Promise.all(['u5', 'u5', 'u6', 'u6'].map((id) => like(id, id)));
    expect((await inboxOf(author.userId))[0].group.count).toBe(3);
  });

  it('with a total, past 20 people an item is rewritten only at milestones; without one it counts on', async () => {
    const { transport } = recordingTransport();
    const hub = createHub({ transport, localesOf: english, serverSecret: 'hub-test-secret' });
    const [counted, uncounted] = [await userWithToken(), await userWithToken()];
    const withTotal = likeOf(hub, counted.userId, `post-${randomUUID()}`);
    const withoutTotal = likeOf(hub, uncounted.userId, `post-${randomUUID()}`);
    const counts: number[] = [];
    for (let i = 1; i <= 27; i += 1) {
      await Promise.all([withTotal(`u${i}`, `P${i}`, { total: i }), withoutTotal(`u${i}`, `P${i}`)]);
      if ([20, 21, 24, 25, 27].includes(i)) counts.push((await inboxOf(counted.userId))[0].group.count);
    }
    expect(counts).toEqual([20, 20, 20, 25, 25]);
    expect((await inboxOf(uncounted.userId))[0]).toMatchObject({ body: 'P27 and 26 others liked your post', group: { count: 27 } });
    expect([21, 24, 25, 26, 49, 50, 99, 100, 249, 250, 999, 1000, 2600].map(aggregateMilestone)).toEqual([
      20, 20, 25, 25, 25, 50, 50, 100, 100, 250, 500, 1000, 2500,
    ]);
  });
});
