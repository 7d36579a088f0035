import { randomInt } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { parsePhone } from '../../../src/platform/core/http/contact';
import { adminTokens, signUpByMail } from '../../helpers/accounts';
import { call, testIp, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { codeIn, inbox, mailedCode, waitForMail, waitForSms } from '../../helpers/sinks';
import { DELIVERY_QUEUE } from '../../../src/platform/core/message-queue/message-queue';
import { enqueue } from '../../../src/platform/kits/tasks/tasks';
import { USERS, USER_PHONES } from '../../../src/modules/users/users.model';

beforeAll(requireEmulators);

const randomPhone = () => `+8491${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

describe('email OTP sign-in (PAR, DRV and ADM apps: no phone involved)', () => {
  it('LOGIN code signs in with a session tagged with the surface', async () => {
    const account = await signUpByMail();
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
    const account = await signUpByMail();
    const ghost = uniqueEmail('ghost');
    const known = await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    const unknown = await call('POST', '/auth/email/otp/send', { body: { email: ghost, purpose: 'LOGIN' } });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await new Promise((r) => setTimeout(r, 500));
    expect((await inbox(ghost)).mails).toHaveLength(0);
  });

  it('binds a code to its purpose and account, and refuses a resend within 60 s', async () => {
    const a = await signUpByMail();
    const b = await signUpByMail();
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
    const account = await signUpByMail();
    const since = Date.now();
    await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    const code = await mailedCode(account.email, { since, subject: 'Your sign-in code' });
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/auth/email/otp/verify', {
          body: { email: account.email, code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'), purpose: 'LOGIN' },
          ip: testIp(),
        }),
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
    const account = await signUpByMail();
    const phone = randomPhone();
    expect((await call('POST', '/auth/otp/send', { body: { phone, purpose: 'VERIFY_PHONE' } })).body).toMatchObject({ statusCode: 401, code: 'TOKEN_MISSING' });
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

  it('takes a number as Vietnamese type it and texts its E.164 form; signs in with it typed either way', async () => {
    const account = await signUpByMail();
    const local = `091 ${String(randomInt(0, 1000)).padStart(3, '0')} ${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    const phone = `+84${local.replace(/\D/g, '').slice(1)}`;
    let since = Date.now();
    expect((await call('POST', '/auth/otp/send', { token: account.accessToken, body: { phone: local, purpose: 'VERIFY_PHONE' } })).status).toBe(200);
    const code = codeIn((await waitForSms(phone, since)).text);
    const verified = await call('POST', '/auth/otp/verify', {
      token: account.accessToken,
      body: { phone: local.replace(/ /g, ''), code, purpose: 'VERIFY_PHONE' },
    });
    expect(verified.body.user).toMatchObject({ phone, phoneVerified: true });

    since = Date.now();
    expect((await call('POST', '/auth/otp/send', { body: { phone: `84${phone.slice(3)}` } })).status).toBe(200);
    const loginCode = codeIn((await waitForSms(phone, since)).text);
    expect((await call('POST', '/auth/otp/verify', { body: { phone: `+84 ${local.slice(1)}`, code: loginCode } })).body.user?.id).toBe(account.user.id);
    expect((await call('POST', '/auth/login', { body: { identifier: local, password: account.password } })).status).toBe(200);
  });

  it('400 VALIDATION_FAILED for what is no phone number (+12345678, 0912, letters)', async () => {
    for (const phone of ['+12345678', '0912', '0912 ABC 678', '+84 912 345 678 ext. 9']) {
      const res = await call('POST', '/auth/otp/send', { body: { phone } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.phone' }] });
    }
  });

  it('a valid number of a country outside SMS_COUNTRIES: 400 PHONE_COUNTRY_NOT_ALLOWED, and nothing is texted', async () => {
    const account = await signUpByMail();
    const phone = `+1415555${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    for (const [token, purpose] of [
      [undefined, 'LOGIN'],
      [account.accessToken, 'VERIFY_PHONE'],
    ] as const) {
      const res = await call('POST', '/auth/otp/send', { token, body: { phone, purpose } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'PHONE_COUNTRY_NOT_ALLOWED', details: { country: 'US', allowed: ['VN'] } });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect((await inbox(phone)).sms).toHaveLength(0);
  });

  it('a number no SMS should go to (premium-rate 1900…, toll-free 1800…, a fixed line): 400 PHONE_NOT_MOBILE, and nothing is texted', async () => {
    const account = await signUpByMail();
    const digits = (n: number) => String(randomInt(0, 10 ** n)).padStart(n, '0');
    const numbers: Array<[string, string]> = [
      [`1900 ${digits(4)}`, 'PREMIUM_RATE'],
      [`1900 ${digits(6)}`, 'PREMIUM_RATE'],
      [`1800 ${digits(4)}`, 'TOLL_FREE'],
      [`024 3${digits(3)} ${digits(4)}`, 'FIXED_LINE'],
    ];
    for (const [typed, type] of numbers) {
      for (const [token, purpose] of [
        [undefined, 'LOGIN'],
        [account.accessToken, 'VERIFY_PHONE'],
      ] as const) {
        const res = await call('POST', '/auth/otp/send', { token, body: { phone: typed, purpose } });
        expect([typed, purpose, res.status]).toEqual([typed, purpose, 400]);
        expect(res.body).toMatchObject({ code: 'PHONE_NOT_MOBILE', details: { type } });
      }
    }
    // A mobile number of the same caller still gets its code.
    const mobile = randomPhone();
    const since = Date.now();
    expect((await call('POST', '/auth/otp/send', { token: account.accessToken, body: { phone: mobile, purpose: 'VERIFY_PHONE' } })).status).toBe(200);
    await waitForSms(mobile, since);
    for (const [typed] of numbers) expect((await inbox(parsePhone(typed)!.e164)).sms).toHaveLength(0);
  });

  it('an account stored before with the trunk 0 after +84 (+840912…) is still found when the number is typed', async () => {
    const account = await signUpByMail();
    const national = `91${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const legacy = `+840${national}`;
    await db().collection(USERS).doc(account.user.id).update({ phone: legacy, phoneVerified: true });
    await db().collection(USER_PHONES).doc(legacy).set({ userId: account.user.id, createdAt: Date.now() });
    const since = Date.now();
    expect((await call('POST', '/auth/otp/send', { body: { phone: `0${national}` } })).status).toBe(200);
    // Texted only because the account was found (an unknown number gets the same answer and no text).
    const code = codeIn((await waitForSms(`+84${national}`, since)).text);
    const res = await call('POST', '/auth/otp/verify', { body: { phone: `0${national}`, code } });
    expect(res.body.user?.id).toBe(account.user.id);
    // Nobody else is given the number meanwhile.
    const other = await signUpByMail();
    const taken = await call('PATCH', `/users/admin/${other.user.id}`, { token: (await adminTokens()).accessToken, body: { phone: `0${national}` } });
    expect(taken).toMatchObject({ status: 409, body: { code: 'PHONE_TAKEN' } });
  });

  it('a wrong code is refused', async () => {
    const account = await signUpByMail();
    const phone = randomPhone();
    const since = Date.now();
    await call('POST', '/auth/otp/send', { token: account.accessToken, body: { phone, purpose: 'VERIFY_PHONE' } });
    const code = codeIn((await waitForSms(phone, since)).text);
    expect(
      (await call('POST', '/auth/otp/verify', { token: account.accessToken, body: { phone, code: wrongCode(code), purpose: 'VERIFY_PHONE' } })).status,
    ).toBe(400);
  });
});

describe('the message queue: deliverMessage consumes a platform/kits/tasks queue (as deployed: Cloud Tasks, then the function)', () => {
  it('a mail and a text handed to the queue reach their servers through the deliverMessage function', async () => {
    const [to, phone, since] = [uniqueEmail('queued'), randomPhone(), Date.now()];
    await enqueue(DELIVERY_QUEUE, { channel: 'mail', message: { to, subject: 'Queued', text: 'Your code is 246810' } });
    await enqueue(DELIVERY_QUEUE, { channel: 'sms', message: { to: phone, text: 'code 135790' } });
    expect(codeIn((await waitForMail(to, { since, subject: 'Queued' })).text)).toBe('246810');
    expect(codeIn((await waitForSms(phone, since)).text)).toBe('135790');
  }, 60_000);

  it('refuses to hand over a payload the task would drop', async () => {
    await expect(enqueue(DELIVERY_QUEUE, { channel: 'mail', message: { to: 'x', subject: 's', text: 't' } })).rejects.toThrow();
  });
});
