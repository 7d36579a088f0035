import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { ADMIN_EMAIL, adminTokens, signUpByMail } from '../../helpers/accounts';
import { call, countedIp, PASSWORD, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { codeIn, inbox, mailedCode, waitForMail, waitForSms } from '../../helpers/sinks';
import { USERS } from '../../../src/modules/users/users.model';

beforeAll(requireEmulators);

describe('registration (POST /auth/register and alias /register)', () => {
  it('creates a pending USER, mails a REGISTER code, and the code activates the account with tokens and a session', async () => {
    const email = uniqueEmail('reg');
    const since = Date.now();
    const reg = await call('POST', '/auth/register', { body: { email: email.toUpperCase(), password: PASSWORD, name: 'Lan' } });
    expect(reg.status).toBe(200);
    expect(reg.body).toEqual({ mailSent: true, email, expiresInSec: 600, resendAfterSec: 60 });
    const code = await mailedCode(email, { since, subject: 'Confirm your email' });

    // Not active before the code is verified.
    const early = await call('POST', '/auth/login/password', { body: { email, password: PASSWORD } });
    expect(early.status).toBe(403);

    const res = await call('POST', '/auth/email/otp/verify', {
      body: { email, code, purpose: 'REGISTER', surface: 'CON', deviceName: 'Pixel 8' },
      headers: { 'user-agent': 'SuperApp/1.0 (Android)' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tokenType: 'Bearer',
      expiresIn: 900,
      user: { email, roles: ['USER'], hats: ['CON'], status: 'ACTIVE', emailVerified: true },
    });
    expect(res.body.session).toMatchObject({ current: true, method: 'register', surface: 'CON', deviceName: 'Pixel 8', userAgent: 'SuperApp/1.0 (Android)' });
    expect(res.body.user.passwordHash).toBeUndefined();

    // The code works once.
    const again = await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'REGISTER' } });
    expect(again.status).toBe(400);
  });

  it('answers the alias /register the same way', async () => {
    const email = uniqueEmail('alias');
    const res = await call('POST', '/register', { body: { email, password: PASSWORD, name: 'Alias' } });
    expect(res.status).toBe(200);
    expect(res.body.mailSent).toBe(true);
  });

  it('ignores role and admin fields in the body: always USER and CON', async () => {
    const email = uniqueEmail('sneaky');
    const since = Date.now();
    await call('POST', '/auth/register', { body: { email, password: PASSWORD, name: 'S', roles: ['ADMIN'], role: 'ADMIN', isAdmin: true, hats: ['ADM'] } });
    const code = await mailedCode(email, { since });
    const res = await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'REGISTER', roles: ['ADMIN'] } });
    expect(res.body.user.roles).toEqual(['USER']);
    const hats = await call('GET', '/users/me/hats', { token: res.body.accessToken });
    expect(hats.body.unlocked).toEqual(['CON']);
  });

  it('does not reveal an existing account: same status and body for new, pending and active, and the owner gets a notice instead of a code', async () => {
    const admin = await adminTokens();
    // An active account that was never mailed a code (an administrator made it).
    const activeEmail = uniqueEmail('active');
    expect((await call('POST', '/users/admin', { token: admin.accessToken, body: { hat: 'CON', email: activeEmail } })).status).toBe(201);
    const fresh = uniqueEmail('fresh');
    const since = Date.now();
    const body = (email: string) => ({ email, password: 'another password', name: 'X' });
    const answers = [
      await call('POST', '/auth/register', { body: body(activeEmail) }),
      await call('POST', '/auth/register', { body: body(fresh) }), // new
      await call('POST', '/auth/register', { body: body(fresh) }), // now pending, within the resend gap
      await call('POST', '/auth/register', { body: body(activeEmail) }), // active again, within the gap
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify({ ...a.body, email: 'x' }))).size).toBe(1);
    const notice = await waitForMail(activeEmail, { since });
    // In the owner's language, not the registering caller's: an account an administrator made has none yet (vi).
    expect(notice.subject).toBe('Bạn đã có tài khoản');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    // One mail each: repeats within the gap send nothing (no mailbox flooding).
    await new Promise((r) => setTimeout(r, 1500));
    expect((await inbox(activeEmail)).mails.filter((m) => m.receivedAt >= since)).toHaveLength(1);
    expect((await inbox(fresh)).mails.filter((m) => m.receivedAt >= since)).toHaveLength(1);
  });

  it('a second registration of a pending email never replaces its password: the code activates the first one', async () => {
    const email = uniqueEmail('pending');
    const since = Date.now();
    const first = await call('POST', '/auth/register', { body: { email, password: 'victim password 1', name: 'Victim' } });
    const second = await call('POST', '/auth/register', { body: { email, password: 'attacker password 2', name: 'Attacker' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    const code = await mailedCode(email, { since, subject: 'Confirm your email' });
    const verified = await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'REGISTER' } });
    expect(verified.status).toBe(200);
    expect(verified.body.user.name).toBe('Victim');
    expect((await call('POST', '/auth/login/password', { body: { email, password: 'attacker password 2' } })).status).toBe(401);
    expect((await call('POST', '/auth/login/password', { body: { email, password: 'victim password 1' } })).status).toBe(200);
  });

  it('registers one account when the same email registers concurrently, answering each the same', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => call('POST', '/auth/register', { body: { email, password: `${PASSWORD}${i}`, name: 'Race' } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => JSON.stringify(r.body))).size).toBe(1);
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    const accounts = await getFirestore(app).collection(USERS).where('email', '==', email).get();
    expect(accounts.size).toBe(1);
  });

  it.each([
    ['short password', { password: 'short' }, 'password'],
    ['password over 72 UTF-8 bytes', { password: 'é'.repeat(37) }, 'password'],
    ['bad email', { email: 'not-an-email' }, 'email'],
    ['missing name', { name: undefined }, 'name'],
  ])('refuses %s with 400 naming the field', async (_label, change, field) => {
    const body = { email: uniqueEmail('bad'), password: PASSWORD, name: 'N', ...change };
    const res = await call('POST', '/auth/register', { body });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(`body.${field}`);
  });

  it('keeps passwords exactly as typed (no trimming), up to 72 bytes', async () => {
    const password = '  spaced out  ';
    const account = await signUpByMail({ password });
    expect((await call('POST', '/auth/login/password', { body: { email: account.email, password: password.trim() } })).status).toBe(401);
    expect((await call('POST', '/auth/login/password', { body: { email: account.email, password } })).status).toBe(200);
    const longest = 'a'.repeat(72);
    expect((await signUpByMail({ password: longest })).accessToken).toBeDefined();
  });
});

