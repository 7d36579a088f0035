import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { area, onlineDriver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { png } from '../../helpers/images';
import { inboxOf } from '../../helpers/notifications';
import { topUp } from '../../helpers/wallet';
import { db } from '../../../src/platform/core/firebase/firebase';
import { notificationHub } from '../../../src/modules/notifications';
import { SUPPORT_TICKETS, TICKET_MESSAGES } from '../../../src/modules/support/support.collections';
import { onTicketMessageCreated, onTicketWritten } from '../../../src/modules/support/support.notices';
import { onTicketAutoClose } from '../../../src/modules/support/support.tasks';

// The help desk through the API (in-process, on the emulators): a ticket's life by its owner and staff, privacy of
// tickets and internal notes, links to records of one's own only, notices from the triggers (delivered twice), the
// auto-close after the reopen window, the queue, assignment and canned replies.
beforeAll(requireEmulators);
const staff = withStaff();
const config = testConfig();

const open = (who: Tokens, body: Record<string, unknown>, key = randomUUID()) =>
  call('POST', '/support/tickets', { token: who.accessToken, body, headers: { 'idempotency-key': key } });
const ticketBody = (over: Record<string, unknown> = {}) => ({
  category: 'PAYMENT',
  subject: 'Charged twice',
  description: 'My top-up was charged twice.',
  ...over,
});
const userPost = (who: Tokens, id: string, body: Record<string, unknown>) => call('POST', `/support/tickets/${id}/messages`, { token: who.accessToken, body });
const staffPost = (who: Tokens, id: string, body: Record<string, unknown>) =>
  call('POST', `/support/admin/tickets/${id}/messages`, { token: who.accessToken, body });
const staffMove = (who: Tokens, id: string, path: string, body: Record<string, unknown> = {}) =>
  call('POST', `/support/admin/tickets/${id}/${path}`, { token: who.accessToken, body });
const threadOf = async (who: Tokens, id: string, admin = false) =>
  (await call('GET', `/support/${admin ? 'admin/' : ''}tickets/${id}/messages`, { token: who.accessToken })).body.items as Array<{
    from: string;
    body: string;
    internal?: boolean;
  }>;

/** The triggers as Functions would deliver them, from the stored documents (twice, as at-least-once delivery may). */
const ticketDoc = async (id: string) => (await db().collection(SUPPORT_TICKETS).doc(id).get()).data()!;
const deliverTicketWrite = (before: unknown, after: unknown, id: string) =>
  onTicketWritten(
    {
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: before ? { id, data: before } : undefined,
      after: { id, data: after },
    } as never,
    config,
    notificationHub(config),
  );
const deliverMessages = async (ticketId: string) => {
  const docs = (await db().collection(SUPPORT_TICKETS).doc(ticketId).collection(TICKET_MESSAGES).get()).docs;
  const outcomes: string[] = [];
  for (const d of docs)
    for (let i = 0; i < 2; i++)
      outcomes.push(
        await onTicketMessageCreated(
          { id: `evt-${randomUUID()}`, time: new Date().toISOString(), params: {}, before: undefined, after: { id: d.id, data: d.data() } } as never,
          config,
          notificationHub(config),
        ),
      );
  return outcomes;
};

describe('support tickets', () => {
  it('OPEN → IN_PROGRESS (staff reply) → WAITING_USER → IN_PROGRESS (owner reply) → RESOLVED → reopened → RESOLVED → CLOSED; internal notes stay with staff', async () => {
    const agent = await staff.limitedAdmin(['support.manage']);
    const owner = await registerVerified();
    const opened = await open(owner, ticketBody());
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'OPEN', category: 'PAYMENT', link: null, allowed: ['resolve', 'close'], replyExpectedBy: expect.any(String) });
    expect(opened.body.priority).toBeUndefined();
    const id = opened.body.id as string;
    // Payments answer within 4 hours.
    expect(Date.parse(opened.body.replyExpectedBy) - Date.parse(opened.body.createdAt)).toBe(4 * 3_600_000);

    const note = await staffPost(agent, id, { body: 'Owner has two MOCK top-ups; check the gateway log.', internal: true });
    // A note changes nothing the owner sees: not the status, the assignee, the answer times or when it last changed.
    expect([note.status, note.body.ticket.status, note.body.ticket.firstResponseAt, note.body.ticket.assigneeId]).toEqual([201, 'OPEN', null, null]);
    const seenByOwner = (await call('GET', `/support/tickets/${id}`, { token: owner.accessToken })).body;
    expect([seenByOwner.updatedAt, seenByOwner.lastMessageAt]).toEqual([opened.body.updatedAt, opened.body.lastMessageAt]);
    const reply = await staffPost(agent, id, { body: 'Could you send the receipt?', awaitUser: true });
    expect(reply.body.ticket).toMatchObject({ status: 'WAITING_USER', assigneeId: agent.user.id, firstResponseAt: expect.any(String), priority: 'HIGH' });

    const form = new FormData();
    form.append('file', new Blob([png()], { type: 'image/png' }), 'receipt.png');
    const receipt = (await call('POST', '/upload/image', { token: owner.accessToken, form })).body.id as string;
    const answered = await userPost(owner, id, { body: 'Here it is.', attachments: [receipt] });
    expect(answered.status).toBe(201);
    expect(answered.body.ticket.status).toBe('IN_PROGRESS');
    expect(answered.body.message.attachments).toEqual([expect.objectContaining({ id: receipt, kind: 'IMAGE' })]);

    // The owner's thread never holds the internal note; staff's does.
    expect((await threadOf(owner, id)).map((m) => [m.from, m.body])).toEqual([
      ['USER', 'My top-up was charged twice.'],
      ['STAFF', 'Could you send the receipt?'],
      ['USER', 'Here it is.'],
    ]);
    expect((await threadOf(agent, id, true)).filter((m) => m.internal).map((m) => m.body)).toEqual(['Owner has two MOCK top-ups; check the gateway log.']);

    expect((await staffMove(agent, id, 'resolve', { note: 'Refunded by hand: suspected gateway fault' })).body).toMatchObject({
      status: 'RESOLVED',
      reopenableUntil: expect.any(String),
    });
    const resolved = await call('GET', `/support/tickets/${id}`, { token: owner.accessToken });
    expect(Date.parse(resolved.body.reopenableUntil) - Date.parse(resolved.body.resolvedAt)).toBe(7 * 24 * 3_600_000);
    expect(resolved.body.allowed).toEqual(['reopen', 'close']);
    expect((await call('POST', `/support/tickets/${id}/reopen`, { token: owner.accessToken, body: { note: 'Still charged twice' } })).body.status).toBe(
      'IN_PROGRESS',
    );
    expect((await call('POST', `/support/tickets/${id}/resolve`, { token: owner.accessToken, body: {} })).body.status).toBe('RESOLVED');
    const rated = await call('POST', `/support/tickets/${id}/rating`, { token: owner.accessToken, body: { score: 5, comment: 'Quick' } });
    expect(rated.body.rating).toMatchObject({ score: 5, comment: 'Quick' });
    // The same rating again (a retry) is the rated ticket; another is refused.
    expect((await call('POST', `/support/tickets/${id}/rating`, { token: owner.accessToken, body: { score: 5, comment: 'Quick' } })).status).toBe(200);
    expect((await call('POST', `/support/tickets/${id}/rating`, { token: owner.accessToken, body: { score: 1 } })).body.code).toBe('TICKET_RATING_NOT_ALLOWED');
    expect((await call('POST', `/support/tickets/${id}/close`, { token: owner.accessToken, body: {} })).body.status).toBe('CLOSED');
    const late = await userPost(owner, id, { body: 'One more thing' });
    expect([late.status, late.body.code]).toEqual([409, 'TICKET_CLOSED']);
    expect((await call('POST', `/support/tickets/${id}/reopen`, { token: owner.accessToken, body: {} })).body.code).toBe('TICKET_TRANSITION');

    const history = await call('GET', `/support/tickets/${id}/history`, { token: owner.accessToken });
    // Staff's note on a move is staff's: the owner sees their own reasons only.
    expect(history.body.items.map((m: { action: string; by: string; reason: string | null }) => [m.action, m.by, m.reason])).toEqual([
      ['awaitUser', 'support', null],
      ['userReplied', 'you', null],
      ['resolve', 'support', null],
      ['reopen', 'you', 'Still charged twice'],
      ['resolve', 'you', null],
      ['close', 'you', null],
    ]);
    const staffHistory = await call('GET', `/support/admin/tickets/${id}/history`, { token: agent.accessToken });
    expect(staffHistory.body.items[0]).toMatchObject({ action: 'awaitUser', by: agent.user.id });
    expect(staffHistory.body.items[2]).toMatchObject({ action: 'resolve', reason: 'Refunded by hand: suspected gateway fault' });
  });

  it('someone else’s ticket, thread and moves are 404; staff routes need support.manage; bad input is 400 or 422 with nothing written', async () => {
    const owner = await registerVerified();
    const stranger = await registerVerified();
    const id = (await open(owner, ticketBody())).body.id as string;
    for (const [method, path, body] of [
      ['GET', `/support/tickets/${id}`, undefined],
      ['GET', `/support/tickets/${id}/messages`, undefined],
      ['GET', `/support/tickets/${id}/history`, undefined],
      ['POST', `/support/tickets/${id}/messages`, { body: 'Let me in' }],
      ['POST', `/support/tickets/${id}/close`, {}],
      ['POST', `/support/tickets/${id}/rating`, { score: 5 }],
    ] as const)
      expect([path, (await call(method, path, { token: stranger.accessToken, body })).status]).toEqual([path, 404]);
    expect((await call('GET', '/support/tickets', { token: stranger.accessToken })).body.items).toEqual([]);

    // An administrator without support.manage, and a plain user, are refused staff routes.
    const other = await staff.limitedAdmin(['users.manage']);
    expect((await call('GET', `/support/admin/tickets/${id}`, { token: other.accessToken })).body.code).toBe('PERMISSION_REQUIRED');
    expect((await call('GET', '/support/admin/tickets', { token: owner.accessToken })).status).toBe(403);
    expect((await staffPost(owner, id, { body: 'I am staff' })).status).toBe(403);

    for (const body of [
      {},
      ticketBody({ category: 'LOTTERY' }),
      ticketBody({ subject: 'ab' }),
      ticketBody({ description: 'x'.repeat(4001) }),
      ticketBody({ attachments: Array.from({ length: 6 }, () => 'm1') }),
      ticketBody({ link: { type: 'RIDE', id: 'a/b' } }),
      ticketBody({ link: { type: 'SHIP', id: 'x' } }),
    ])
      expect((await open(stranger, body)).status).toBe(400);
    // 4,000 emoji are 4,000 characters (code points), accepted.
    expect((await open(stranger, ticketBody({ description: '😀'.repeat(4000) }))).status).toBe(201);
    // Another user's upload, or one that is not there.
    const form = new FormData();
    form.append('file', new Blob([png()], { type: 'image/png' }), 'x.png');
    const ownersImage = (await call('POST', '/upload/image', { token: owner.accessToken, form })).body.id as string;
    const stolen = await open(stranger, ticketBody({ attachments: [ownersImage] }));
    expect([stolen.status, stolen.body.code, stolen.body.details]).toEqual([422, 'TICKET_ATTACHMENT_INVALID', { mediaId: ownersImage }]);
    // Script is stored and answered as the text it is.
    const script = await open(stranger, ticketBody({ subject: '<script>alert(1)</script>' }));
    expect(script.body.subject).toBe('<script>alert(1)</script>');
    expect((await call('GET', '/support/tickets', { token: stranger.accessToken })).body.items).toHaveLength(2);
    expect((await userPost(owner, id, { body: '' })).status).toBe(400);
    expect((await call('GET', '/support/tickets')).status).toBe(401);
  });

  it('a link to a ride or payment of one’s own is kept; someone else’s, or a missing one, is 422 TICKET_LINK_NOT_FOUND', async () => {
    const rider = await registerVerified();
    const here = area();
    const ride = await call('POST', '/rides', {
      token: rider.accessToken,
      body: { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(ride.body.status).toBe('NO_DRIVER');
    const payment = await topUp(rider, 50_000);
    const mine = await open(rider, ticketBody({ category: 'RIDE', link: { type: 'RIDE', id: ride.body.id } }));
    expect([mine.status, mine.body.link]).toEqual([201, { type: 'RIDE', id: ride.body.id }]);
    expect((await open(rider, ticketBody({ link: { type: 'PAYMENT', id: payment.id } }))).status).toBe(201);

    const other = await registerVerified();
    for (const link of [
      { type: 'RIDE', id: ride.body.id },
      { type: 'PAYMENT', id: payment.id },
      { type: 'ORDER', id: 'no-such-order' },
      { type: 'BOOKING', id: 'no-such-booking' },
    ]) {
      const refused = await open(other, ticketBody({ link }));
      expect([link.type, refused.status, refused.body.code]).toEqual([link.type, 422, 'TICKET_LINK_NOT_FOUND']);
    }
    expect((await call('GET', '/support/tickets', { token: other.accessToken })).body.items).toEqual([]);
  });

  it('a retried opening with its key is one ticket; three racing replies are three messages, counted', async () => {
    const owner = await registerVerified();
    const key = randomUUID();
    const [a, b] = await Promise.all([open(owner, ticketBody(), key), open(owner, ticketBody(), key)]);
    const replay = await open(owner, ticketBody(), key);
    // One runs the opening; the other replays it (201) or finds it still running (409 IDEMPOTENCY_IN_PROGRESS).
    expect([a.status, b.status]).toContain(201);
    for (const r of [a, b]) expect(r.status === 201 || (r.status === 409 && r.body.code === 'IDEMPOTENCY_IN_PROGRESS')).toBe(true);
    expect(replay.body.id).toBe(a.status === 201 ? a.body.id : b.body.id);
    expect((await call('GET', '/support/tickets', { token: owner.accessToken })).body.items).toHaveLength(1);
    const id = replay.body.id as string;
    const posted = await Promise.all(['one', 'two', 'three'].map((body) => userPost(owner, id, { body })));
    expect(posted.map((r) => r.status)).toEqual([201, 201, 201]);
    const agent = await staff.limitedAdmin(['support.manage']);
    expect((await call('GET', `/support/admin/tickets/${id}`, { token: agent.accessToken })).body.messageCount).toBe(4);
  });

  it('notices: staff replies and moves reach the owner once each (events delivered twice); notes, the owner’s own moves and messages do not', async () => {
    const agent = await staff.limitedAdmin(['support.manage']);
    const owner = await registerVerified();
    const id = (await open(owner, ticketBody({ surface: 'CON' }))).body.id as string;
    await staffPost(agent, id, { body: 'Internal: refund pending', internal: true });
    await staffPost(agent, id, { body: 'We are refunding the second charge.' });
    await userPost(owner, id, { body: 'Thanks!' });
    expect((await deliverMessages(id)).sort()).toEqual(['ignored', 'ignored', 'ignored', 'ignored', 'ignored', 'ignored', 'notified', 'notified']);

    const before = await ticketDoc(id);
    await staffMove(agent, id, 'resolve');
    const after = await ticketDoc(id);
    expect(await deliverTicketWrite(before, after, id)).toBe('notified');
    expect(await deliverTicketWrite(before, after, id)).toBe('notified');
    const inbox = await inboxOf(owner.user.id);
    const reply = inbox.filter((n) => n.event === 'support.ticket.reply');
    const status = inbox.filter((n) => n.event === 'support.ticket.status');
    expect(reply).toHaveLength(1);
    expect(reply[0]).toMatchObject({
      kind: 'SYSTEM',
      surface: 'CON',
      body: 'We are refunding the second charge.',
      data: { deepLink: { tab: 'AccountTab', screen: 'SupportTicket', params: expect.objectContaining({ ticketId: id }) } },
    });
    expect(status).toHaveLength(1);
    expect(status[0].body).toBe('Your request "Charged twice" has been resolved');

    // The owner's own move tells nobody.
    const resolved = await ticketDoc(id);
    await call('POST', `/support/tickets/${id}/reopen`, { token: owner.accessToken, body: {} });
    expect(await deliverTicketWrite(resolved, await ticketDoc(id), id)).toBe('ignored');
  });

  it('a RESOLVED ticket past its reopen window reads CLOSED, refuses a reopen, and its task closes it (a second run changes nothing)', async () => {
    const agent = await staff.limitedAdmin(['support.manage']);
    const owner = await registerVerified();
    const id = (await open(owner, ticketBody())).body.id as string;
    await staffMove(agent, id, 'resolve');
    // Before the window ends the task leaves it alone (asks to be retried later).
    await expect(onTicketAutoClose({ ticketId: id }, config)).rejects.toThrow(/is not due yet .*retry later/);
    expect((await ticketDoc(id)).status).toBe('RESOLVED');
    // Seven days later (the stored end moved into the past).
    await db()
      .collection(SUPPORT_TICKETS)
      .doc(id)
      .update({ closeAt: Date.now() - 1_000 });
    expect((await call('GET', `/support/tickets/${id}`, { token: owner.accessToken })).body).toMatchObject({ status: 'CLOSED', reopenableUntil: null });
    const reopen = await call('POST', `/support/tickets/${id}/reopen`, { token: owner.accessToken, body: {} });
    expect([reopen.status, reopen.body.code]).toEqual([409, 'TICKET_TRANSITION']);
    // The refused move committed the lazy close.
    expect((await ticketDoc(id)).status).toBe('CLOSED');
    await onTicketAutoClose({ ticketId: id }, config);
    const history = await call('GET', `/support/tickets/${id}/history`, { token: owner.accessToken });
    expect(history.body.items.map((m: { action: string; by: string }) => [m.action, m.by])).toEqual([
      ['resolve', 'support'],
      ['autoClose', 'system'],
    ]);
  });

  it('the queue filters by status, category, priority and assignee; assignment takes support staff only; canned replies in the owner’s language', async () => {
    const agent = await staff.limitedAdmin(['support.manage']);
    const outsider = await staff.limitedAdmin(['users.manage']);
    const owner = await registerVerified();
    const safety = (await open(owner, ticketBody({ category: 'SAFETY', subject: 'Driver drove dangerously' }))).body.id as string;
    const other = (await open(owner, ticketBody({ category: 'OTHER', subject: 'App question' }))).body.id as string;
    const urgent = await call('GET', '/support/admin/tickets?category=SAFETY&status=OPEN&priority=URGENT&assignee=none&limit=100', {
      token: agent.accessToken,
    });
    expect(urgent.body.items.map((t: { id: string }) => t.id)).toContain(safety);
    expect(urgent.body.items.map((t: { id: string }) => t.id)).not.toContain(other);

    const refused = await call('POST', `/support/admin/tickets/${safety}/assign`, { token: agent.accessToken, body: { assigneeId: outsider.user.id } });
    expect([refused.status, refused.body.code]).toEqual([422, 'TICKET_ASSIGNEE_INVALID']);
    expect(
      (await call('POST', `/support/admin/tickets/${safety}/assign`, { token: agent.accessToken, body: { assigneeId: agent.user.id } })).body.assigneeId,
    ).toBe(agent.user.id);
    const mineNow = await call('GET', '/support/admin/tickets?assignee=me', { token: agent.accessToken });
    expect(mineNow.body.items.map((t: { id: string }) => t.id)).toEqual([safety]);
    const patched = await call('PATCH', `/support/admin/tickets/${other}`, { token: agent.accessToken, body: { priority: 'HIGH' } });
    expect(patched.body).toMatchObject({ priority: 'HIGH', category: 'OTHER' });
    // Who assigned and triaged is in staff's history (a line that moves no status), not in the owner's.
    const trail = (await call('GET', `/support/admin/tickets/${safety}/history`, { token: agent.accessToken })).body.items;
    expect(trail.map((m: { action: string; from: string; to: string; by: string; reason: string }) => [m.action, m.from, m.to, m.by, m.reason])).toEqual([
      ['assign', 'OPEN', 'OPEN', agent.user.id, `assignee: ${agent.user.id}`],
    ]);
    expect((await call('GET', `/support/tickets/${safety}/history`, { token: owner.accessToken })).body.items).toEqual([]);
    expect(
      (await call('GET', '/support/admin/tickets?priority=HIGH&category=OTHER&limit=100', { token: agent.accessToken })).body.items.map(
        (t: { id: string }) => t.id,
      ),
    ).toContain(other);
    expect((await call('PATCH', `/support/admin/tickets/${other}`, { token: agent.accessToken, body: {} })).status).toBe(400);

    const canned = await call('POST', '/support/admin/canned-replies', {
      token: agent.accessToken,
      body: { title: 'Refund on its way', body: { vi: 'Chúng tôi đã hoàn tiền.', en: 'We have refunded you.' }, category: 'PAYMENT' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(canned.status).toBe(201);
    const cannedId = canned.body.id as string;
    expect(
      (await call('GET', '/support/admin/canned-replies?category=PAYMENT&limit=100', { token: agent.accessToken })).body.items.map((c: { id: string }) => c.id),
    ).toContain(cannedId);
    // The test client's accounts are English.
    const sent = await staffPost(agent, other, { cannedReplyId: cannedId });
    expect(sent.body.message.body).toBe('We have refunded you.');
    expect((await call('PATCH', `/support/admin/canned-replies/${cannedId}`, { token: agent.accessToken, body: { title: 'Refunded' } })).body).toMatchObject({
      title: 'Refunded',
      category: 'PAYMENT',
    });
    expect((await call('GET', `/support/admin/canned-replies/${cannedId}`, { token: agent.accessToken })).body.title).toBe('Refunded');
    expect((await call('DELETE', `/support/admin/canned-replies/${cannedId}`, { token: agent.accessToken })).body).toEqual({ deleted: true });
    expect((await call('DELETE', `/support/admin/canned-replies/${cannedId}`, { token: agent.accessToken })).body.code).toBe('SUPPORT_CANNED_NOT_FOUND');
    expect((await staffPost(agent, other, { cannedReplyId: cannedId })).body.code).toBe('SUPPORT_CANNED_NOT_FOUND');
    expect((await staffPost(agent, other, {})).status).toBe(400);
    expect((await call('GET', '/support/admin/canned-replies', { token: outsider.accessToken })).status).toBe(403);

    // Staff's explicit moves, and one the status does not allow.
    expect((await staffMove(agent, safety, 'start')).body.status).toBe('IN_PROGRESS');
    expect((await staffMove(agent, safety, 'await-user')).body).toMatchObject({ status: 'WAITING_USER', allowed: ['start', 'resolve', 'close'] });
    expect((await staffMove(agent, safety, 'start')).body.status).toBe('IN_PROGRESS');
    expect((await staffMove(agent, safety, 'close')).body).toMatchObject({ status: 'CLOSED', closedAt: expect.any(String), allowed: [] });
    // A retried move finds it made (200, as it is); a move the status does not allow is 409.
    const closedAgain = await staffMove(agent, safety, 'close');
    expect([closedAgain.status, closedAgain.body.status]).toEqual([200, 'CLOSED']);
    const late = await staffMove(agent, safety, 'start');
    expect([late.status, late.body.code]).toEqual([409, 'TICKET_TRANSITION']);
    expect((await staffMove(outsider, safety, 'start')).body.code).toBe('PERMISSION_REQUIRED');
    expect((await staffMove(agent, 'no-such-ticket', 'start')).status).toBe(404);
  });

  it('a ride is its rider’s to link: its driver, who may read it, gets 422 TICKET_LINK_NOT_FOUND', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = await call('POST', '/rides', {
      token: rider.accessToken,
      body: { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(ride.body).toMatchObject({ status: 'CONFIRMED', driverId: driver.user.id });
    expect((await call('GET', `/rides/${ride.body.id}`, { token: driver.accessToken })).status).toBe(200);
    const refused = await open(driver, ticketBody({ category: 'RIDE', link: { type: 'RIDE', id: ride.body.id } }));
    expect([refused.status, refused.body.code]).toEqual([422, 'TICKET_LINK_NOT_FOUND']);
    expect((await open(rider, ticketBody({ category: 'RIDE', link: { type: 'RIDE', id: ride.body.id } }))).status).toBe(201);
  });

  it('a ticket its owner resolved and nobody reopened closes by itself, and the owner is told (delivered twice: once)', async () => {
    const owner = await registerVerified();
    const id = (await open(owner, ticketBody())).body.id as string;
    await call('POST', `/support/tickets/${id}/resolve`, { token: owner.accessToken, body: {} });
    await db()
      .collection(SUPPORT_TICKETS)
      .doc(id)
      .update({ closeAt: Date.now() - 1_000 });
    const before = await ticketDoc(id);
    await onTicketAutoClose({ ticketId: id }, config);
    const after = await ticketDoc(id);
    expect(after).toMatchObject({ status: 'CLOSED', lastMove: { action: 'autoClose', by: 'system:ticket-auto-close' } });
    expect(await deliverTicketWrite(before, after, id)).toBe('notified');
    expect(await deliverTicketWrite(before, after, id)).toBe('notified');
    const told = (await inboxOf(owner.user.id)).filter((n) => n.event === 'support.ticket.status');
    expect(told.map((n) => n.body)).toEqual(['Your request "Charged twice" has been closed']);
  });

  it('a full thread refuses the owner’s messages (409 TICKET_THREAD_FULL); staff still answer and close it', async () => {
    const agent = await staff.limitedAdmin(['support.manage']);
    const owner = await registerVerified();
    const id = (await open(owner, ticketBody())).body.id as string;
    await db().collection(SUPPORT_TICKETS).doc(id).update({ messageCount: 500 });
    const refused = await userPost(owner, id, { body: 'One more' });
    expect([refused.status, refused.body.code]).toEqual([409, 'TICKET_THREAD_FULL']);
    expect((await staffPost(agent, id, { body: 'Let us continue in a new ticket.' })).status).toBe(201);
    expect((await staffMove(agent, id, 'close')).body.status).toBe('CLOSED');
  });

  it('categories are public to signed-in users with their service levels', async () => {
    const user = await registerVerified();
    const res = await call('GET', '/support/categories', { token: user.accessToken });
    expect(res.body.items.find((c: { category: string }) => c.category === 'SAFETY')).toMatchObject({ firstResponseHours: 1, resolveHours: 24 });
    expect(res.body.items).toHaveLength(7);
  });
});
