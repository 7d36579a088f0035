import { call, PASSWORD, testIp, uniqueEmail } from './api';
import { mailedCode } from './sinks';
import { AUTH_TEXTS } from '../../src/modules/auth/auth.texts';
import { normalizeEmail } from '../../src/modules/auth/auth.service';
import { createPasswordHasher, type PasswordHasher } from '../../src/modules/auth/passwords';
import { accounts, newUserRecord } from '../../src/modules/users';
import { parseConfig } from '../../src/platform/core/config';
import { inTransaction } from '../../src/platform/core/firebase/firebase';
import { functionsEnv } from './functions-env';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  session: { id: string };
  user: { id: string; email: string; roles: string[] };
}

// The subject of a code mail in a language.
export const codeSubject = (purpose: 'REGISTER' | 'LOGIN', language: 'vi' | 'en') =>
  AUTH_TEXTS.render('mail.code', { purpose, code: '', minutes: 0 }, language).subject;

// Hashes as the API under test does (its BCRYPT_COST), on this thread.
let hasher: PasswordHasher | undefined;
const passwords = () => (hasher ??= createPasswordHasher(parseConfig(functionsEnv()).BCRYPT_COST, { inline: true }));

type AccountOptions = { email?: string; password?: string; name?: string; ip?: string; language?: 'vi' | 'en'; api?: string };

/**
 * A fresh verified consumer account and its first token pair, for tests that are not about signing up: the account
 * is stored as a verified registration leaves it (the users module's own record and email index; no update follows, so
 * the usersChanged trigger does not run) and signs in with its password through the API. A third of the emulator tier's
 * CPU went to registrations' mail round trips (docs/testing.md); the auth module's tests and the smoke tier use `signUpByMail`.
 * `language`: the account's (the test client's own is en).
 */
export async function registerVerified(opts: AccountOptions = {}): Promise<Tokens & { email: string; password: string }> {
  const email = normalizeEmail(opts.email ?? uniqueEmail('user'));
  const password = opts.password ?? PASSWORD;
  const user = newUserRecord({
    id: accounts.newId(),
    email,
    name: opts.name ?? 'Test User',
    passwordHash: await passwords().hash(password),
    emailVerified: true,
    provider: 'password',
    now: Date.now(),
    locale: opts.language ?? 'en',
  });
  await inTransaction(async (tx) => accounts.txCreate(tx, user));
  const res = await call<Tokens>('POST', '/auth/login/password', { body: { email, password }, ip: opts.ip ?? testIp(), api: opts.api });
  if (res.status !== 200) throw new Error(`sign-in ${res.status}: ${JSON.stringify(res.body)}`);
  return { ...res.body, email, password };
}

/** Registers and verifies a fresh consumer account the way an app does (register, the mailed code, verify); returns its first token pair. */
export async function signUpByMail(opts: AccountOptions = {}): Promise<Tokens & { email: string; password: string }> {
  const email = opts.email ?? uniqueEmail('user');
  const password = opts.password ?? PASSWORD;
  const ip = opts.ip ?? testIp();
  const since = Date.now();
  const language = opts.language ?? 'en';
  const reg = await call('POST', '/auth/register', {
    body: { email, password, name: opts.name ?? 'Test User' },
    ip,
    headers: { 'accept-language': language },
    api: opts.api,
  });
  if (reg.status !== 200) throw new Error(`register ${reg.status}: ${JSON.stringify(reg.body)}`);
  const code = await mailedCode(email, { since, subject: codeSubject('REGISTER', language) });
  const res = await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'REGISTER' }, ip, api: opts.api });
  if (res.status !== 200) throw new Error(`verify ${res.status}: ${JSON.stringify(res.body)}`);
  return { ...res.body, email, password };
}

export const ADMIN_EMAIL = 'admin@superapp.test';

// The account listed in ADMIN_EMAILS (npm test's environment); registered once per emulator run. Parallel test
// files may all find it missing and register it at once: each registration mails a new code and voids the one
// before, so a loser's verification fails; it then signs in once the winner has verified the account.
export async function adminTokens(): Promise<Tokens> {
  for (let attempt = 1; ; attempt++) {
    const login = await call<Tokens>('POST', '/auth/login/password', { body: { email: ADMIN_EMAIL, password: PASSWORD } });
    if (login.status === 200) return login.body;
    try {
      return await signUpByMail({ email: ADMIN_EMAIL, name: 'Admin' });
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt + Math.random() * 300));
    }
  }
}

// Email-OTP sign-in (the partner, driver and admin apps' method). `language`: the account's; one that an
// administrator or a partner created has none yet and follows the default, vi.
export async function emailOtpLogin(email: string, surface = 'DRV', language: 'vi' | 'en' = 'en'): Promise<Tokens> {
  const since = Date.now();
  const sent = await call('POST', '/auth/email/otp/send', { body: { email, purpose: 'LOGIN' } });
  if (sent.status !== 200) throw new Error(`otp send ${sent.status}`);
  const code = await mailedCode(email, { since, subject: codeSubject('LOGIN', language) });
  const res = await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface } });
  if (res.status !== 200) throw new Error(`otp verify ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
