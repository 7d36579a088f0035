import jwt from 'jsonwebtoken';
import { signUpByMail } from '../../helpers/accounts';
import { call, PASSWORD } from '../../helpers/api';
import { localSecret, requireEmulators } from '../../helpers/emulators';
import { signAccessToken, unsignedToken } from '../../helpers/tokens';

beforeAll(requireEmulators);

const refresh = (refreshToken: string) => call('POST', '/auth/refresh', { body: { refreshToken } });
const me = (token: string) => call('GET', '/users/me', { token });

describe('refresh rotation', () => {
  it('rotates on every use: the new pair works, the old access token works until the new pair is used, then is revoked', async () => {
    const account = await signUpByMail();
    const next = await refresh(account.refreshToken);
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).not.toBe(account.refreshToken);
    expect(next.body.session.id).toBe(account.session.id);
    // The answer might not have reached the client: what it holds keeps working.
    expect((await me(account.accessToken)).status).toBe(200);
    expect((await me(next.body.accessToken)).status).toBe(200);
    expect((await me(account.accessToken)).status).toBe(401);
  });

  it('refreshing with the new pair retires the pair before it', async () => {
    const account = await signUpByMail();
    const gen1 = await refresh(account.refreshToken);
    const gen2 = await refresh(gen1.body.refreshToken);
    expect(gen2.status).toBe(200);
    expect((await me(account.accessToken)).status).toBe(401);
    expect((await me(gen1.body.accessToken)).status).toBe(200);
  });

  it('a retry of the immediate parent within the grace window gets the same current pair', async () => {
    const account = await signUpByMail();
    const first = await refresh(account.refreshToken);
    const retry = await refresh(account.refreshToken);
    expect(retry.status).toBe(200);
    expect(retry.body.refreshToken).toBe(first.body.refreshToken);
    expect(retry.body.accessToken).toBe(first.body.accessToken);
  });

  it('replaying an older refresh token revokes the whole family', async () => {
    const account = await signUpByMail();
    const gen1 = await refresh(account.refreshToken);
    const gen2 = await refresh(gen1.body.refreshToken);
    expect(gen2.status).toBe(200);
    // gen0 is two rotations old: reuse.
    const replay = await refresh(account.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/revoked/);
    expect((await refresh(gen2.body.refreshToken)).status).toBe(401);
    expect((await me(gen2.body.accessToken)).status).toBe(401);
  });

  it('10 concurrent refreshes of one token leave exactly one live refresh token', async () => {
    const account = await signUpByMail();
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(account.refreshToken)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    const distinct = new Set(ok.map((r) => r.body.refreshToken));
    expect(distinct.size).toBe(1);
    const [live] = [...distinct];
    expect((await refresh(live as string)).status).toBe(200);
  });

  it.each([
    ['garbage', 'not-a-jwt'],
    ['an access token', 'ACCESS'],
    ['a token signed with the access secret', 'WRONG_SECRET'],
  ])('401 for %s', async (_label, kind) => {
    const account = await signUpByMail();
    const token =
      kind === 'ACCESS'
        ? account.accessToken
        : kind === 'WRONG_SECRET'
          ? jwt.sign({ sub: account.user.id, sid: account.session.id, jti: 'x', typ: 'refresh' }, localSecret('JWT_SECRET'), {
              algorithm: 'HS256',
              expiresIn: 600,
            })
          : kind;
    expect((await refresh(token)).status).toBe(401);
  });

  it('400 without a refresh token', async () => {
    expect((await call('POST', '/auth/refresh', { body: {} })).status).toBe(400);
  });
});

