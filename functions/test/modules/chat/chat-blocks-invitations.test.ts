import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { allowDirectAdds, openDirect, sendText } from '../../helpers/chat';
import { requireEmulators } from '../../helpers/emulators';
import { CALLS, CHAT_BLOCK_LISTS, CHAT_INVITATIONS, CHAT_MEMBERSHIPS, CONVERSATIONS, MESSAGES } from '../../../src/modules/chat/chat.collections';
import { EVENTS } from '../../../src/platform/kits/state-machine/state-machine';

beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const group = (owner: Person, members: Person[]) =>
  call('POST', '/chat/conversations', { token: owner.accessToken, body: { type: 'GROUP', title: 'Hội An', memberIds: members.map((m) => m.user.id) } });
const add = (owner: Person, id: string, members: Person[]) =>
  call('POST', `/chat/conversations/${id}/members`, { token: owner.accessToken, body: { userIds: members.map((m) => m.user.id) } });
const block = (who: Person, other: Person) => call('POST', `/chat/blocks/${other.user.id}`, { token: who.accessToken });
const unblock = (who: Person, other: Person) => call('DELETE', `/chat/blocks/${other.user.id}`, { token: who.accessToken });
const invitations = async (who: Person, status = 'PENDING') =>
  (await call('GET', `/chat/invitations?status=${status}`, { token: who.accessToken })).body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
const answer = (who: Person, id: string, action: 'accept' | 'decline') => call('POST', `/chat/invitations/${id}/${action}`, { token: who.accessToken });
const messageCount = async (conversationId: string) => (await db().collection(`${CONVERSATIONS}/${conversationId}/${MESSAGES}`).count().get()).data().count;
const startCall = (caller: Person, callee: Person) => call('POST', '/chat/calls', { token: caller.accessToken, body: { calleeId: callee.user.id } });

