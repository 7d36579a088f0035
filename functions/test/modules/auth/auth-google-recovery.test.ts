import { randomUUID } from 'node:crypto';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { signUpByMail } from '../../helpers/accounts';
import { call, PASSWORD, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { googleIdToken, googleKey, publishGoogleKeys } from '../../helpers/google';
import { inbox, mailedCode } from '../../helpers/sinks';
import { USERS } from '../../../src/modules/users/users.model';

const key = googleKey();
const stranger = googleKey(); // never published

beforeAll(async () => {
  requireEmulators();
  await publishGoogleKeys([key]);
});

const google = (idToken: string) => call('POST', '/auth/google', { body: { idToken } });

describe('POST /auth/google', () => {
  it('creates an account for a new verified email, then signs the same subject into it again', async () => {
    const sub = randomUUID();
    const email = uniqueEmail('g');
    const first = await google(googleIdToken(key, { sub, email, email_verified: true, name: 'Gia' }));
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ email, roles: ['USER'], providers: ['google'], hasPassword: false, name: 'Gia' });
    expect(first.body.session.method).toBe('google');
    const again = await google(googleIdToken(key, { sub, email, email_verified: true }));
    expect(again.body.user.id).toBe(first.body.user.id);
  });

  it('never takes over an existing account by email alone (409); its owner links Google while signed in', async () => {
    const account = await signUpByMail();
    const sub = randomUUID();
    const token = googleIdToken(key, { sub, email: account.email, email_verified: true });
    const res = await google(token);
    expect(res.status).toBe(409);
    const linked = await call('POST', '/auth/google/link', { token: account.accessToken, body: { idToken: token } });
    expect(linked.status).toBe(200);
    expect(linked.body.providers).toEqual(['password', 'google']);
    const signedIn = await google(token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(account.user.id);
    // The subject cannot be linked to a second account.
    const other = await signUpByMail();
    expect((await call('POST', '/auth/google/link', { token: other.accessToken, body: { idToken: token } })).status).toBe(409);
  });

  it('an unverified Google email creates nothing and links nothing (403)', async () => {
    const email = uniqueEmail('unverified');
    expect((await google(googleIdToken(key, { sub: randomUUID(), email, email_verified: false }))).status).toBe(403);
    const account = await signUpByMail();
    expect((await google(googleIdToken(key, { sub: randomUUID(), email: account.email, email_verified: false }))).status).toBe(403);
  });

  it.each([
    [
      'wrong audience',
      () => googleIdToken(key, { sub: randomUUID(), email: uniqueEmail('a'), email_verified: true, aud: 'someone-else.apps.googleusercontent.com' }),
      /wrong audience/,
    ],
    ['expired', () => googleIdToken(key, { sub: randomUUID(), email: uniqueEmail('e'), email_verified: true, expiresInSec: -3600 }), /expired/],
    ['unknown signing key', () => googleIdToken(stranger, { sub: randomUUID(), email: uniqueEmail('k'), email_verified: true }), /unknown signing key/],
    [
      'wrong issuer',
      () => googleIdToken(key, { sub: randomUUID(), email: uniqueEmail('i'), email_verified: true, iss: 'https://evil.example' }),
      /wrong issuer/,
    ],
  ])('401 for %s', async (_label, make, reason) => {
    const res = await google(make());
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(reason);
  });

  it('refuses the deprecated access-token method with a clear 400', async () => {
    const res = await call('POST', '/auth/google', { body: { accessToken: 'ya29.legacy' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/deprecated/);
  });
});

describe('password recovery', () => {
  it('forgot: same status and body for known and unknown emails; only the known one gets a mail', async () => {
    const account = await signUpByMail();
    const ghost = uniqueEmail('ghost');
    const since = Date.now();
    const known = await call('POST', '/auth/password/forgot', { body: { email: account.email } });
    const unknown = await call('POST', '/auth/password/forgot', { body: { email: ghost } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await mailedCode(account.email, { since, subject: 'Reset your password' });
    expect((await inbox(ghost)).mails).toHaveLength(0);
    expect((await call('POST', '/auth/password/reset', { body: { email: ghost, code: '123456', newPassword: 'whatever123' } })).status).toBe(400);
  });

  it('reset sets the new password and signs out every session', async () => {
    const account = await signUpByMail();
    const since = Date.now();
    await call('POST', '/auth/password/forgot', { body: { email: account.email } });
    const code = await mailedCode(account.email, { since, subject: 'Reset your password' });
    const reset = await call('POST', '/auth/password/reset', { body: { email: account.email, code, newPassword: 'a new password' } });
    expect(reset.body).toEqual({ reset: true, sessionsRevoked: 1 });
    expect((await call('GET', '/users/me', { token: account.accessToken })).status).toBe(401);
    expect((await call('POST', '/auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
    expect((await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } })).status).toBe(401);
    expect((await call('POST', '/auth/login/password', { body: { email: account.email, password: 'a new password' } })).status).toBe(200);
    // The code was single use.
    expect((await call('POST', '/auth/password/reset', { body: { email: account.email, code, newPassword: 'third password' } })).status).toBe(400);
  });
});

describe('a disabled account', () => {
  it('cannot sign in and its existing access token is refused at once', async () => {
    const account = await signUpByMail();
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    await getFirestore(app).collection(USERS).doc(account.user.id).update({ disabled: true });
    expect((await call('GET', '/users/me', { token: account.accessToken })).status).toBe(401);
    expect((await call('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } })).status).toBe(403);
    expect((await call('POST', '/auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
  });
});
