import { signUpByMail } from '../../helpers/accounts';
import { call, PASSWORD, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { mailedCode } from '../../helpers/sinks';

beforeAll(requireEmulators);

const login = (body: Record<string, unknown>, path = '/auth/login/password') => call('POST', path, { body });

describe('password login and its aliases', () => {
  it.each(['/auth/login/password', '/auth/login', '/login'])('%s accepts email or identifier and creates a session', async (path) => {
    const account = await signUpByMail();
    const byEmail = await login({ email: account.email, password: PASSWORD }, path);
    const byIdentifier = await login({ identifier: account.email.toUpperCase(), password: PASSWORD }, path);
    for (const res of [byEmail, byIdentifier]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tokenType: 'Bearer', session: { method: 'password', current: true }, user: { email: account.email } });
    }
    expect(byEmail.body.session.id).not.toBe(byIdentifier.body.session.id);
  });

  it('answers unknown accounts and wrong passwords alike (401, same body)', async () => {
    const account = await signUpByMail();
    const wrong = await login({ email: account.email, password: 'wrong password' });
    const unknown = await login({ email: uniqueEmail('nobody'), password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect([wrong.body.code, unknown.body.code]).toEqual(['AUTH_INVALID_CREDENTIALS', 'AUTH_INVALID_CREDENTIALS']);
  });

  it('400 when neither identifier nor email is given', async () => {
    const res = await login({ password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('body.identifier');
  });
});

describe('email two-factor', () => {
  it('enable → password login answers requiresTwoFa without tokens → the mailed code completes it', async () => {
    const account = await signUpByMail();
    expect((await call('GET', '/auth/2fa/status', { token: account.accessToken })).body).toEqual({ enabled: false, method: null, enabledAt: null });
    expect((await call('POST', '/auth/2fa/email/enable', { token: account.accessToken, body: { password: 'wrong password' } })).status).toBe(403);
    const enabled = await call('POST', '/auth/2fa/email/enable', { token: account.accessToken, body: { password: PASSWORD } });
    expect(enabled.body).toMatchObject({ enabled: true, method: 'EMAIL' });

    const since = Date.now();
    const first = await login({ email: account.email, password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ requiresTwoFa: true, method: 'EMAIL', mailSent: true });
    expect(first.body.accessToken).toBeUndefined();
    const code = await mailedCode(account.email, { since, subject: 'Your two-step sign-in code' });
    // Signing in again within the resend gap mails nothing new; the code already mailed completes either token.
    const again = await login({ email: account.email, password: PASSWORD });
    expect(again.body).toMatchObject({ requiresTwoFa: true, mailSent: false });

    expect(
      (await call('POST', '/auth/login/password/2fa', { body: { twoFaToken: first.body.twoFaToken, code: code === '000000' ? '111111' : '000000' } })).status,
    ).toBe(400);
    expect((await call('POST', '/auth/login/password/2fa', { body: { twoFaToken: 'garbage', code } })).status).toBe(401);
    const done = await call('POST', '/auth/login/password/2fa', { body: { twoFaToken: first.body.twoFaToken, code } });
    expect(done.status).toBe(200);
    expect(done.body.session.method).toBe('password_2fa');
    // Single use.
    expect((await call('POST', '/auth/login/password/2fa', { body: { twoFaToken: first.body.twoFaToken, code } })).status).toBe(400);
  });
});

describe('account lock after repeated failures', () => {
  it('wrong passwords on 2FA enable/disable count toward the account lock (a stolen token cannot guess freely)', async () => {
    const account = await signUpByMail();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const path = i % 2 === 0 ? '/auth/2fa/email/enable' : '/auth/2fa/email/disable';
      statuses.push((await call('POST', path, { token: account.accessToken, body: { password: `wrong ${i}` } })).status);
    }
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(403));
    expect(statuses[9]).toBe(429);
    expect((await call('POST', '/auth/2fa/email/enable', { token: account.accessToken, body: { password: 'wrong again' } })).body.code).toBe('AUTH_LOCKED');
    expect((await call('POST', '/auth/2fa/email/enable', { token: account.accessToken, body: { password: PASSWORD } })).status).toBe(429);
    expect((await login({ email: account.email, password: PASSWORD })).status).toBe(429);
  });

  it('locks sign-in after 10 failures from many IPs, refuses even the right password, and password reset still works and lifts it', async () => {
    const account = await signUpByMail();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await login({ email: account.email, password: `wrong ${i}` })).status);
    expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
    expect(statuses[9]).toBe(429);
    const locked = await login({ email: account.email, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('AUTH_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Email OTP sign-in is locked too.
    const since = Date.now();
    await call('POST', '/auth/email/otp/send', { body: { email: account.email, purpose: 'LOGIN' } });
    const otp = await mailedCode(account.email, { since, subject: 'Your sign-in code' });
    expect((await call('POST', '/auth/email/otp/verify', { body: { email: account.email, code: otp, purpose: 'LOGIN' } })).status).toBe(429);

    const resetSince = Date.now();
    expect((await call('POST', '/auth/password/forgot', { body: { email: account.email } })).status).toBe(200);
    const code = await mailedCode(account.email, { since: resetSince, subject: 'Reset your password' });
    const reset = await call('POST', '/auth/password/reset', { body: { email: account.email, code, newPassword: 'brand new password' } });
    expect(reset.status).toBe(200);
    expect((await login({ email: account.email, password: 'brand new password' })).status).toBe(200);
  });
});