describe('a block stops a direct conversation and calls, both ways', () => {
  it('messages in an existing direct conversation: 403 CHAT_BLOCKED from either side, nothing written; unblocking restores them', async () => {
    const [a, b] = [await registerVerified({ name: 'An' }), await registerVerified({ name: 'Bình' })];
    const dm = (await openDirect(a, b.user.id)).body.id as string;
    expect((await sendText(b, dm, 'xin chào')).status).toBe(201);
    expect((await block(a, b)).status).toBe(200);
    const before = await messageCount(dm);
    for (const [from, text] of [
      [a, 'from the blocker'],
      [b, 'from the blocked'],
    ] as const) {
      const refused = await sendText(from, dm, text);
      expect([refused.status, refused.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    }
    // A keyed retry is refused too (it must not slip through as a replay of nothing).
    const keyed = await call('POST', `/chat/conversations/${dm}/messages`, {
      token: b.accessToken,
      body: { type: 'TEXT', text: 'again' },
      headers: { 'idempotency-key': `blocked-${dm}` },
    });
    expect([keyed.status, keyed.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    expect(await messageCount(dm)).toBe(before);
    // Reading the history stays possible.
    expect((await call('GET', `/chat/conversations/${dm}/messages`, { token: b.accessToken })).status).toBe(200);

    expect((await unblock(a, b)).status).toBe(200);
    expect((await sendText(b, dm, 'làm lành nhé')).status).toBe(201);
    expect((await sendText(a, dm, 'ok')).status).toBe(201);
    // The other direction: the second person's block stops the first person's messages as well.
    await block(b, a);
    expect((await sendText(a, dm, 'hello?')).body.code).toBe('CHAT_BLOCKED');
    await unblock(b, a);
    expect((await sendText(a, dm, 'hello!')).status).toBe(201);
  });

  it('calls: neither side starts one while either blocks; a block made while it rings stops the answer; unblocking restores calls', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    await block(b, a);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const refused = await startCall(from, to);
      expect([refused.status, refused.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    }
    expect((await db().collection(CALLS).where('participants', 'array-contains', a.user.id).count().get()).data().count).toBe(0);
    await unblock(b, a);
    const ringing = await startCall(a, b);
    expect([ringing.status, ringing.body.status]).toEqual([201, 'RINGING']);
    await block(a, b);
    const answered = await call('POST', `/chat/calls/${ringing.body.id}/answer`, { token: b.accessToken });
    expect([answered.status, answered.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    // It can still be put down.
    expect((await call('POST', `/chat/calls/${ringing.body.id}/decline`, { token: b.accessToken })).body.status).toBe('DECLINED');
    await unblock(a, b);
    const again = await startCall(b, a);
    expect(again.body.status).toBe('RINGING');
    expect((await call('POST', `/chat/calls/${again.body.id}/answer`, { token: a.accessToken })).body.status).toBe('ACTIVE');
    await call('POST', `/chat/calls/${again.body.id}/end`, { token: a.accessToken });
  });
});

describe('group invitations', () => {
  it('by default an added person is invited, not a member; accepting joins the group; the invitation cannot be answered twice', async () => {
    const [owner, guest] = [await registerVerified({ name: 'Owner' }), await registerVerified({ name: 'Guest' })];
    expect((await call('GET', '/chat/preferences', { token: guest.accessToken })).body).toEqual({ groupAdds: 'INVITATION' });
    const created = await group(owner, [guest]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ memberCount: 1, invitedIds: [guest.user.id] });
    const id = created.body.id as string;
    // Not a member yet: no access, no membership, no messages.
    expect((await call('GET', `/chat/conversations/${id}`, { token: guest.accessToken })).status).toBe(404);
    expect((await sendText(guest, id, 'hi')).status).toBe(404);
    expect((await db().collection(CHAT_MEMBERSHIPS).doc(`${id}_${guest.user.id}`).get()).exists).toBe(false);

    const [invitation] = await invitations(guest);
    expect(invitation).toMatchObject({
      conversationId: id,
      title: 'Hội An',
      invitedBy: { id: owner.user.id, name: 'Owner' },
      status: 'PENDING',
      respondedAt: null,
    });
    // Nobody else answers it (it is not theirs to see).
    expect((await answer(owner, invitation.id, 'accept')).status).toBe(404);
    expect((await answer(guest, 'no-such-invitation', 'accept')).status).toBe(404);

    const accepted = await answer(guest, invitation.id, 'accept');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id, memberCount: 2, invitedIds: [] });
    expect((await sendText(guest, id, 'chào cả nhà')).status).toBe(201);
    const events = (await call('GET', `/chat/conversations/${id}/messages`, { token: owner.accessToken })).body.items.map(
      (m: { system: { event: string } | null }) => m.system?.event ?? 'text',
    );
    expect(events).toEqual(['text', 'member.joined']);
    const twice = await answer(guest, invitation.id, 'decline');
    expect([twice.status, twice.body.code, twice.body.details.status]).toEqual([409, 'CHAT_INVITATION_TRANSITION', 'ACCEPTED']);
    expect(await invitations(guest)).toEqual([]);
    expect((await invitations(guest, 'ACCEPTED')).map((i) => i.id)).toEqual([invitation.id]);
    // The move is on the invitation's audit trail.
    const trail = (await db().collection(`${CHAT_INVITATIONS}/${invitation.id}/${EVENTS}`).get()).docs.map((d) => d.data());
    expect(trail).toMatchObject([{ action: 'accept', from: 'PENDING', to: 'ACCEPTED', by: guest.user.id }]);
  });

  it('declining: not a member, and the owner cannot invite again (409 CHAT_INVITATION_DECLINED)', async () => {
    const [owner, member, guest] = [await registerVerified(), await registerVerified(), await registerVerified()];
    await allowDirectAdds(member);
    const g = (await group(owner, [member])).body;
    expect(g).toMatchObject({ memberCount: 2, invitedIds: [] });
    const invited = await add(owner, g.id, [guest]);
    expect(invited.body).toMatchObject({ memberCount: 2, invitedIds: [guest.user.id] });
    // Adding again while it is pending changes nothing.
    expect((await add(owner, g.id, [guest])).body.invitedIds).toEqual([guest.user.id]);
    expect(await invitations(guest)).toHaveLength(1);
    const [invitation] = await invitations(guest);
    const declined = await answer(guest, invitation.id, 'decline');
    expect(declined.body).toMatchObject({ id: invitation.id, status: 'DECLINED' });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: owner.accessToken })).body).toMatchObject({ memberCount: 2, invitedIds: [] });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: guest.accessToken })).status).toBe(404);
    expect((await answer(guest, invitation.id, 'accept')).body.code).toBe('CHAT_INVITATION_TRANSITION');
    const again = await add(owner, g.id, [guest]);
    expect([again.status, again.body.code, again.body.details]).toEqual([409, 'CHAT_INVITATION_DECLINED', { userIds: [guest.user.id] }]);
    expect(await invitations(guest)).toEqual([]);
  });

  it('the DIRECT preference: added at once; one who left is invited again after an accepted invitation', async () => {
    const [owner, open, guest] = [await registerVerified({ name: 'Chủ' }), await registerVerified({ name: 'Mở' }), await registerVerified()];
    const set = await call('PUT', '/chat/preferences', { token: open.accessToken, body: { groupAdds: 'DIRECT' } });
    expect(set.body).toEqual({ groupAdds: 'DIRECT' });
    expect((await call('GET', '/chat/preferences', { token: open.accessToken })).body).toEqual({ groupAdds: 'DIRECT' });
    for (const body of [{ groupAdds: 'ANYONE' }, {}, { groupAdds: 'DIRECT', extra: 1 }])
      expect((await call('PUT', '/chat/preferences', { token: open.accessToken, body })).status).toBe(400);
    const g = (await group(owner, [open, guest])).body;
    expect(g).toMatchObject({ memberCount: 2, invitedIds: [guest.user.id] });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: open.accessToken })).status).toBe(200);
    expect(await invitations(open)).toEqual([]);

    const [invitation] = await invitations(guest);
    await answer(guest, invitation.id, 'accept');
    await call('POST', `/chat/conversations/${g.id}/leave`, { token: guest.accessToken });
    const reinvited = await add(owner, g.id, [guest]);
    expect(reinvited.body).toMatchObject({ memberCount: 2, invitedIds: [guest.user.id] });
    expect((await invitations(guest)).map((i) => i.status)).toEqual(['PENDING']);
    expect((await answer(guest, invitation.id, 'accept')).body.memberCount).toBe(3);
  });

  it('the owner withdraws a pending invitation (DELETE …/members/{userId}); adding again invites anew', async () => {
    const [owner, member, guest] = [await registerVerified(), await registerVerified(), await registerVerified()];
    await allowDirectAdds(member);
    const g = (await group(owner, [member, guest])).body;
    const [invitation] = await invitations(guest);
    const remove = (who: Person) => call('DELETE', `/chat/conversations/${g.id}/members/${guest.user.id}`, { token: who.accessToken });
    expect((await remove(member)).body.code).toBe('CHAT_NOT_OWNER');
    const withdrawn = await remove(owner);
    expect(withdrawn.body).toMatchObject({ memberCount: 2, invitedIds: [] });
    expect((await invitations(guest, 'WITHDRAWN')).map((i) => i.id)).toEqual([invitation.id]);
    expect((await answer(guest, invitation.id, 'accept')).body).toMatchObject({ code: 'CHAT_INVITATION_TRANSITION', details: { status: 'WITHDRAWN' } });
    expect((await remove(owner)).status).toBe(404);
    expect((await add(owner, g.id, [guest])).body.invitedIds).toEqual([guest.user.id]);
    expect((await answer(guest, invitation.id, 'accept')).body.memberCount).toBe(3);
    // No SYSTEM message about an invitee who never joined; one when they did.
    const events = (await call('GET', `/chat/conversations/${g.id}/messages`, { token: owner.accessToken })).body.items.map(
      (m: { system: { event: string } | null }) => m.system?.event,
    );
    expect(events).toEqual(['member.joined']);
  });

  it('nobody either side blocks is added or invited (403 CHAT_BLOCKED), at creation or later', async () => {
    const [owner, blocker, open] = [await registerVerified(), await registerVerified(), await registerVerified()];
    await allowDirectAdds(blocker, open);
    await block(blocker, owner);
    const refused = await group(owner, [open, blocker]);
    // Who blocks the caller is not told (details name only those the caller blocks).
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([403, 'CHAT_BLOCKED', { userIds: [] }]);
    const g = (await group(owner, [open])).body;
    const added = await add(owner, g.id, [blocker]);
    expect([added.body.code, added.body.details]).toEqual(['CHAT_BLOCKED', { userIds: [] }]);
    expect(await invitations(blocker)).toEqual([]);
    // The caller's own blocks are named.
    const blocked = await registerVerified();
    await block(owner, blocked);
    const own = await add(owner, g.id, [blocked, blocker]);
    expect([own.status, own.body.code, own.body.details]).toEqual([403, 'CHAT_BLOCKED', { userIds: [blocked.user.id] }]);
  });

  it('nobody is added or invited where a member, a pending invitee or another added account blocks them or is blocked by them; members who block each other later stay', async () => {
    const [owner, member, pending, x, y, z] = [
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
    ];
    await allowDirectAdds(member, x, z);
    const g = (await group(owner, [member, pending])).body;
    expect(g).toMatchObject({ memberCount: 2, invitedIds: [pending.user.id] });
    const state = async () => (await call('GET', `/chat/conversations/${g.id}`, { token: owner.accessToken })).body;

    await block(x, member); // the added one blocks a member (not the owner)
    const byMember = await add(owner, g.id, [x]);
    expect([byMember.status, byMember.body.code, byMember.body.details]).toEqual([403, 'CHAT_BLOCKED', { userIds: [] }]);
    await block(pending, y); // a pending invitee blocks the one invited now
    expect((await add(owner, g.id, [y])).body.code).toBe('CHAT_BLOCKED');
    expect(await invitations(y)).toEqual([]);
    await block(z, y); // two added at once, one blocking the other
    await unblock(pending, y);
    expect((await add(owner, g.id, [y, z])).body.code).toBe('CHAT_BLOCKED');
    expect(await state()).toMatchObject({ memberCount: 2, invitedIds: [pending.user.id] });
    // At creation as well: two chosen members, one blocking the other.
    const created = await group(owner, [member, x]);
    expect([created.status, created.body.code]).toEqual([403, 'CHAT_BLOCKED']);
    // Without the blocks they join.
    await Promise.all([unblock(x, member), unblock(z, y)]);
    expect((await add(owner, g.id, [x, y, z])).body).toMatchObject({ memberCount: 4, invitedIds: [pending.user.id, y.user.id] });

    // Members who come to block each other stay in the group and both still send.
    await block(member, x);
    expect((await sendText(x, g.id, 'still here')).status).toBe(201);
    expect((await sendText(member, g.id, 'me too')).status).toBe(201);
    expect((await state()).memberCount).toBe(4);
  });

  it('accepting is refused (403 CHAT_BLOCKED) after a block with the owner or any member; a block withdraws the invitations between inviter and invitee', async () => {
    const [owner, member, g1, g2, g3, g4] = [
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
      await registerVerified(),
    ];
    await allowDirectAdds(member);
    const g = (await group(owner, [member, g1, g2, g3, g4])).body;
    expect(g.invitedIds).toEqual([g1.user.id, g2.user.id, g3.user.id, g4.user.id]);
    const [i1, i2, i3, i4] = await Promise.all([g1, g2, g3, g4].map(async (who) => (await invitations(who))[0]));

    await block(g1, owner); // the invitee blocks the owner
    await block(owner, g2); // the owner blocks the invitee
    for (const [who, invitation] of [
      [g1, i1],
      [g2, i2],
    ] as const) {
      expect(await invitations(who)).toEqual([]);
      expect((await invitations(who, 'WITHDRAWN')).map((i) => i.id)).toEqual([invitation.id]);
      const refused = await answer(who, invitation.id, 'accept');
      expect([refused.status, refused.body.code]).toEqual([409, 'CHAT_INVITATION_TRANSITION']);
    }
    const trail = (await db().collection(`${CHAT_INVITATIONS}/${i1.id}/${EVENTS}`).get()).docs.map((d) => d.data());
    expect(trail).toMatchObject([{ action: 'withdraw', from: 'PENDING', to: 'WITHDRAWN', by: g1.user.id, reason: 'block' }]);

    await block(g3, member); // the invitee blocks a member: the invitation stays, accepting does not
    await block(member, g4); // a member blocks the invitee
    const byInvitee = await answer(g3, i3.id, 'accept');
    expect([byInvitee.status, byInvitee.body.code, byInvitee.body.details]).toEqual([403, 'CHAT_BLOCKED', { userIds: [member.user.id] }]);
    const byMember = await answer(g4, i4.id, 'accept');
    expect([byMember.status, byMember.body.code, byMember.body.details]).toEqual([403, 'CHAT_BLOCKED', { userIds: [] }]);
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: owner.accessToken })).body).toMatchObject({
      memberCount: 2,
      invitedIds: [g3.user.id, g4.user.id],
    });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: g3.accessToken })).status).toBe(404);

    await unblock(g3, member);
    expect((await answer(g3, i3.id, 'accept')).body.memberCount).toBe(3);
  });

  it('a block and an accept racing: the invitee never ends up a member while the block stands', async () => {
    const [owner, guest] = [await registerVerified(), await registerVerified()];
    const g = (await group(owner, [guest])).body;
    const [invitation] = await invitations(guest);
    const [accepted, blocked] = await Promise.all([answer(guest, invitation.id, 'accept'), block(owner, guest)]);
    expect(blocked.status).toBe(200);
    const after = (await call('GET', `/chat/conversations/${g.id}`, { token: owner.accessToken })).body;
    // Either the accept came first (a member, as in a group whose members later block each other) or it was refused.
    if (accepted.status === 200) expect(after).toMatchObject({ memberCount: 2, invitedIds: [] });
    else expect([accepted.body.code, after.memberCount, after.invitedIds]).toEqual([expect.stringMatching(/^CHAT_(BLOCKED|INVITATION_TRANSITION)$/), 1, []]);
  });

  it('a pending invitee who switched to DIRECT and is added again stays invited (one seat): withdrawing or accepting leaves no double', async () => {
    const [owner, guest] = [await registerVerified(), await registerVerified()];
    const g = (await group(owner, [guest])).body;
    const [invitation] = await invitations(guest);
    await allowDirectAdds(guest);
    const again = await add(owner, g.id, [guest]);
    expect(again.body).toMatchObject({ memberCount: 1, invitedIds: [guest.user.id] });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: guest.accessToken })).status).toBe(404);
    expect((await db().collection(CHAT_MEMBERSHIPS).doc(`${g.id}_${guest.user.id}`).get()).exists).toBe(false);
    const accepted = await answer(guest, invitation.id, 'accept');
    expect(accepted.body).toMatchObject({ memberCount: 2, invitedIds: [] });
    // A member now: DELETE removes them (not a withdrawal), and nothing is left to accept.
    const removed = await call('DELETE', `/chat/conversations/${g.id}/members/${guest.user.id}`, { token: owner.accessToken });
    expect(removed.body).toMatchObject({ memberCount: 1, invitedIds: [] });
    expect((await call('GET', `/chat/conversations/${g.id}`, { token: guest.accessToken })).status).toBe(404);
    expect((await answer(guest, invitation.id, 'accept')).body.code).toBe('CHAT_INVITATION_TRANSITION');
  });

  it('GET /chat/invitations shows the group title now only while pending; otherwise the title it was made with', async () => {
    const [owner, guest, other] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const g = (await group(owner, [guest, other])).body;
    const rename = (title: string) => call('PATCH', `/chat/conversations/${g.id}`, { token: owner.accessToken, body: { title } });
    await rename('Đà Nẵng');
    expect((await invitations(other))[0].title).toBe('Đà Nẵng');
    const [invitation] = await invitations(guest);
    await answer(guest, invitation.id, 'accept');
    await call('DELETE', `/chat/conversations/${g.id}/members/${guest.user.id}`, { token: owner.accessToken });
    await rename('Bí mật');
    expect((await invitations(guest, 'ACCEPTED')).map((i) => i.title)).toEqual(['Hội An']);
    const declined = await answer(other, (await invitations(other))[0].id, 'decline');
    expect(declined.body).toMatchObject({ status: 'DECLINED', title: 'Hội An' });
    expect((await invitations(other, 'DECLINED')).map((i) => i.title)).toEqual(['Hội An']);
  });

  it('the last member leaving a group withdraws its pending invitations', async () => {
    const [owner, guest] = [await registerVerified(), await registerVerified()];
    const g = (await group(owner, [guest])).body;
    const [invitation] = await invitations(guest);
    expect((await call('POST', `/chat/conversations/${g.id}/leave`, { token: owner.accessToken })).body).toEqual({ left: true, conversationId: g.id });
    expect(await invitations(guest)).toEqual([]);
    expect((await invitations(guest, 'WITHDRAWN')).map((i) => i.id)).toEqual([invitation.id]);
    expect((await db().collection(CONVERSATIONS).doc(g.id).get()).data()).toMatchObject({ memberIds: [], ownerId: null, invitedIds: [] });
    const refused = await answer(guest, invitation.id, 'accept');
    expect([refused.status, refused.body.code]).toEqual([409, 'CHAT_INVITATION_TRANSITION']);
  });

  it('one account blocks at most 1,000 people (409 CHAT_BLOCKS_FULL); unblocking makes room', async () => {
    const [a, b] = [await registerVerified(), await registerVerified()];
    const full = Array.from({ length: 1000 }, (_, i) => `seeded-${i}`);
    await db().collection(CHAT_BLOCK_LISTS).doc(a.user.id).set({ userId: a.user.id, blockedIds: full, updatedAt: Date.now() });
    const refused = await block(a, b);
    expect([refused.status, refused.body.code]).toEqual([409, 'CHAT_BLOCKS_FULL']);
    expect((await openDirect(b, a.user.id)).status).toBe(201);
    await db()
      .collection(CHAT_BLOCK_LISTS)
      .doc(a.user.id)
      .set({ userId: a.user.id, blockedIds: full.slice(1), updatedAt: Date.now() });
    expect((await block(a, b)).status).toBe(200);
    expect(((await db().collection(CHAT_BLOCK_LISTS).doc(a.user.id).get()).data()!.blockedIds as string[]).slice(-1)).toEqual([b.user.id]);
    await unblock(a, b);
    expect((await db().collection(CHAT_BLOCK_LISTS).doc(a.user.id).get()).data()!.blockedIds as string[]).toHaveLength(999);
  });

  it('accepting and declining at once: exactly one wins', async () => {
    const [owner, guest] = [await registerVerified(), await registerVerified()];
    const g = (await group(owner, [guest])).body;
    const [invitation] = await invitations(guest);
    const results = await Promise.all([
      answer(guest, invitation.id, 'accept'),
      answer(guest, invitation.id, 'decline'),
      answer(guest, invitation.id, 'accept'),
    ]);
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'CHAT_INVITATION_TRANSITION' || r.body.code === 'CHAT_ALREADY_MEMBER')).toBe(
      true,
    );
    const after = (await call('GET', `/chat/conversations/${g.id}`, { token: owner.accessToken })).body;
    const accepted = won[0].body.memberCount !== undefined;
    expect([after.memberCount, after.invitedIds]).toEqual([accepted ? 2 : 1, []]);
  });
});

