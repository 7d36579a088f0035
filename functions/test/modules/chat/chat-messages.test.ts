import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { collection, query, setLogLevel, Timestamp as ClientTimestamp } from 'firebase/firestore';
import { fanOutMessage } from '../../../src/modules/chat/chat.triggers';
import { onCallWritten } from '../../../src/modules/chat/calls.triggers';
import type { CallRecord } from '../../../src/modules/chat/calls.model';
import { createHub } from '../../../src/modules/notifications/hub';
import { outboxTransport } from '../../../src/platform/core/push/transport';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { expectAllPublished, expectPublished } from '../../helpers/contract';
import { allowDirectAdds, directBetween } from '../../helpers/chat';
import { requireEmulators } from '../../helpers/emulators';
import { listenInSync, signedInClient } from '../../helpers/firebase-client';
import { waitFor } from '../../helpers/wait';
import { png } from '../../helpers/images';
import { CHAT_MEMBERSHIPS, CONVERSATIONS, MESSAGES } from '../../../src/modules/chat/chat.collections';
import { fcmToken, inboxOf, outboxFor, inboxQuery, realtimeQuery } from '../../helpers/notifications';

beforeAll(requireEmulators);
setLogLevel('error');

type Person = Tokens & { email: string };
const send = (who: Person, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', `/chat/conversations/${id}/messages`, { token: who.accessToken, body, headers });
const text = (who: Person, id: string, t: string) => send(who, id, { type: 'TEXT', text: t });
const messages = async (who: Person, id: string, query = '') =>
  (await call('GET', `/chat/conversations/${id}/messages${query}`, { token: who.accessToken })).body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
const membership = async (conversationId: string, who: Person) =>
  (await db().collection(CHAT_MEMBERSHIPS).doc(`${conversationId}_${who.user.id}`).get()).data()!;
const messageCount = async (conversationId: string) => (await db().collection(`${CONVERSATIONS}/${conversationId}/${MESSAGES}`).count().get()).data().count;

async function fannedOut(conversationId: string, messageId: string) {
  await waitFor(
    async () => ((await db().doc(`${CONVERSATIONS}/${conversationId}/${MESSAGES}/${messageId}`).get()).get('fannedOut') === true ? true : undefined),
    { what: 'the message trigger' },
  );
}

describe('sending and receiving', () => {
  it('the other member hears the message through a Firestore listener, gets a CHAT_MESSAGE item and a push; the sender gets neither', async () => {
    const [an, binh] = [await registerVerified({ name: 'An' }), await registerVerified({ name: 'Binh' })];
    const id = await directBetween(an, binh);
    const token = fcmToken('binh');
    await call('POST', '/push-tokens', { token: binh.accessToken, body: { token, surface: 'CON', platform: 'android', deviceId: 'p' } });
    const minted = await call('POST', '/auth/firebase-token', { token: binh.accessToken });
    const { firestore, close } = await signedInClient(minted.body.token, `binh-${randomUUID()}`);
    try {
      const { heard } = await listenInSync(query(collection(firestore, `${CONVERSATIONS}/${id}/${MESSAGES}`)), (snap) =>
        snap.docs.map((d) => d.data()).find((d) => d.type === 'TEXT'),
      );
      const sent = await text(an, id, 'Chào Binh!');
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({
        conversationId: id,
        senderId: an.user.id,
        type: 'TEXT',
        text: 'Chào Binh!',
        deleted: false,
        editedAt: null,
        replyTo: null,
      });
      expect(await heard).toMatchObject({ id: sent.body.id, text: 'Chào Binh!', senderId: an.user.id });
      await fannedOut(id, sent.body.id);
      const [item] = await waitFor(async () =>
        (await inboxOf(binh.user.id, { entityId: id })).length > 0 ? inboxOf(binh.user.id, { entityId: id }) : undefined,
      );
      expect(item).toMatchObject({ kind: 'CHAT_MESSAGE', event: 'chat.message', title: 'An', body: 'Chào Binh!' });
      expect(item.data).toMatchObject({
        sfx: 'notif_message',
        entityId: id,
        deepLink: { tab: 'ChatTab', screen: 'ChatThread', params: { appLink: `app://chat/${id}` } },
      });
      expect(await inboxOf(an.user.id, { entityId: id })).toEqual([]);
      const pushed = await waitFor(async () => ((await outboxFor(token)).length > 0 ? outboxFor(token) : undefined));
      expect(pushed[0]).toMatchObject({ data: { event: 'chat.message' }, android: { notification: { channelId: 'app-chat' } } });
      expect((await membership(id, binh)).unreadCount).toBe(1);
      expect((await membership(id, an)).unreadCount).toBe(0);
      expect((await membership(id, binh)).lastMessage).toMatchObject({ id: sent.body.id, preview: 'Chào Binh!' });
      // The listener got the time as the client SDK's Timestamp; each stored document parses with its published schema.
      const created = (await heard).createdAt as ClientTimestamp;
      expect(created).toBeInstanceOf(ClientTimestamp);
      expect(created.toMillis()).toBe(Date.parse(sent.body.createdAt));
      await expectPublished('MessageDocument', `${CONVERSATIONS}/${id}/${MESSAGES}/${sent.body.id}`);
      await expectPublished('ConversationDocument', `${CONVERSATIONS}/${id}`);
      const view = await expectPublished('ChatMembershipDocument', `${CHAT_MEMBERSHIPS}/${id}_${binh.user.id}`);
      expect(view.readUpToAt).toBeNull();
      await expectPublished('ChatMembershipDocument', `${CHAT_MEMBERSHIPS}/${id}_${an.user.id}`);
      const events = await expectAllPublished('RealtimeEventDocument', realtimeQuery(binh.user.id));
      expect(events.map((e) => e.type)).toEqual(['message:new']);
      await expectAllPublished('InboxItemDocument', inboxQuery(binh.user.id));
    } finally {
      await close();
    }
  });

  it('a retried send with the same Idempotency-Key makes one message, even racing', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const key = `msg-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 4 }, () => send(a, id, { type: 'TEXT', text: 'once' }, { 'idempotency-key': key })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201 || r.body.code === 'IDEMPOTENCY_IN_PROGRESS')).toBe(true);
    expect((await send(a, id, { type: 'TEXT', text: 'once' }, { 'idempotency-key': key })).body.id).toBe(created[0].body.id);
    expect(await messageCount(id)).toBe(1);
  });

  it('AUDIO and IMAGE of my READY uploads, LOCATION and a reply; another user’s, a pending or the wrong kind of upload is 422; nothing written', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const upload = async (who: Person) => {
      const form = new FormData();
      form.append('file', new Blob([fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'audio', 'tone.mp3'))], { type: 'audio/mpeg' }), 'tone.mp3');
      return (await call('POST', '/upload/single', { token: who.accessToken, form })).body;
    };
    const mine = await upload(a);
    const voice = await send(a, id, { type: 'AUDIO', mediaId: mine.id });
    expect(voice.body).toMatchObject({ type: 'AUDIO', text: null, media: { id: mine.id, mimeType: 'audio/mpeg', url: mine.publicUrl } });
    const place = await send(b, id, { type: 'LOCATION', location: { lat: 10.7769, lng: 106.7009 }, replyToId: voice.body.id });
    expect(place.body).toMatchObject({
      type: 'LOCATION',
      location: { lat: 10.7769, lng: 106.7009 },
      replyTo: { id: voice.body.id, senderId: a.user.id, preview: 'Voice message' },
    });

    const theirs = await upload(b);
    const before = await messageCount(id);
    const pending = (await call('POST', '/upload/presign', { token: a.accessToken, body: { contentType: 'audio/ogg', filename: 'x.ogg' } })).body.media;
    for (const mediaId of [theirs.id, pending.id, `nope-${randomUUID()}`]) {
      const refused = await send(a, id, { type: 'AUDIO', mediaId });
      expect([refused.status, refused.body.code]).toEqual([422, 'CHAT_ATTACHMENT_INVALID']);
    }
    // IMAGE: my own uploaded image; an audio item is not an image, nor an image a voice message.
    const imageForm = new FormData();
    imageForm.append('file', new Blob([png()], { type: 'image/png' }), 'photo.png');
    const photo = (await call('POST', '/upload/image', { token: a.accessToken, form: imageForm })).body;
    const pictured = await send(a, id, { type: 'IMAGE', mediaId: photo.id });
    expect(pictured.body).toMatchObject({ type: 'IMAGE', media: { id: photo.id, mimeType: 'image/png', url: photo.publicUrl } });
    const afterPhoto = await messageCount(id);
    for (const body of [
      { type: 'IMAGE', mediaId: mine.id },
      { type: 'AUDIO', mediaId: photo.id },
    ]) {
      expect((await send(a, id, body)).body.code).toBe('CHAT_ATTACHMENT_INVALID');
    }
    expect(await messageCount(id)).toBe(afterPhoto);
    const badReply = await send(a, id, { type: 'TEXT', text: 'x', replyToId: `nope-${randomUUID()}` });
    expect([badReply.status, badReply.body.code]).toEqual([422, 'CHAT_REPLY_NOT_FOUND']);
    expect(await messageCount(id)).toBe(before + 1);
  });

  it('bad input is a 400 with the standard body and writes nothing', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const bodies: unknown[] = [
      { type: 'TEXT', text: '' },
      { type: 'TEXT', text: '   ' },
      { type: 'TEXT', text: 'x'.repeat(4001) },
      { type: 'TEXT' },
      { type: 'SYSTEM', text: 'forged' },
      { type: 'IMAGE' },
      { type: 'LOCATION', location: { lat: 91, lng: 0 } },
      { type: 'LOCATION', location: { lat: null, lng: 0 } },
      { type: 'TEXT', text: 'hi', senderId: b.user.id },
      'hello',
    ];
    for (const body of bodies) {
      const res = await call('POST', `/chat/conversations/${id}/messages`, { token: a.accessToken, body });
      expect([res.status, res.body.statusCode, typeof res.body.code]).toEqual([400, 400, 'string']);
    }
    expect((await text(a, id, 'x'.repeat(4000))).status).toBe(201);
    expect(await messageCount(id)).toBe(1);
  });

  it('non-members cannot post or read (404), nor anonymous callers (401)', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    expect((await text(c, id, 'let me in')).status).toBe(404);
    expect((await call('GET', `/chat/conversations/${id}/messages`, { token: c.accessToken })).status).toBe(404);
    expect((await call('POST', `/chat/conversations/${id}/read`, { token: c.accessToken, body: { upToMessageId: 'x' } })).status).toBe(404);
    expect((await call('POST', `/chat/conversations/${id}/messages`, { body: { type: 'TEXT', text: 'x' } })).status).toBe(401);
    expect(await messageCount(id)).toBe(0);
  });

  it('a member signed out is 401 and writes nothing (the send starts beside the session check, its write waits for it)', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    expect((await call('POST', '/auth/logout', { token: a.accessToken })).status).toBe(200);
    const refused = await text(a, id, 'after logout');
    expect([refused.status, refused.body.code]).toEqual([401, 'TOKEN_REVOKED']);
    // The early send settles after the 401 went out: give it the time a write would take, then count.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await messageCount(id)).toBe(0);
  });
});

describe('history, edits and deletion', () => {
  it('lists newest first with a cursor, before and after; fetching marks messages delivered', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await text(a, id, `m${i}`)).body.id);
    const page1 = await call('GET', `/chat/conversations/${id}/messages?limit=2`, { token: b.accessToken });
    expect(page1.body.items.map((m: { text: string }) => m.text)).toEqual(['m4', 'm3']);
    const page2 = (
      await call('GET', `/chat/conversations/${id}/messages?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: b.accessToken })
    ).body;
    expect(page2.items.map((m: { text: string }) => m.text)).toEqual(['m2', 'm1']);
    expect((await messages(b, id, `?before=${sent[2]}`)).map((m) => m.text)).toEqual(['m1', 'm0']);
    expect((await messages(b, id, `?after=${sent[2]}`)).map((m) => m.text)).toEqual(['m4', 'm3']);
    expect((await call('GET', `/chat/conversations/${id}/messages?before=nope`, { token: b.accessToken })).body.code).toBe('CHAT_REPLY_NOT_FOUND');
    const detail = (await call('GET', `/chat/conversations/${id}`, { token: a.accessToken })).body;
    const bView = detail.members.find((m: { userId: string }) => m.userId === b.user.id);
    expect(bView.deliveredUpTo).not.toBeNull();
    expect(Date.parse(bView.deliveredUpTo)).toBe(Date.parse(page1.body.items[0].createdAt));
  });

  it('messages stored before the move to Timestamps (epoch ms) page, bound and count with the new ones until migrated', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const sent: Array<{ id: string; createdAt: string }> = [];
    for (let i = 0; i < 4; i++) sent.push((await text(a, id, `m${i}`)).body);
    for (const m of sent) await fannedOut(id, m.id);
    // The two oldest as the code before the move wrote them.
    for (const m of sent.slice(0, 2))
      await db()
        .doc(`${CONVERSATIONS}/${id}/${MESSAGES}/${m.id}`)
        .update({ createdAt: Date.parse(m.createdAt) });
    const texts = async (query: string) => (await messages(b, id, query)).map((m) => m.text);
    expect(await texts('')).toEqual(['m3', 'm2', 'm1', 'm0']);
    expect(await texts(`?before=${sent[2].id}`)).toEqual(['m1', 'm0']);
    expect(await texts(`?before=${sent[1].id}`)).toEqual(['m0']);
    expect(await texts(`?after=${sent[1].id}`)).toEqual(['m3', 'm2']);
    expect(await texts(`?after=${sent[0].id}&before=${sent[3].id}`)).toEqual(['m2', 'm1']);
    // One at a time across the two forms: the cursor of a Timestamp page resumes among the epoch-ms ones.
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 4; i++) {
      const page = (await call('GET', `/chat/conversations/${id}/messages?limit=1&before=${sent[3].id}${cursor}`, { token: b.accessToken })).body;
      seen.push(...page.items.map((m: { text: string }) => m.text));
      if (!page.nextCursor) break;
      cursor = `&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(seen).toEqual(['m2', 'm1', 'm0']);
    expect((await messages(b, id)).map((m) => m.createdAt)).toEqual(sent.map((m) => m.createdAt).reverse());
    // Read up to an epoch-ms message: the two later (Timestamp) ones stay unread.
    expect((await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: { upToMessageId: sent[1].id } })).body).toMatchObject({
      unreadCount: 2,
    });
  });

  it('the sender edits text or deletes within 15 minutes (a tombstone stays); others cannot; later is 409', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const m = (await text(a, id, 'helo')).body;
    const edited = await call('PATCH', `/chat/conversations/${id}/messages/${m.id}`, { token: a.accessToken, body: { text: 'hello' } });
    expect(edited.body).toMatchObject({ text: 'hello', editedAt: expect.any(String) });
    const notMine = await call('PATCH', `/chat/conversations/${id}/messages/${m.id}`, { token: b.accessToken, body: { text: 'hacked' } });
    expect([notMine.status, notMine.body.code]).toEqual([403, 'CHAT_NOT_SENDER']);
    expect((await call('DELETE', `/chat/conversations/${id}/messages/${m.id}`, { token: b.accessToken })).body.code).toBe('CHAT_NOT_SENDER');
    const gone = await call('DELETE', `/chat/conversations/${id}/messages/${m.id}`, { token: a.accessToken });
    expect(gone.body).toMatchObject({ id: m.id, deleted: true, text: null, media: null, location: null });
    expect((await call('PATCH', `/chat/conversations/${id}/messages/${m.id}`, { token: a.accessToken, body: { text: 'back' } })).body.code).toBe(
      'CHAT_EDIT_WINDOW',
    );
    expect((await messages(b, id))[0]).toMatchObject({ id: m.id, deleted: true, text: null });

    const old = (await text(a, id, 'sent long ago')).body;
    await db()
      .doc(`${CONVERSATIONS}/${id}/${MESSAGES}/${old.id}`)
      .update({ createdAt: Timestamp.fromMillis(Date.now() - 16 * 60_000) });
    expect((await call('PATCH', `/chat/conversations/${id}/messages/${old.id}`, { token: a.accessToken, body: { text: 'late' } })).body.code).toBe(
      'CHAT_EDIT_WINDOW',
    );
    expect((await call('DELETE', `/chat/conversations/${id}/messages/${old.id}`, { token: a.accessToken })).body.code).toBe('CHAT_EDIT_WINDOW');
    const place = (await send(a, id, { type: 'LOCATION', location: { lat: 21.0285, lng: 105.8542 } })).body;
    expect((await call('PATCH', `/chat/conversations/${id}/messages/${place.id}`, { token: a.accessToken, body: { text: 'x' } })).body.code).toBe(
      'CHAT_NOT_EDITABLE',
    );
    expect((await call('PATCH', `/chat/conversations/${id}/messages/nope`, { token: a.accessToken, body: { text: 'x' } })).status).toBe(404);
    expect((await call('PATCH', `/chat/conversations/${id}/messages/${old.id}`, { token: a.accessToken, body: { text: '' } })).status).toBe(400);
  });
});

describe('read markers and unread counts', () => {
  it('reading up to a message leaves the later ones unread; the marker never moves back', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const ids: string[] = [];
    for (const t of ['one', 'two', 'three']) ids.push((await text(a, id, t)).body.id);
    for (const m of ids) await fannedOut(id, m);
    expect((await membership(id, b)).unreadCount).toBe(3);
    const read = await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: { upToMessageId: ids[1] } });
    expect(read.body).toMatchObject({ conversationId: id, readUpToId: ids[1], unreadCount: 1 });
    const back = await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: { upToMessageId: ids[0] } });
    expect(back.body).toMatchObject({ readUpToId: ids[1], unreadCount: 1 });
    // My own messages never count as unread for me.
    await text(b, id, 'my reply');
    const fromA = (await text(a, id, 'four')).body.id;
    await fannedOut(id, fromA);
    expect((await membership(id, b)).unreadCount).toBe(1);
    expect((await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: { upToMessageId: fromA } })).body.unreadCount).toBe(0);
    expect((await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: { upToMessageId: 'nope' } })).body.code).toBe(
      'CHAT_REPLY_NOT_FOUND',
    );
    expect((await call('POST', `/chat/conversations/${id}/read`, { token: b.accessToken, body: {} })).status).toBe(400);
  });

  it('a duplicated trigger delivery counts nothing twice and notifies nobody twice', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    await allowDirectAdds(b, c);
    const g = (await call('POST', '/chat/conversations', { token: a.accessToken, body: { type: 'GROUP', title: 'Dup', memberIds: [b.user.id, c.user.id] } }))
      .body.id;
    const m = (await text(a, g, 'once only')).body.id;
    await fannedOut(g, m);
    await waitFor(async () => ((await inboxOf(c.user.id, { entityId: g })).length === 1 ? true : undefined));
    const hub = createHub({ transport: outboxTransport() });
    // The same event delivered again (and once more, racing itself).
    const again = await Promise.all([fanOutMessage(g, m, hub), fanOutMessage(g, m, hub)]);
    for (const result of again) expect(result).toEqual({ counted: false, notified: 0, duplicates: 2 });
    expect([(await membership(g, b)).unreadCount, (await membership(g, c)).unreadCount, (await membership(g, a)).unreadCount]).toEqual([1, 1, 0]);
    expect([(await inboxOf(b.user.id, { entityId: g })).length, (await inboxOf(c.user.id, { entityId: g })).length]).toEqual([1, 1]);
  });

  it('members who block the sender, or muted the conversation, get no push; blockers no inbox item either', async () => {
    const [a, b, c] = [await registerVerified({ name: 'Sender' }), await registerVerified(), await registerVerified()];
    await allowDirectAdds(b, c);
    const g = (await call('POST', '/chat/conversations', { token: a.accessToken, body: { type: 'GROUP', title: 'Quiet', memberIds: [b.user.id, c.user.id] } }))
      .body.id;
    const [tb, tc] = [fcmToken('b'), fcmToken('c')];
    await call('POST', '/push-tokens', { token: b.accessToken, body: { token: tb, surface: 'CON', platform: 'android', deviceId: 'b' } });
    await call('POST', '/push-tokens', { token: c.accessToken, body: { token: tc, surface: 'CON', platform: 'android', deviceId: 'c' } });
    await call('POST', `/chat/blocks/${a.user.id}`, { token: b.accessToken });
    await call('PUT', `/notifications/mutes/${g}`, { token: c.accessToken });
    const m = (await text(a, g, 'anyone?')).body.id;
    await fannedOut(g, m);
    await waitFor(async () => ((await inboxOf(c.user.id, { entityId: g })).length === 1 ? true : undefined));
    expect(await inboxOf(b.user.id, { entityId: g })).toEqual([]);
    expect((await membership(g, b)).unreadCount).toBe(1);
    expect(await outboxFor(tc)).toEqual([]);
    expect(await outboxFor(tb)).toEqual([]);
  });
});

describe('calls in the chat', () => {
  it('a blocked person cannot call (403 CHAT_BLOCKED), either way round', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    await call('POST', `/chat/blocks/${a.user.id}`, { token: b.accessToken });
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const refused = await call('POST', '/chat/calls', { token: from.accessToken, body: { calleeId: to.user.id } });
      expect([refused.status, refused.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    }
  });

  it('a missed call leaves one SYSTEM message in the pair’s conversation, however often the trigger runs; never in a conversation of others', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const id = await directBetween(a, b);
    const other = await directBetween(b, c);
    const hub = createHub({ transport: outboxTransport() });
    const ringing = {
      id: `call-${randomUUID()}`,
      callerId: a.user.id,
      calleeId: b.user.id,
      participants: [a.user.id, b.user.id],
      type: 'audio',
      conversationId: null,
      status: 'RINGING',
      endReason: null,
    } as unknown as CallRecord;
    const missed = { ...ringing, status: 'MISSED', endReason: 'no_answer' } as CallRecord;
    await onCallWritten({ before: ringing, after: missed }, hub);
    await onCallWritten({ before: ringing, after: missed }, hub);
    const system = (await messages(b, id)).filter((m) => m.type === 'SYSTEM');
    expect(system).toEqual([
      expect.objectContaining({ text: 'Missed call', system: { event: 'call.missed', userIds: [a.user.id, b.user.id] }, senderId: 'system' }),
    ]);
    // A call naming a conversation its parties are not both in writes nothing there.
    const forged = { ...missed, id: `call-${randomUUID()}`, conversationId: other } as CallRecord;
    await onCallWritten({ before: { ...forged, status: 'RINGING' } as CallRecord, after: forged }, hub);
    expect((await messages(b, other)).filter((m) => m.type === 'SYSTEM')).toEqual([]);
  });
});
