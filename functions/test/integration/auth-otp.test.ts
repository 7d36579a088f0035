import { randomInt } from 'node:crypto';
import { registerVerified } from '../helpers/accounts';
import { call, testIp, uniqueEmail } from '../helpers/api';
import { requireEmulators } from '../helpers/emulators';
import { codeIn, inbox, mailedCode, waitForSms } from '../helpers/sinks';

beforeAll(requireEmulators);

const randomPhone = () => `+8491${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

describe('email OTP sign-in (PAR, DRV and ADM apps: no phone involved)', () => {
  it('LOGIN code signs in with a session tagged with the surface', async () => {
    const account = await registerVerified();
    const since = Date.now();
    const sent = await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ mailSent: true, expiresInSec: 600, resendAfterSec: 60 });
    const code = await mailedCode(account.email, { since, subject: 'Your sign-in code' });
    const res = await call('POST', '/auth/email/otp/verify', { body: { email: account.email, code, purpose: 'LOGIN', surface: 'DRV' } });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ method: 'email_otp', surface: 'DRV' });
  });

  it('answers an unknown email exactly like a known one, and mails nothing', async () => {
    const account = await registerVerified();
    const ghost = uniqueEmail('ghost');
    const known = await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    const unknown = await call('POST', '/auth/email/otp/send', { body: { email: ghost, purpose: 'LOGIN' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await new Promise((r) => setTimeout(r, 500));
    expect((await inbox(ghost)).mails).toHaveLength(0);
  });

  it('binds a code to its purpose and account, and refuses a resend within 60 s', async () => {
    const a = await registerVerified();
    const b = await registerVerified();
    const since = Date.now();
    await call('POST', '/auth/email/otp/send', { body: { email: a.email, purpose: 'LOGIN' } });
    const code = await mailedCode(a.email, { since, subject: 'Your sign-in code' });
    const resend = await call('POST', '/auth/email/otp/send', { body: { email: a.email, purpose: 'LOGIN' } });
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account, another purpose: refused.
    expect((await call('POST', '/auth/email/otp/verify', { body: { email: b.email, code, purpose: 'LOGIN' } })).status).toBe(400);
    expect((await call('POST', '/auth/email/otp/verify', { body: { email: a.email, code, purpose: 'REGISTER' } })).status).toBe(400);
    expect((await call('POST', '/auth/email/otp/verify', { body: { email: a.email, code, purpose: 'LOGIN' } })).status).toBe(200);
    expect((await call('POST', '/auth/email/otp/verify', { body: { email: a.email, code, purpose: 'LOGIN' } })).status).toBe(400);
  });

  it('caps 50 parallel wrong codes: none succeeds, and the right code then fails too', async () => {
    const account = await registerVerified();
    const since = Date.now();
    await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    const code = await mailedCode(account.email, { since, subject: 'Your sign-in code' });
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/auth/email/otp/verify', { body: { email: account.email, code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'), purpose: 'LOGIN' }, ip: testIp() }),
      ),
    );
    expect(attempts.every((r) => r.status === 400 || r.status === 429)).toBe(true);
    const right = await call('POST', '/auth/email/otp/verify', { body: { email: account.email, code, purpose: 'LOGIN' } });
    expect(right.status).not.toBe(200);
  });

  it('400 for malformed codes and purposes', async () => {
    const res = await call('POST', '/auth/email/otp/verify', { body: { email: 'a@example.com', code: '12ab', purpose: 'ADMIN' } });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.code', 'body.purpose']);
  });
});

describe('phone OTP (SMS, login only) through the http SMS adapter', () => {
  it('VERIFY_PHONE attaches a phone to the signed-in account; LOGIN then signs in with a texted code', async () => {
    const account = await registerVerified();
    const phone = randomPhone();
    expect((await call('POST', '/auth/otp/send', { body: { phone, purpose: 'VERIFY_PHONE' } })).status).toBe(401);
    let since = Date.now();
    const sent = await call('POST', '/auth/otp/send', { token: account.accessToken, body: { phone, purpose: 'VERIFY_PHONE' } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ smsProvider: 'http', expiresInSec: 600, resendAfterSec: 60 });
    const sms = await waitForSms(phone, since);
    expect(sms.authorization).toBe('Bearer local-sms-gateway-key');
    const verified = await call('POST', '/auth/otp/verify', { token: account.accessToken, body: { phone, code: codeIn(sms.text), purpose: 'VERIFY_PHONE' } });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ phone, phoneVerified: true });

    since = Date.now();
    expect((await call('POST', '/auth/otp/send', { body: { phone } })).status).toBe(200);
    const loginSms = await waitForSms(phone, since);
    const res = await call('POST', '/auth/otp/verify', { body: { phone, code: codeIn(loginSms.text), surface: 'CON' } });
    expect(res.status).toBe(200);
    expect(res.body.session.method).toBe('phone_otp');
    expect(res.body.user.id).toBe(account.user.id);
    // The verified phone also works as a password-login identifier.
    expect((await call('POST', '/auth/login', { body: { identifier: phone, password: account.password } })).status).toBe(200);
  });

  it('answers an unknown number like a known one and texts nothing', async () => {
    const phone = randomPhone();
    const res = await call('POST', '/auth/otp/send', { body: { phone } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ smsProvider: 'http', expiresInSec: 600, resendAfterSec: 60 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await inbox(phone)).sms).toHaveLength(0);
    expect((await call('POST', '/auth/otp/verify', { body: { phone, code: '123456' } })).status).toBe(400);
  });

  it('400 for a number that is not E.164', async () => {
    expect((await call('POST', '/auth/otp/send', { body: { phone: '0912 345 678' } })).status).toBe(400);
  });

  it('a wrong code is refused', async () => {
    const account = await registerVerified();
    const phone = randomPhone();
    const since = Date.now();
    await call('POST', '/auth/otp/send', { token: account.accessToken, body: { phone, purpose: 'VERIFY_PHONE' } });
    const code = codeIn((await waitForSms(phone, since)).text);
    expect((await call('POST', '/auth/otp/verify', { token: account.accessToken, body: { phone, code: wrongCode(code), purpose: 'VERIFY_PHONE' } })).status).toBe(400);
  });
});
