import { randomUUID } from 'node:crypto';
import { newUserRecord } from '../../../src/modules/users/users.model';
import { usersRepo } from '../../../src/modules/users/users.repo';
import { closeContextConversation, leaveContextConversation, openContextConversation } from '../../../src/modules/chat';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { expectPublished } from '../../helpers/contract';
import { allowDirectAdds, allowDirectAddsOf, openDirect, sendText } from '../../helpers/chat';
import { requireEmulators } from '../../helpers/emulators';
import { CHAT_BLOCKS, CHAT_MEMBERSHIPS, CHAT_REPORTS, CONVERSATIONS } from '../../../src/modules/chat/chat.collections';

beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const group = (owner: Person, memberIds: string[], title = 'Trip to Da Lat') =>
  call('POST', '/chat/conversations', { token: owner.accessToken, body: { type: 'GROUP', title, memberIds } });
const get = (who: Person, id: string) => call('GET', `/chat/conversations/${id}`, { token: who.accessToken });
// Scoped to one account: other test files create conversations at the same time.
const conversationsOf = async (userId: string) =>
  (await db().collection(CONVERSATIONS).where('memberIds', 'array-contains', userId).count().get()).data().count;

// Accounts written straight to Firestore: enough for membership checks and names, and fast for big groups.
async function plainAccounts(n: number, tag: string): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `chat-${tag}-${i}-${randomUUID().slice(0, 8)}`);
  // Whole account records (the users model's own), so other files' account lists read them like any account.
  await db().runTransaction(async (tx) => {
    for (const [i, id] of ids.entries())
      usersRepo.txCreate(tx, newUserRecord({ id, email: null, name: `Member ${i}`, passwordHash: null, emailVerified: true, provider: null, now: Date.now() }));
  });
  await allowDirectAddsOf(ids);
  return ids;
}

let alice: Person;
let bob: Person;
let carol: Person;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([registerVerified({ name: 'Alice' }), registerVerified({ name: 'Bob' }), registerVerified({ name: 'Carol' })]);
  await allowDirectAdds(bob, carol);
});

describe('direct conversations', () => {
  it('one per pair: created once (201), then returned to either side (200); titled with the other person', async () => {
    const [dave, erin] = [await registerVerified({ name: 'Dave' }), await registerVerified({ name: 'Erin' })];
    const created = await openDirect(dave, erin.user.id);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'DIRECT', title: 'Erin', memberCount: 2, unreadCount: 0, muted: false, lastMessage: null, ownerId: null });
    expect(created.body.members.map((m: { name: string }) => m.name).sort()).toEqual(['Dave', 'Erin']);
    const again = await openDirect(erin, dave.user.id);
    expect([again.status, again.body.id, again.body.title]).toEqual([200, created.body.id, 'Dave']);
    const racing = await Promise.all(Array.from({ length: 5 }, () => openDirect(dave, erin.user.id)));
    expect(new Set(racing.map((r) => r.body.id))).toEqual(new Set([created.body.id]));
  });

  it('not with myself (400) or someone unknown (404); nothing written', async () => {
    const before = await conversationsOf(alice.user.id);
    const self = await openDirect(alice, alice.user.id);
    expect([self.status, self.body.code]).toEqual([400, 'CHAT_SELF_CONVERSATION']);
    expect((await openDirect(alice, `nobody-${randomUUID()}`)).status).toBe(404);
    expect((await call('POST', '/chat/conversations', { token: alice.accessToken, body: { type: 'DIRECT' } })).status).toBe(400);
    expect((await call('POST', '/chat/conversations', { token: alice.accessToken, body: { type: 'CHANNEL', userId: bob.user.id } })).status).toBe(400);
    expect((await call('POST', '/chat/conversations', { body: { type: 'DIRECT', userId: bob.user.id } })).status).toBe(401);
    expect(await conversationsOf(alice.user.id)).toBe(before);
  });

  it('blocks: neither side can start one while either blocks the other; unblocking allows it', async () => {
    const [gus, hal] = [await registerVerified({ name: 'Gus' }), await registerVerified({ name: 'Hal' })];
    const blocked = await call('POST', `/chat/blocks/${hal.user.id}`, { token: gus.accessToken });
    expect([blocked.status, blocked.body.userId]).toEqual([200, hal.user.id]);
    expect((await call('POST', `/chat/blocks/${hal.user.id}`, { token: gus.accessToken })).body.createdAt).toBe(blocked.body.createdAt);
    for (const [from, to] of [
      [gus, hal],
      [hal, gus],
    ] as const) {
      const refused = await openDirect(from, to.user.id);
      expect([refused.status, refused.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    }
    expect((await call('GET', '/chat/blocks', { token: gus.accessToken })).body.items).toEqual([{ userId: hal.user.id, createdAt: blocked.body.createdAt }]);
    expect((await call('GET', '/chat/blocks', { token: hal.accessToken })).body.items).toEqual([]);
    const stored = await expectPublished('ChatBlockDocument', `${CHAT_BLOCKS}/${gus.user.id}_${hal.user.id}`);
    expect(stored.createdAt.toDate().toISOString()).toBe(blocked.body.createdAt);
    expect((await call('POST', `/chat/blocks/${gus.user.id}`, { token: gus.accessToken })).status).toBe(400);
    expect((await call('POST', `/chat/blocks/nobody-${randomUUID()}`, { token: gus.accessToken })).status).toBe(404);
    expect((await call('DELETE', `/chat/blocks/${hal.user.id}`, { token: gus.accessToken })).body).toEqual({ deleted: true });
    expect((await openDirect(hal, gus.user.id)).status).toBe(201);
  });
});