describe('profile', () => {
  it('GET /users/me and its alias /auth/me return the same canonical profile; PATCH renames', async () => {
    const account = await signUpByMail({ name: 'Before' });
    const me = await call('GET', '/users/me', { token: account.accessToken });
    const alias = await call('GET', '/auth/me', { token: account.accessToken });
    expect(me.status).toBe(200);
    expect(alias.body).toEqual(me.body);
    expect(Object.keys(me.body)).not.toContain('passwordHash');
    const renamed = await call('PATCH', '/users/me', { token: account.accessToken, body: { name: 'After' } });
    expect(renamed.body.name).toBe('After');
    expect((await call('GET', '/users/me', { token: account.accessToken })).body.name).toBe('After');
  });

  it('401 for profile and hats without a token', async () => {
    expect((await call('GET', '/users/me')).status).toBe(401);
    expect((await call('GET', '/users/me/hats')).status).toBe(401);
  });
});

describe('ADMIN_EMAILS', () => {
  it('grants ADMIN to the listed account once its email is verified, which opens the admin routes', async () => {
    const admin = await adminTokens();
    expect(admin.user.email).toBe(ADMIN_EMAIL);
    expect(admin.user.roles).toEqual(expect.arrayContaining(['USER', 'ADMIN']));
    const hats = await call('GET', '/users/me/hats', { token: admin.accessToken });
    expect(hats.body.unlocked).toEqual(['CON', 'ADM']);
    expect((await call('GET', '/health/admin/env', { token: admin.accessToken })).status).toBe(200);
    const user = await signUpByMail();
    expect((await call('GET', '/health/admin/env', { token: user.accessToken })).status).toBe(403);
  });
});

describe('per-IP rate limit', () => {
  it('answers 429 with Retry-After once an IP exceeds the register limit', async () => {
    const ip = countedIp();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 11; i += 1) {
      const res = await call('POST', '/auth/register', { body: { email: 'not-an-email', password: PASSWORD, name: 'R' }, ip });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Another IP is not affected.
    expect((await call('POST', '/auth/register', { body: { email: 'not-an-email', password: PASSWORD, name: 'R' } })).status).toBe(400);
  });
});

describe('mail content', () => {
  it('never puts anything but the code in the mail body, and the inbox sees it', async () => {
    const email = uniqueEmail('mail');
    const since = Date.now();
    await call('POST', '/auth/register', { body: { email, password: PASSWORD, name: 'M' } });
    await waitForMail(email, { since });
    expect((await inbox(email)).mails[0].text).toMatch(/Your code is \d{6}\. It expires in 10 minutes/);
  });
});