describe('chat moderation: permission and limits', () => {
  it('the report queue needs the moderation permission: an admin holding [] gets 403, one holding moderation works', async () => {
    const admin = await adminTokens();
    const narrowed = async (permissions: string[]) => {
      const helper = await registerVerified();
      await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } });
      await call('PATCH', `/users/admin/${helper.user.id}`, { token: admin.accessToken, body: { permissions } });
      return helper;
    };
    const [none, moderator] = [await narrowed([]), await narrowed(['moderation'])];
    const [a, b] = [await registerVerified(), await registerVerified()];
    const dm = (await openDirect(a, b.user.id)).body.id as string;
    const message = (await sendText(a, dm, 'spam spam')).body.id as string;
    const report = (await call('POST', `/chat/messages/${message}/report`, { token: b.accessToken, body: { reason: 'SPAM' } })).body;
    for (const [method, path, body] of [
      ['GET', '/chat/admin/reports', undefined],
      ['PATCH', `/chat/admin/reports/${report.id}`, { status: 'DISMISSED' }],
    ] as const) {
      const refused = await call(method, path, { token: none.accessToken, body });
      expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
    }
    expect((await call('GET', '/chat/admin/reports?limit=100', { token: moderator.accessToken })).status).toBe(200);
    expect((await call('PATCH', `/chat/admin/reports/${report.id}`, { token: moderator.accessToken, body: { status: 'ACTIONED' } })).body.status).toBe(
      'ACTIONED',
    );
    for (const helper of [none, moderator])
      await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
  });

  it('reports are limited per user (scope chat-report, 20 an hour): the 21st is 429 with Retry-After; another user is not affected', async () => {
    const [a, b, c] = [await registerVerified(), await registerVerified(), await registerVerified()];
    await allowDirectAdds(b, c);
    const g = (await group(a, [b, c])).body.id as string;
    const message = (await sendText(a, g, 'report me')).body.id as string;
    const report = () => call('POST', `/chat/messages/${message}/report`, { token: b.accessToken, body: { reason: 'SPAM' } });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await report()).status);
    expect(statuses).toEqual([201, ...Array(19).fill(200)]);
    const limited = await report();
    expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('POST', `/chat/messages/${message}/report`, { token: c.accessToken, body: { reason: 'SPAM' } })).status).toBe(201);
  });
});