describe('groups', () => {
  it('the creator owns it; members are listed with names; strangers get 404', async () => {
    const res = await group(alice, [bob.user.id, carol.user.id, bob.user.id]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'GROUP', title: 'Trip to Da Lat', ownerId: alice.user.id, memberCount: 3 });
    expect(res.body.members.find((m: { userId: string }) => m.userId === alice.user.id)).toMatchObject({ role: 'OWNER', name: 'Alice' });
    const stranger = await registerVerified();
    expect((await get(stranger, res.body.id)).status).toBe(404);
    expect((await get(bob, res.body.id)).body.memberCount).toBe(3);
  });

  it('title: any member renames a group (not a direct conversation); bad titles are 400', async () => {
    const g = (await group(alice, [bob.user.id])).body;
    expect((await call('PATCH', `/chat/conversations/${g.id}`, { token: bob.accessToken, body: { title: 'Hue weekend' } })).body.title).toBe('Hue weekend');
    for (const title of ['', '   ', 'x'.repeat(101)])
      expect((await call('PATCH', `/chat/conversations/${g.id}`, { token: bob.accessToken, body: { title } })).status).toBe(400);
    const dm = (await openDirect(alice, carol.user.id)).body;
    const refused = await call('PATCH', `/chat/conversations/${dm.id}`, { token: alice.accessToken, body: { title: 'x' } });
    expect([refused.status, refused.body.code]).toEqual([409, 'CHAT_NOT_GROUP']);
    expect((await call('PATCH', `/chat/conversations/${g.id}`, { token: carol.accessToken, body: { title: 'x' } })).status).toBe(404);
  });

  it('the owner adds and removes; members cannot; a removed member loses access; leaving hands over ownership', async () => {
    const g = (await group(alice, [bob.user.id])).body;
    const add = (who: Person, userIds: string[]) => call('POST', `/chat/conversations/${g.id}/members`, { token: who.accessToken, body: { userIds } });
    expect((await add(bob, [carol.user.id])).body.code).toBe('CHAT_NOT_OWNER');
    expect((await add(alice, [carol.user.id])).body.memberCount).toBe(3);
    const twice = await add(alice, [carol.user.id]);
    expect([twice.status, twice.body.code, twice.body.details]).toEqual([409, 'CHAT_ALREADY_MEMBER', { userIds: [carol.user.id] }]);
    expect((await add(alice, [`nobody-${randomUUID()}`])).status).toBe(404);

    expect((await call('DELETE', `/chat/conversations/${g.id}/members/${carol.user.id}`, { token: bob.accessToken })).body.code).toBe('CHAT_NOT_OWNER');
    const removed = await call('DELETE', `/chat/conversations/${g.id}/members/${carol.user.id}`, { token: alice.accessToken });
    expect(removed.body.memberCount).toBe(2);
    expect((await get(carol, g.id)).status).toBe(404);
    expect((await sendText(carol, g.id, 'still here?')).status).toBe(404);
    expect((await call('GET', `/chat/conversations/${g.id}/messages`, { token: carol.accessToken })).status).toBe(404);
    expect(
      await db()
        .collection(CHAT_MEMBERSHIPS)
        .doc(`${g.id}_${carol.user.id}`)
        .get()
        .then((s) => s.exists),
    ).toBe(false);

    const left = await call('POST', `/chat/conversations/${g.id}/leave`, { token: alice.accessToken });
    expect(left.body).toEqual({ left: true, conversationId: g.id });
    const after = (await get(bob, g.id)).body;
    expect([after.ownerId, after.memberCount, after.members[0].role]).toEqual([bob.user.id, 1, 'OWNER']);
    // Each change left a SYSTEM message in the thread.
    const events = (await call('GET', `/chat/conversations/${g.id}/messages`, { token: bob.accessToken })).body.items.map(
      (m: { type: string; system: { event: string } }) => [m.type, m.system.event],
    );
    expect(events).toEqual([
      ['SYSTEM', 'member.left'],
      ['SYSTEM', 'member.removed'],
      ['SYSTEM', 'member.added'],
    ]);
    const dm = (await openDirect(alice, bob.user.id)).body;
    expect((await call('POST', `/chat/conversations/${dm.id}/leave`, { token: alice.accessToken })).body.code).toBe('CHAT_NOT_GROUP');
  });

  it('2 to 100 members: 100 is accepted, the 101st is refused (400 at creation, 409 when adding); invitations count', async () => {
    const members = await plainAccounts(100, 'big');
    expect((await group(alice, [])).status).toBe(400);
    expect((await group(alice, members)).status).toBe(400);
    const full = await group(alice, members.slice(0, 99));
    expect([full.status, full.body.memberCount]).toEqual([201, 100]);
    const over = await call('POST', `/chat/conversations/${full.body.id}/members`, { token: alice.accessToken, body: { userIds: [members[99]] } });
    expect([over.status, over.body.code]).toEqual([409, 'CHAT_GROUP_FULL']);
    // A pending invitation holds its seat: 99 members and one invitee leave no room.
    const invitee = await registerVerified();
    const almost = await group(alice, members.slice(0, 98));
    const invited = await call('POST', `/chat/conversations/${almost.body.id}/members`, { token: alice.accessToken, body: { userIds: [invitee.user.id] } });
    expect([invited.body.memberCount, invited.body.invitedIds]).toEqual([99, [invitee.user.id]]);
    const noRoom = await call('POST', `/chat/conversations/${almost.body.id}/members`, { token: alice.accessToken, body: { userIds: [members[99]] } });
    expect([noRoom.status, noRoom.body.code]).toEqual([409, 'CHAT_GROUP_FULL']);
  });

  it('a retried creation with the same Idempotency-Key makes one group', async () => {
    const key = `group-${randomUUID()}`;
    const body = { type: 'GROUP', title: 'Once', memberIds: [bob.user.id] };
    const [a, b] = [
      await call('POST', '/chat/conversations', { token: alice.accessToken, body, headers: { 'idempotency-key': key } }),
      await call('POST', '/chat/conversations', { token: alice.accessToken, body, headers: { 'idempotency-key': key } }),
    ];
    expect([a.status, b.status, b.body.id]).toEqual([201, 201, a.body.id]);
  });
});

