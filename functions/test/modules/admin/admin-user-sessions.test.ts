import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { narrowedAdmin } from '../../helpers/admins';
import { requireEmulators } from '../../helpers/emulators';

// An account's sessions as an administrator sees and ends them (the console's users page), and the precondition that
// keeps a whole role or permission list written from an older read from overwriting a change made since.
beforeAll(requireEmulators);

let admin: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
});

const sessionsOf = (id: string, by: Tokens = admin) => call('GET', `/users/admin/${id}/sessions`, { token: by.accessToken });
const me = (who: Tokens) => call('GET', '/users/me', { token: who.accessToken });
/** A second session of the account (another device signing in with the password). */
async function passwordLogin(who: { email: string; password: string }): Promise<Tokens> {
  const login = await call<Tokens>('POST', '/auth/login/password', { body: { email: who.email, password: who.password } });
  expect(login.status).toBe(200);
  return login.body;
}

describe('GET/DELETE /users/admin/:id/sessions', () => {
  it('lists an account’s live sessions, ends one device (the other keeps working), then every device without locking the account', async () => {
    const user = await registerVerified();
    const phone = await passwordLogin(user);
    const listed = await sessionsOf(user.user.id);
    expect(listed.status).toBe(200);
    const ids = listed.body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toHaveLength(2);
    expect(listed.body.sessions.every((s: { current: boolean }) => s.current === false)).toBe(true); // none is the administrator's
    const phoneSession = phone.session.id;
    expect(ids).toContain(phoneSession);

    const one = await call('DELETE', `/users/admin/${user.user.id}/sessions/${phoneSession}`, { token: admin.accessToken });
    expect(one).toMatchObject({ status: 200, body: { revoked: 1 } });
    expect(await me(phone)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect((await me(user)).status).toBe(200);
    // Ended already: a second time is a 404, as a session of someone else.
    expect((await call('DELETE', `/users/admin/${user.user.id}/sessions/${phoneSession}`, { token: admin.accessToken })).status).toBe(404);

    const all = await call('DELETE', `/users/admin/${user.user.id}/sessions`, { token: admin.accessToken });
    expect(all).toMatchObject({ status: 200, body: { revoked: 1 } });
    expect(await me(user)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect((await sessionsOf(user.user.id)).body.sessions).toEqual([]);
    // Not locked: the account signs in again.
    const again = await passwordLogin(user);
    expect((await me(again)).status).toBe(200);
    expect((await call('GET', `/users/admin/${user.user.id}`, { token: admin.accessToken })).body.disabled).toBe(false);
  });

  it('three revokes of one session racing: one ends it, the others are 404; two “every device” racing end each session once', async () => {
    const user = await registerVerified();
    const [phone, tablet] = [await passwordLogin(user), await passwordLogin(user)];
    const one = () => call('DELETE', `/users/admin/${user.user.id}/sessions/${phone.session.id}`, { token: admin.accessToken });
    const raced = await Promise.all([one(), one(), one()]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    expect(await me(phone)).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect((await me(tablet)).status).toBe(200);

    const all = () => call('DELETE', `/users/admin/${user.user.id}/sessions`, { token: admin.accessToken });
    const ended = await Promise.all([all(), all()]);
    expect(ended.map((r) => r.status)).toEqual([200, 200]);
    // The two live sessions (the first sign-in and the tablet), each counted by the call that ended it.
    expect(ended[0].body.revoked + ended[1].body.revoked).toBe(2);
    expect((await sessionsOf(user.user.id)).body.sessions).toEqual([]);
  });

  it('another account’s session id is a 404 and ends nothing; unknown accounts and malformed ids 404 (as every path id)', async () => {
    const [owner, other] = [await registerVerified(), await registerVerified()];
    const res = await call('DELETE', `/users/admin/${other.user.id}/sessions/${owner.session.id}`, { token: admin.accessToken });
    expect(res.status).toBe(404);
    expect((await me(owner)).status).toBe(200);
    expect((await sessionsOf('no-such-user')).status).toBe(404);
    expect((await call('DELETE', '/users/admin/no-such-user/sessions', { token: admin.accessToken })).status).toBe(404);
    expect((await call('DELETE', `/users/admin/${owner.user.id}/sessions/__bad__`, { token: admin.accessToken })).status).toBe(404);
    expect((await me(owner)).status).toBe(200);
  });

  it('a consumer is refused; a users.manage administrator lists and ends a plain account’s sessions, but neither sees nor ends a wider administrator’s', async () => {
    const [user, consumer] = [await registerVerified(), await registerVerified()];
    expect((await sessionsOf(user.user.id, consumer)).status).toBe(403);
    expect((await call('DELETE', `/users/admin/${user.user.id}/sessions`, { token: consumer.accessToken })).status).toBe(403);
    const manager = await narrowedAdmin(['users.manage']);
    const peer = await narrowedAdmin(['users.manage']);
    const wider = await narrowedAdmin(['users.manage', 'payments.manage']);
    try {
      // A peer within the manager's permissions: listed, but ended only by an administrator holding every permission.
      expect((await sessionsOf(peer.user.id, manager)).status).toBe(200);
      expect((await call('DELETE', `/users/admin/${peer.user.id}/sessions`, { token: manager.accessToken })).body.code).toBe('PERMISSION_REQUIRED');
      expect((await me(peer)).status).toBe(200);
      expect((await sessionsOf(user.user.id, manager)).body.sessions).toHaveLength(1);
      expect(await sessionsOf(wider.user.id, manager)).toMatchObject({ status: 403, body: { code: 'PERMISSION_REQUIRED' } });
      expect((await call('DELETE', `/users/admin/${wider.user.id}/sessions`, { token: manager.accessToken })).body.code).toBe('PERMISSION_REQUIRED');
      expect((await call('DELETE', `/users/admin/${wider.user.id}/sessions/${wider.session.id}`, { token: manager.accessToken })).body.code).toBe(
        'PERMISSION_REQUIRED',
      );
      expect((await me(wider)).status).toBe(200);
      expect((await call('DELETE', `/users/admin/${user.user.id}/sessions`, { token: manager.accessToken })).body.revoked).toBe(1);
    } finally {
      for (const a of [manager, peer, wider]) await call('PATCH', `/users/admin/${a.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
    }
  });
});

describe('an administrator’s own sessions', () => {
  it('signing every device out keeps the session that asks; the list marks it current', async () => {
    const self = await registerVerified();
    await call('PATCH', `/users/admin/${self.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', 'ADMIN'] } });
    const other = await passwordLogin(self);
    try {
      const res = await call('DELETE', `/users/admin/${self.user.id}/sessions`, { token: self.accessToken });
      expect(res).toMatchObject({ status: 200, body: { revoked: 1 } });
      expect((await me(self)).status).toBe(200);
      expect((await me(other)).body.code).toBe('TOKEN_REVOKED');
      expect((await sessionsOf(self.user.id, self)).body.sessions).toEqual([expect.objectContaining({ id: self.session.id, current: true })]);
    } finally {
      await call('PATCH', `/users/admin/${self.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
    }
  });
});

describe('expectedUpdatedAt on PATCH /users/admin/:id and /roles', () => {
  it('a list written from an older read is refused with the time now; from the current read it applies', async () => {
    const target = await registerVerified();
    const read = (await call('GET', `/users/admin/${target.user.id}`, { token: admin.accessToken })).body;
    const first = await call('PATCH', `/users/admin/${target.user.id}/roles`, {
      token: admin.accessToken,
      body: { roles: ['USER', 'DRIVER'], expectedUpdatedAt: read.updatedAt },
    });
    expect(first.status).toBe(200);
    // A second administrator saves from the same, now older, read.
    const stale = await call('PATCH', `/users/admin/${target.user.id}/roles`, {
      token: admin.accessToken,
      body: { roles: ['USER', 'PARTNER_OWNER'], expectedUpdatedAt: read.updatedAt },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'USER_CHANGED', details: { updatedAt: first.body.updatedAt } } });
    expect((await call('GET', `/users/admin/${target.user.id}`, { token: admin.accessToken })).body.roles).toEqual(['USER', 'DRIVER']);
    const staleName = await call('PATCH', `/users/admin/${target.user.id}`, {
      token: admin.accessToken,
      body: { fullName: 'X', expectedUpdatedAt: read.updatedAt },
    });
    expect(staleName.body.code).toBe('USER_CHANGED');
    const fresh = await call('PATCH', `/users/admin/${target.user.id}`, {
      token: admin.accessToken,
      body: { fullName: 'Renamed', expectedUpdatedAt: first.body.updatedAt },
    });
    expect(fresh.body.name).toBe('Renamed');
    // Without it, the last write wins as before.
    expect((await call('PATCH', `/users/admin/${target.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } })).status).toBe(200);
  });

  it('an administrator refused the change is refused for that, not told the account’s time', async () => {
    const manager = await narrowedAdmin(['users.manage']);
    const wider = await narrowedAdmin(['users.manage', 'payments.manage']);
    try {
      const stale = await call('PATCH', `/users/admin/${wider.user.id}/roles`, {
        token: manager.accessToken,
        body: { roles: ['USER'], expectedUpdatedAt: '2020-01-01T00:00:00.000Z' },
      });
      expect(stale).toMatchObject({ status: 403, body: { code: 'PERMISSION_REQUIRED' } });
      expect(stale.body.details?.updatedAt).toBeUndefined();
    } finally {
      for (const a of [manager, wider]) await call('PATCH', `/users/admin/${a.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
    }
  });

  it('two saves racing from one read: one applies, the other is refused', async () => {
    const target = await registerVerified();
    const read = (await call('GET', `/users/admin/${target.user.id}`, { token: admin.accessToken })).body;
    const results = await Promise.all(
      (['DRIVER', 'PARTNER_OWNER'] as const).map((role) =>
        call('PATCH', `/users/admin/${target.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', role], expectedUpdatedAt: read.updatedAt } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!.body.roles;
    expect((await call('GET', `/users/admin/${target.user.id}`, { token: admin.accessToken })).body.roles).toEqual(winner);
  });

  it('refuses a malformed time (400) and a body of nothing but the precondition (400)', async () => {
    const target = await registerVerified();
    const malformed = await call('PATCH', `/users/admin/${target.user.id}/roles`, {
      token: admin.accessToken,
      body: { roles: ['USER'], expectedUpdatedAt: 'yesterday' },
    });
    expect(malformed.status).toBe(400);
    const read = (await call('GET', `/users/admin/${target.user.id}`, { token: admin.accessToken })).body;
    expect((await call('PATCH', `/users/admin/${target.user.id}`, { token: admin.accessToken, body: { expectedUpdatedAt: read.updatedAt } })).status).toBe(400);
  });
});