describe('protected routes refuse bad tokens (401)', () => {
  const secret = () => localSecret('JWT_SECRET');
  it.each([
    ['alg none', () => unsignedToken({ sub: 'u', typ: 'access', roles: ['USER'], jti: 'j', sid: 's' })],
    ['wrong algorithm (HS512)', () => signAccessToken(secret(), { algorithm: 'HS512' })],
    ['refresh token as access', () => signAccessToken(localSecret('JWT_REFRESH_SECRET'), { typ: 'refresh' })],
    ['expired', () => signAccessToken(secret(), { expiresInSec: -5 })],
    ['well signed but no session', () => signAccessToken(secret())],
  ])('%s', async (_label, make) => {
    const res = await me(make());
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('a well-signed token of a live session that the session does not name (a pair minted but never saved) is refused', async () => {
    const account = await signUpByMail();
    const unsaved = jwt.sign({ roles: ['USER'], typ: 'access', sid: account.session.id }, secret(), {
      algorithm: 'HS256',
      subject: account.user.id,
      jwtid: 'never-saved',
      expiresIn: 600,
    });
    const res = await me(unsaved);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_REVOKED');
    expect((await me(account.accessToken)).status).toBe(200);
  });

  it('a tampered token (roles raised) is refused', async () => {
    const account = await signUpByMail();
    const [h, p, s] = account.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, roles: ['ADMIN'] })).toString('base64url');
    expect((await call('GET', '/health/admin/env', { token: `${h}.${forged}.${s}` })).status).toBe(401);
  });
});

describe('sessions', () => {
  it('lists live sessions with device info; revoking one signs that device out at once', async () => {
    const account = await signUpByMail();
    const phone = await call('POST', '/auth/login/password', {
      body: { email: account.email, password: PASSWORD, surface: 'CON', deviceName: 'Phone' },
      headers: { 'user-agent': 'SuperApp/2.0 (iOS)' },
      ip: '198.18.7.7',
    });
    const list = await call('GET', '/auth/sessions', { token: account.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    const other = list.body.sessions.find((s: { id: string }) => s.id === phone.body.session.id);
    expect(other).toMatchObject({ current: false, deviceName: 'Phone', userAgent: 'SuperApp/2.0 (iOS)', ip: '198.18.7.7', method: 'password' });
    expect(list.body.sessions.find((s: { current: boolean }) => s.current).id).toBe(account.session.id);

    expect((await call('DELETE', `/auth/sessions/${phone.body.session.id}`, { token: account.accessToken })).status).toBe(200);
    expect((await me(phone.body.accessToken)).status).toBe(401);
    expect((await refresh(phone.body.refreshToken)).status).toBe(401);
    expect((await me(account.accessToken)).status).toBe(200);
  });

  it("another user's session is 404, and stays alive", async () => {
    const a = await signUpByMail();
    const b = await signUpByMail();
    expect((await call('DELETE', `/auth/sessions/${b.session.id}`, { token: a.accessToken })).status).toBe(404);
    expect((await me(b.accessToken)).status).toBe(200);
  });

  it('DELETE /auth/sessions signs out every other session; logout {allSessions} signs out everywhere', async () => {
    const account = await signUpByMail();
    const second = await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } });
    const third = await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } });
    const others = await call('DELETE', '/auth/sessions', { token: account.accessToken });
    expect(others.body).toEqual({ revoked: 2 });
    expect((await me(second.body.accessToken)).status).toBe(401);
    expect((await me(account.accessToken)).status).toBe(200);

    const fourth = await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } });
    const all = await call('POST', '/auth/logout', { token: fourth.body.accessToken, body: { allSessions: true } });
    expect(all.body).toEqual({ revoked: 2 });
    expect((await me(account.accessToken)).status).toBe(401);
    expect((await me(fourth.body.accessToken)).status).toBe(401);
    expect((await me(third.body.accessToken)).status).toBe(401);
  });

  it('logout without a body revokes just this session', async () => {
    const account = await signUpByMail();
    const other = await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } });
    const out = await call('POST', '/auth/logout', { token: account.accessToken });
    expect(out.status).toBe(200);
    expect((await me(account.accessToken)).status).toBe(401);
    expect((await me(other.body.accessToken)).status).toBe(200);
  });
});