describe('the conversation list', () => {
  it('newest activity first, with my unread count, the muted flag and member names; pages with a cursor', async () => {
    const [me, x, y] = [await registerVerified({ name: 'Me' }), await registerVerified({ name: 'Xuan' }), await registerVerified({ name: 'Yen' })];
    const withX = (await openDirect(me, x.user.id)).body;
    const withY = (await openDirect(me, y.user.id)).body;
    await sendText(x, withX.id, 'first');
    await new Promise((r) => setTimeout(r, 20));
    await sendText(y, withY.id, 'second');
    await call('PUT', `/notifications/mutes/${withY.id}`, { token: me.accessToken });
    const list = async (query = '') => (await call('GET', `/chat/conversations${query}`, { token: me.accessToken })).body;
    // The trigger moves the counters: wait until both show.
    const deadline = Date.now() + 30_000;
    let page = await list();
    while (page.items.some((c: { unreadCount: number }) => c.unreadCount === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      page = await list();
    }
    expect(page.items.map((c: { id: string }) => c.id)).toEqual([withY.id, withX.id]);
    expect(page.items[0]).toMatchObject({
      title: 'Yen',
      unreadCount: 1,
      muted: true,
      lastMessage: { preview: 'second', senderId: y.user.id },
      members: [{ userId: y.user.id, name: 'Yen' }],
    });
    expect(page.items[1]).toMatchObject({ title: 'Xuan', unreadCount: 1, muted: false });
    expect((await call('GET', '/chat/unread', { token: me.accessToken })).body).toEqual({ unreadCount: 2, conversations: 2 });
    const first = await list('?limit=1');
    expect(first.items.map((c: { id: string }) => c.id)).toEqual([withY.id]);
    const second = await list(`?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(second.items.map((c: { id: string }) => c.id)).toEqual([withX.id]);
    const foreign = await call('GET', `/chat/conversations?cursor=${encodeURIComponent(first.nextCursor)}`, { token: x.accessToken });
    expect([foreign.status, foreign.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });
});

describe('context conversations (rides, orders, bookings)', () => {
  it('opened once for the parties by the owning module; read-only once closed', async () => {
    const [rider, driver] = [await registerVerified({ name: 'Rider' }), await registerVerified({ name: 'Driver' })];
    const context = { type: 'RIDE' as const, id: `ride-${randomUUID()}` };
    const id = await openContextConversation(context, [
      { userId: rider.user.id, surface: 'CON' },
      { userId: driver.user.id, surface: 'DRV' },
    ]);
    expect(await openContextConversation(context, [{ userId: rider.user.id, surface: 'CON' }])).toBe(id);
    expect((await get(driver, id)).body).toMatchObject({ type: 'CONTEXT', context, closed: false, memberCount: 2 });
    expect((await sendText(rider, id, 'I am at the gate')).status).toBe(201);
    await closeContextConversation(context);
    await closeContextConversation(context);
    const refused = await sendText(driver, id, 'on my way');
    expect([refused.status, refused.body.code]).toEqual([409, 'CHAT_CLOSED']);
    expect((await get(rider, id)).body.closed).toBe(true);
    expect((await call('GET', `/chat/conversations/${id}/messages`, { token: driver.accessToken })).body.items).toHaveLength(1);
  });

  it('a party who left the entity (a courier who gave an order up) reads its conversation no more; twice is once', async () => {
    const [consumer, courier] = [await registerVerified({ name: 'Consumer' }), await registerVerified({ name: 'Courier' })];
    const context = { type: 'ORDER' as const, id: `order-${randomUUID()}` };
    const id = await openContextConversation(context, [
      { userId: consumer.user.id, surface: 'CON' },
      { userId: courier.user.id, surface: 'DRV' },
    ]);
    await leaveContextConversation(context, courier.user.id);
    await leaveContextConversation(context, courier.user.id);
    expect((await get(courier, id)).status).toBe(404);
    expect((await sendText(courier, id, 'still here?')).status).toBe(404);
    expect((await get(consumer, id)).body).toMatchObject({ memberCount: 1, closed: false });
    expect((await db().collection(CHAT_MEMBERSHIPS).where('conversationId', '==', id).get()).docs.map((d) => d.get('userId'))).toEqual([consumer.user.id]);
  });
});

describe('reports', () => {
  it('a member reports a message once; not their own; the admin queue lists and resolves it', async () => {
    const g = (await group(alice, [bob.user.id])).body;
    const message = (await sendText(alice, g.id, 'buy cheap watches')).body;
    const report = (who: Person, id = message.id) =>
      call('POST', `/chat/messages/${id}/report`, { token: who.accessToken, body: { reason: 'SPAM', note: 'again' } });
    const first = await report(bob);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      messageId: message.id,
      conversationId: g.id,
      reporterId: bob.user.id,
      senderId: alice.user.id,
      reason: 'SPAM',
      excerpt: 'buy cheap watches',
      status: 'OPEN',
    });
    const again = await report(bob);
    expect([again.status, again.body.id]).toEqual([200, first.body.id]);
    expect((await report(alice)).body.code).toBe('CHAT_OWN_MESSAGE');
    expect((await report(carol)).status).toBe(404);
    expect((await report(bob, `nope-${randomUUID()}`)).status).toBe(404);
    expect((await call('POST', `/chat/messages/${message.id}/report`, { token: bob.accessToken, body: { reason: 'BORED' } })).status).toBe(400);

    expect((await call('GET', '/chat/admin/reports', { token: bob.accessToken })).status).toBe(403);
    const admin = await adminTokens();
    const queue = (await call('GET', '/chat/admin/reports?limit=100', { token: admin.accessToken })).body.items;
    expect(queue.some((r: { id: string }) => r.id === first.body.id)).toBe(true);
    const resolved = await call('PATCH', `/chat/admin/reports/${first.body.id}`, { token: admin.accessToken, body: { status: 'ACTIONED' } });
    expect(resolved.body).toMatchObject({ status: 'ACTIONED', resolvedBy: admin.user.id, resolvedAt: expect.any(String) });
    expect((await call('PATCH', `/chat/admin/reports/${first.body.id}`, { token: admin.accessToken, body: { status: 'DISMISSED' } })).status).toBe(409);
    const actioned = (await call('GET', '/chat/admin/reports?status=ACTIONED&limit=100', { token: admin.accessToken })).body.items;
    expect(actioned.some((r: { id: string }) => r.id === first.body.id)).toBe(true);
  });

  it('two identical reports at once make one (201 and 200, one id); resolving again with the same status changes nothing', async () => {
    const g = (await group(alice, [bob.user.id, carol.user.id])).body;
    const message = (await sendText(alice, g.id, 'win a prize')).body;
    const report = (who: Person) => call('POST', `/chat/messages/${message.id}/report`, { token: who.accessToken, body: { reason: 'SPAM' } });
    const raced = await Promise.all([report(bob), report(bob)]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(raced[0].body.id).toBe(raced[1].body.id);
    const other = await report(carol);
    expect([other.status, other.body.id === raced[0].body.id]).toEqual([201, false]);
    expect((await db().collection(CHAT_REPORTS).where('messageId', '==', message.id).get()).size).toBe(2);

    const admin = await adminTokens();
    const resolve = (status: string) => call('PATCH', `/chat/admin/reports/${raced[0].body.id}`, { token: admin.accessToken, body: { status } });
    const first = await resolve('DISMISSED');
    const again = await resolve('DISMISSED');
    expect([again.status, again.body]).toEqual([200, first.body]);
  });
});