describe("the account's language (locale)", () => {
  const register = async (acceptLanguage: string) => {
    const email = uniqueEmail('lang');
    const since = Date.now();
    expect(
      (await call('POST', '/auth/register', { body: { email, password: PASSWORD, name: 'Lan' }, headers: { 'accept-language': acceptLanguage } })).status,
    ).toBe(200);
    const mail = await waitForMail(email, { since });
    const verified = await call('POST', '/auth/email/otp/verify', { body: { email, code: codeIn(mail.text), purpose: 'REGISTER' } });
    return {
      subject: mail.subject,
      text: mail.text,
      locale: verified.body.user.locale,
      profile: (await call('GET', '/users/me', { token: verified.body.accessToken })).body.locale,
    };
  };

  it('is set at registration from Accept-Language: vi and vi-* Vietnamese, en-* English, by weight; naming neither: vi', async () => {
    const cases: Array<[string, 'vi' | 'en']> = [
      ['vi-VN,vi;q=0.9,en;q=0.8', 'vi'],
      ['en-GB,en;q=0.9,vi;q=0.5', 'en'],
      ['fr-FR,en;q=0.4,vi;q=0.6', 'vi'],
      ['fr-FR, de;q=0.5', 'vi'],
      ['*', 'vi'], // what fetch sends by itself
      ['', 'vi'],
    ];
    const results = await Promise.all(cases.map(([header]) => register(header)));
    expect(results.map((r) => [r.locale, r.profile, r.subject])).toEqual(
      cases.map(([, locale]) => [locale, locale, locale === 'vi' ? 'Xác nhận email của bạn' : 'Confirm your email']),
    );
    expect(results[0].text).toMatch(/^Mã của bạn là \d{6}\. Mã hết hạn sau 10 phút và chỉ dùng được một lần\./);
    expect(results[1].text).toMatch(/^Your code is \d{6}\. It expires in 10 minutes and works once\./);
  });

  it('is changed on the profile (alone or with the name): the next mail and text are in it; anything but vi or en is 400 VALIDATION_FAILED', async () => {
    const account = await signUpByMail({ language: 'vi', name: 'Lan' });
    const token = account.accessToken;
    expect((await call('GET', '/auth/me', { token })).body.locale).toBe('vi');
    const phone = `+8493${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    let since = Date.now();
    expect((await call('POST', '/auth/otp/send', { token, body: { phone, purpose: 'VERIFY_PHONE' } })).status).toBe(200);
    const viText = await waitForSms(phone, since);
    expect(viText.text).toMatch(/^Super-app: ma dang nhap cua ban la \d{6} \(hieu luc 10 phut\)\./);

    const changed = await call('PATCH', '/users/me', { token, body: { locale: 'en' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ locale: 'en', name: 'Lan' });
    expect((await call('POST', '/auth/otp/verify', { token, body: { phone, code: codeIn(viText.text), purpose: 'VERIFY_PHONE' } })).status).toBe(200);
    since = Date.now();
    expect((await call('POST', '/auth/otp/send', { body: { phone } })).status).toBe(200);
    expect((await waitForSms(phone, since)).text).toMatch(/^Super-app: your sign-in code is \d{6} \(valid 10 min\)\./);
    since = Date.now();
    expect((await call('POST', '/auth/password/forgot', { body: { email: account.email } })).status).toBe(200);
    expect((await waitForMail(account.email, { since })).subject).toBe('Reset your password');

    expect((await call('PATCH', '/users/me', { token, body: { name: 'Lan Nguyen', locale: 'vi' } })).body).toMatchObject({ name: 'Lan Nguyen', locale: 'vi' });
    for (const locale of ['fr', 'EN', 'vi-VN', '', null, 1]) {
      const bad = await call('PATCH', '/users/me', { token, body: { locale } });
      expect([locale, bad.status, bad.body.code, bad.body.details?.[0]?.field]).toEqual([locale, 400, 'VALIDATION_FAILED', 'body.locale']);
    }
    const empty = await call('PATCH', '/users/me', { token, body: {} });
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call('GET', '/users/me', { token })).body).toMatchObject({ name: 'Lan Nguyen', locale: 'vi' });
  });

  it('a name change and a language change racing both land (neither writes the other back); fields beyond name and locale are ignored', async () => {
    const account = await signUpByMail({ language: 'vi', name: 'Lan' });
    const other = await signUpByMail({ language: 'vi', name: 'Minh' });
    const token = account.accessToken;
    const [byName, byLocale] = await Promise.all([
      call('PATCH', '/users/me', { token, body: { name: 'Lan Tran' } }),
      call('PATCH', '/users/me', { token, body: { locale: 'en', roles: ['ADMIN'], id: other.user.id, email: other.email } }),
    ]);
    expect([byName.status, byLocale.status]).toEqual([200, 200]);
    const me = (await call('GET', '/users/me', { token })).body;
    expect(me).toMatchObject({ name: 'Lan Tran', locale: 'en', email: account.email });
    expect(me.roles).not.toContain('ADMIN');
    expect((await call('GET', '/users/me', { token: other.accessToken })).body).toMatchObject({ name: 'Minh', locale: 'vi' });
  });
});
