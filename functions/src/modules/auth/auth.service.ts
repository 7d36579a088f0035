import { isoOrNull } from '../../platform/kits/time/time';
import type { AuthContext } from '../../platform/core/auth/access-token';
import type { AppConfig } from '../../platform/core/config';
import { AppError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../platform/core/errors/app-error';
import { parsePhone, phoneDigits, receivesSms } from '../../platform/core/http/contact';
import { logger } from '../../platform/core/logging/logger';
import type { Mailer, MailMessage } from '../../platform/core/mail/mailer';
import type { SmsSender } from '../../platform/core/sms/sms';
import type { MessageQueue } from '../../platform/core/message-queue/message-queue';
import { alreadyRegisteredMail, codeMail, codeSms, maskEmail } from './auth.mail';
import { AUTH_LIMITS, type ClientInfo, type OtpPurpose } from './auth.model';
import { authRepo } from './auth.repo';
import type { GoogleIdTokenVerifier } from './google';
import { createLockout, LockedError } from './lockout';
import { failureKey, invalidCodeError, type OtpService, type OtpTarget } from './otp.service';
import type { PasswordHasher } from './passwords';
import type { SessionService } from './session.service';
import type { TokenSigner } from './tokens';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { newUserRecord, normalizeRoles, toProfile, type UserRecord, accounts, localeOf } from '../users';
import type { Locale } from '../../platform/kits/i18n';

export interface AuthDeps {
  config: Readonly<AppConfig>;
  hasher: PasswordHasher;
  otp: OtpService;
  sessions: SessionService;
  signer: TokenSigner;
  mailer: Mailer;
  sms: SmsSender;
  /** Codes whose sending must not show in the response time (anti-enumeration). */
  messages: MessageQueue;
  google: GoogleIdTokenVerifier;
  now: () => number;
  /** After a sign-in with an email code: other modules act on a code they had mailed (driver registration). */
  onEmailCodeSignIn?: (userId: string, challengeId: string) => Promise<unknown>;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: AuthDeps) {
  const { config, hasher, otp, sessions, mailer, sms, messages, now } = deps;
  const resend = { expiresInSec: AUTH_LIMITS.otpTtlSec, resendAfterSec: AUTH_LIMITS.otpResendGapSec };

  // Mails and texts are in the language of the account they are for.
  const mailCode = (purpose: OtpPurpose, to: string, code: string, user: Pick<UserRecord, 'locale'> | undefined): MailMessage =>
    codeMail(purpose, to, code, AUTH_LIMITS.otpTtlSec, localeOf(user));

  // ADMIN_EMAILS: an account whose verified email is listed holds ADMIN (roles written alone, in a transaction).
  async function withConfiguredAdmin(user: UserRecord): Promise<UserRecord> {
    const listed = (u: UserRecord) => u.email !== null && u.emailVerified && config.ADMIN_EMAILS.includes(u.email) && !u.roles.includes('ADMIN');
    if (!listed(user)) return user;
    const updated = await accounts.patch(user.id, (current) =>
      listed(current) ? { roles: normalizeRoles([...current.roles, 'ADMIN']), permissions: ['*'], updatedAt: now(), updatedBy: 'system:ADMIN_EMAILS' } : {},
    );
    if (!updated) throw new UnauthorizedError('Account not found');
    logger.info('ADMIN granted from ADMIN_EMAILS', { userId: user.id });
    return updated;
  }

  function assertCanSignIn(user: UserRecord): void {
    if (user.disabled) throw new ForbiddenError('This account is disabled').withCode('ACCOUNT_DISABLED');
  }

  async function findByIdentifier(identifier: string): Promise<{ user?: UserRecord; target: Pick<OtpTarget, 'channel' | 'destination'> }> {
    const raw = identifier.trim();
    if (raw.includes('@')) {
      const email = normalizeEmail(raw);
      return { user: await accounts.findByEmail(email), target: { channel: 'email', destination: email } };
    }
    // A phone as typed (0912 345 678, +84…): found under its E.164 form; anything else finds no account.
    const phone = parsePhone(raw)?.e164;
    const user = phone ? await accounts.findByPhone(phone) : undefined;
    return { user, target: { channel: 'sms', destination: phone ?? phoneDigits(raw) } };
  }

  const lockout = createLockout(now);

  return {
    // The same answer, the same work and the same status for a new, a pending and an active email, on
    // every repeat (no enumeration). A registration never changes an existing account: whoever proves
    // the mailbox activates the pending account with the password of its *first* registration (one who
    // forgot it uses forgot/reset). Pending: the code again; active: a notice. Both obey the code limits
    // of the mailbox (resend gap, hourly and daily caps), so repeats cannot flood it. `locale` (from
    // Accept-Language) is the new account's language; a repeat keeps the first one's, as it keeps its password.
    async register(body: { email: string; password: string; name: string }, locale: Locale) {
      const email = normalizeEmail(body.email);
      // Hash first: a new and an existing email cost the same time.
      const passwordHash = await hasher.hash(body.password);
      const t = now();
      const account = await inTransaction(async (tx) => {
        const existing = await accounts.findByEmail(email, tx);
        if (existing) return existing;
        const user = newUserRecord({ id: accounts.newId(), email, name: body.name, passwordHash, emailVerified: false, provider: 'password', now: t, locale });
        accounts.txCreate(tx, user);
        return user;
      });
      const pending = account.status === 'PENDING';
      let message: MailMessage | undefined;
      try {
        // An active account's REGISTER challenge is bound to no account: its code is never sent nor accepted.
        const { code } = await otp.issue({ purpose: 'REGISTER', channel: 'email', destination: email, userId: pending ? account.id : null });
        message = pending ? mailCode('REGISTER', email, code, account) : alreadyRegisteredMail(email, localeOf(account));
      } catch (err) {
        // Within the resend gap or over a cap: nothing is sent, and the answer does not say so.
        if (!(err instanceof AppError && err.statusCode === 429)) throw err;
      }
      await messages.hand('registration mail', message ? { channel: 'mail', message } : undefined);
      return { mailSent: mailer.configured, email, ...resend };
    },

    async sendEmailOtp(body: { email: string; purpose: 'REGISTER' | 'LOGIN' }) {
      const email = normalizeEmail(body.email);
      const user = await accounts.findByEmail(email);
      const eligible = user !== undefined && !user.disabled && (body.purpose === 'REGISTER' ? user.status === 'PENDING' : user.status === 'ACTIVE');
      // Same work and same answer whether or not the address has an account.
      const { code } = await otp.issue({ purpose: body.purpose, channel: 'email', destination: email, userId: eligible ? user.id : null });
      await messages.hand('email otp', eligible ? { channel: 'mail', message: mailCode(body.purpose, email, code, user) } : undefined);
      return { mailSent: mailer.configured, ...resend };
    },

    async verifyEmailOtp(body: { email: string; code: string; purpose: 'REGISTER' | 'LOGIN' }, client: ClientInfo) {
      const email = normalizeEmail(body.email);
      const found = await accounts.findByEmail(email);
      const { challengeId } = await otp.verify({ purpose: body.purpose, channel: 'email', destination: email, userId: found?.id ?? null }, body.code);
      if (!found) throw invalidCodeError();
      assertCanSignIn(found);
      if (deps.onEmailCodeSignIn) {
        // The sign-in stands even if the follow-up fails (it is logged; registering again retries it).
        await deps
          .onEmailCodeSignIn(found.id, challengeId)
          .catch((err: Error) => logger.error('email-code sign-in follow-up failed', { userId: found.id, error: err.message }));
      }
      let user = found;
      // The code proves the mailbox: a pending registration (or an account an admin created) is now verified.
      if (user.status === 'PENDING' || !user.emailVerified) {
        const patch = { status: 'ACTIVE' as const, emailVerified: true, updatedAt: now() };
        await accounts.update(user.id, patch);
        user = { ...user, ...patch };
      }
      user = await withConfiguredAdmin(user);
      return sessions.start(user, body.purpose === 'REGISTER' ? 'register' : 'email_otp', client);
    },

    async sendPhoneOtp(body: { phone: string; purpose: 'LOGIN' | 'VERIFY_PHONE' }, auth: AuthContext | undefined) {
      // SMS toll fraud (texts pumped to premium numbers abroad): codes go only to the countries we serve, whoever asks.
      // The number parsed once: its country and type (body.phone is already E.164, from PhoneSchema).
      const parsed = parsePhone(body.phone);
      const country = parsed?.country;
      if (!parsed || !country || !config.SMS_COUNTRIES.includes(country)) {
        throw new BadRequestError(`Codes are not texted to numbers of this country (${country ?? 'unknown'})`, {
          country: country ?? null,
          allowed: config.SMS_COUNTRIES,
        }).withCode('PHONE_COUNTRY_NOT_ALLOWED');
      }
      if (!receivesSms(parsed))
        throw new BadRequestError('Codes are texted to mobile numbers only', { type: parsed.type ?? null }).withCode('PHONE_NOT_MOBILE');
      let userId: string | null = null;
      let user: UserRecord | undefined;
      if (body.purpose === 'VERIFY_PHONE') {
        if (!auth) throw new UnauthorizedError('VERIFY_PHONE needs the bearer token of the account').withCode('TOKEN_MISSING');
        userId = auth.userId;
        user = await accounts.get(userId); // its language
      } else {
        user = await accounts.findByPhone(body.phone);
        userId = user && user.status === 'ACTIVE' && !user.disabled ? user.id : null;
      }
      const { code } = await otp.issue({ purpose: body.purpose, channel: 'sms', destination: body.phone, userId });
      await messages.hand(
        'sms otp',
        userId ? { channel: 'sms', message: { to: body.phone, text: codeSms(code, AUTH_LIMITS.otpTtlSec, localeOf(user)) } } : undefined,
      );
      return { smsProvider: sms.provider, ...resend };
    },

    async verifyPhoneOtp(body: { phone: string; code: string; purpose: 'LOGIN' | 'VERIFY_PHONE' }, client: ClientInfo, auth: AuthContext | undefined) {
      if (body.purpose === 'VERIFY_PHONE') {
        if (!auth) throw new UnauthorizedError('VERIFY_PHONE needs the bearer token of the account').withCode('TOKEN_MISSING');
        await otp.verify({ purpose: 'VERIFY_PHONE', channel: 'sms', destination: body.phone, userId: auth.userId }, body.code);
        const t = now();
        const user = await inTransaction(async (tx) => {
          const owner = await accounts.txPhoneOwner(tx, body.phone);
          if (owner && owner !== auth.userId) throw new ConflictError('This phone number belongs to another account').withCode('PHONE_TAKEN');
          const current = await accounts.get(auth.userId, tx);
          if (!current) throw new NotFoundError('Account not found');
          accounts.txClaimPhone(tx, body.phone, auth.userId, current.phone, t);
          const patch = { phone: body.phone, phoneVerified: true, updatedAt: t };
          accounts.txPatch(tx, current, patch);
          return { ...current, ...patch };
        });
        return { phoneVerified: true as const, user: toProfile(user) };
      }
      const found = await accounts.findByPhone(body.phone);
      await otp.verify({ purpose: 'LOGIN', channel: 'sms', destination: body.phone, userId: found?.id ?? null }, body.code);
      if (!found) throw invalidCodeError();
      assertCanSignIn(found);
      return sessions.start(await withConfiguredAdmin(found), 'phone_otp', client);
    },

    async loginPassword(body: { identifier?: string; email?: string; password: string }, client: ClientInfo) {
      const { user, target } = await findByIdentifier((body.email ?? body.identifier)!);
      const lockKey = failureKey({ ...target, userId: user?.id ?? null });
      const t = now();
      await lockout.assertUnlocked(lockKey);
      const matches = await hasher.verify(body.password, user?.passwordHash);
      if (!user || !matches) {
        const locked = await lockout.fail(lockKey);
        if (locked) throw new LockedError(locked, t);
        throw new UnauthorizedError('Invalid email or password').withCode('AUTH_INVALID_CREDENTIALS');
      }
      assertCanSignIn(user);
      if (user.status === 'PENDING') {
        throw new ForbiddenError('Email not verified: verify it with POST /auth/email/otp/verify (purpose REGISTER)').withCode('AUTH_EMAIL_NOT_VERIFIED');
      }
      await lockout.clear(lockKey);
      const current = await withConfiguredAdmin(user);
      if (current.twoFactor.enabled && current.email) {
        const target: OtpTarget = { purpose: 'PASSWORD_2FA', channel: 'email', destination: current.email, userId: current.id };
        const challenge = (token: string, mailSent: boolean, expiresInSec: number) => ({
          requiresTwoFa: true as const,
          method: 'EMAIL' as const,
          twoFaToken: deps.signer.signTwoFa(current.id, token, t, AUTH_LIMITS.twoFaTtlSec),
          destination: maskEmail(current.email!),
          mailSent,
          expiresInSec,
        });
        try {
          const { code, challengeId, expiresInSec } = await otp.issue(target);
          return challenge(challengeId, await mailer.send(mailCode('PASSWORD_2FA', current.email, code, current)), expiresInSec);
        } catch (err) {
          // Signing in again right after: the code already mailed still completes it (no second mail).
          const pending = err instanceof AppError && err.statusCode === 429 ? await otp.live(target) : undefined;
          if (!pending) throw err;
          return challenge(pending.challengeId, false, pending.expiresInSec);
        }
      }
      return sessions.start(current, 'password', client);
    },

    async completeTwoFa(body: { twoFaToken: string; code: string }, client: ClientInfo) {
      const claims = deps.signer.verifyTwoFa(body.twoFaToken);
      const user = await accounts.get(claims.userId);
      if (!user?.email) throw new UnauthorizedError('Invalid or expired two-factor token');
      const { challengeId } = await otp.verify({ purpose: 'PASSWORD_2FA', channel: 'email', destination: user.email, userId: user.id }, body.code);
      // A token from an earlier challenge does not complete a newer one.
      if (challengeId !== claims.challengeId) throw new UnauthorizedError('Invalid or expired two-factor token');
      assertCanSignIn(user);
      return sessions.start(await withConfiguredAdmin(user), 'password_2fa', client);
    },

    async twoFaStatus(userId: string) {
      const user = await accounts.get(userId);
      if (!user) throw new NotFoundError('Account not found');
      return twoFaView(user);
    },

    async setTwoFa(userId: string, password: string, enabled: boolean) {
      const user = await accounts.get(userId);
      if (!user) throw new NotFoundError('Account not found');
      if (!user.passwordHash || !user.email)
        throw new ConflictError('Email two-factor protects password sign-in: set a password first (POST /auth/password/forgot)');
      // A wrong password here counts toward the account lock, as at sign-in: no unlimited guessing
      // with a stolen access token.
      await lockout.assertUnlocked(userId);
      if (!(await hasher.verify(password, user.passwordHash))) {
        const lockedUntil = await lockout.fail(userId);
        if (lockedUntil) throw new LockedError(lockedUntil, now());
        throw new ForbiddenError('Password is incorrect').withCode('AUTH_PASSWORD_INCORRECT');
      }
      const twoFactor = enabled ? { enabled: true, method: 'EMAIL' as const, enabledAt: now() } : { enabled: false, method: null, enabledAt: null };
      await accounts.update(userId, { twoFactor, updatedAt: now() });
      return twoFaView({ ...user, twoFactor });
    },

    /** `locale` (from Accept-Language): the language of an account this sign-in creates. */
    async google(body: { idToken: string }, client: ClientInfo, locale: Locale) {
      const identity = await deps.google(body.idToken);
      const t = now();
      const user = await inTransaction(async (tx) => {
        const ownerId = await authRepo.txIdentityOwner(tx, 'google', identity.subject);
        if (ownerId) {
          const owner = await accounts.get(ownerId, tx);
          if (!owner) throw new UnauthorizedError('The linked account no longer exists');
          return owner;
        }
        if (!identity.email || !identity.emailVerified) {
          throw new ForbiddenError('The Google account email is not verified; it cannot be used to create an account');
        }
        // An existing account is never taken over by email alone: its owner links Google while signed in.
        if (await accounts.findByEmail(identity.email, tx)) {
          throw new ConflictError('An account with this email already exists: sign in to it, then link Google with POST /auth/google/link').withCode(
            'ACCOUNT_EXISTS',
          );
        }
        const created = newUserRecord({
          id: accounts.newId(),
          email: identity.email,
          name: identity.name ?? identity.email.split('@')[0],
          passwordHash: null,
          emailVerified: true,
          provider: 'google',
          now: t,
          locale,
        });
        accounts.txCreate(tx, created);
        authRepo.txCreateIdentity(tx, 'google', identity.subject, created.id, identity.email, t);
        return created;
      });
      assertCanSignIn(user);
      if (user.status === 'PENDING') throw new ForbiddenError('Email not verified').withCode('AUTH_EMAIL_NOT_VERIFIED');
      return sessions.start(await withConfiguredAdmin(user), 'google', client);
    },

    async linkGoogle(userId: string, idToken: string) {
      const identity = await deps.google(idToken);
      const t = now();
      const user = await inTransaction(async (tx) => {
        const ownerId = await authRepo.txIdentityOwner(tx, 'google', identity.subject);
        const current = await accounts.get(userId, tx);
        if (!current) throw new NotFoundError('Account not found');
        if (ownerId && ownerId !== userId) throw new ConflictError('This Google account is linked to another account').withCode('ACCOUNT_EXISTS');
        if (ownerId === userId) return current;
        authRepo.txCreateIdentity(tx, 'google', identity.subject, userId, identity.email, t);
        const providers = current.providers.includes('google') ? current.providers : [...current.providers, 'google' as const];
        accounts.txPatch(tx, current, { providers, updatedAt: t });
        return { ...current, providers };
      });
      return toProfile(user);
    },

    async forgotPassword(body: { email: string }) {
      const email = normalizeEmail(body.email);
      const user = await accounts.findByEmail(email);
      const eligible = user !== undefined && !user.disabled;
      const { code } = await otp.issue({ purpose: 'PASSWORD_RESET', channel: 'email', destination: email, userId: eligible ? user.id : null });
      await messages.hand('reset mail', eligible ? { channel: 'mail', message: mailCode('PASSWORD_RESET', email, code, user) } : undefined);
      return { accepted: true as const, message: 'If an account exists for this email, a reset code is on its way.' };
    },

    async resetPassword(body: { email: string; code: string; newPassword: string }) {
      const email = normalizeEmail(body.email);
      const user = await accounts.findByEmail(email);
      await otp.verify({ purpose: 'PASSWORD_RESET', channel: 'email', destination: email, userId: user && !user.disabled ? user.id : null }, body.code);
      if (!user) throw invalidCodeError();
      const passwordHash = await hasher.hash(body.newPassword);
      const t = now();
      // The code proved the mailbox: an unverified account becomes active. `sessionsValidAfter` ends every
      // older session in the same write as the new hash; their records, push tokens and Firebase
      // sign-ins are cleaned up right after.
      await accounts.patch(user.id, (current) => ({
        passwordHash,
        providers: current.providers.includes('password') ? current.providers : [...current.providers, 'password' as const],
        status: 'ACTIVE',
        emailVerified: true,
        sessionsValidAfter: t,
        updatedAt: t,
      }));
      await lockout.clear(user.id);
      const sessionsRevoked = await sessions.revokeAll(user.id, 'password_reset');
      return { reset: true as const, sessionsRevoked };
    },
  };
}

function twoFaView(user: UserRecord) {
  return {
    enabled: user.twoFactor.enabled,
    method: user.twoFactor.method,
    enabledAt: isoOrNull(user.twoFactor.enabledAt),
  };
}
