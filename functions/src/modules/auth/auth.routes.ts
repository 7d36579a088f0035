import type { Request } from 'express';
import { truncateText } from '../../platform/kits/text/text';
import type { AuthContext } from '../../platform/core/auth/access-token';
import type { Hat } from '../../platform/core/auth/roles';
import type { AppContext } from '../../platform/core/http/module';
import { clientIp } from '../../platform/core/http/client-ip';
import { defineRoute, type AnyRoute, type OperationNames, type RouteDefinition } from '../../platform/core/http/route';
import { requestLocale } from '../../platform/kits/i18n';
import { AcceptLanguageHeadersSchema } from '../../platform/kits/i18n/i18n.schemas';
import { AUTH_RATE_LIMITS, type ClientInfo } from './auth.model';
import {
  AuthTokensSchema,
  CodeSentSchema,
  EmailOtpSendBodySchema,
  EmailOtpVerifyBodySchema,
  ForgotBodySchema,
  ForgotResponseSchema,
  GoogleBodySchema,
  GoogleLinkBodySchema,
  LogoutBodySchema,
  PasswordConfirmBodySchema,
  PasswordLoginBodySchema,
  PasswordLoginResponseSchema,
  PhoneOtpSendBodySchema,
  PhoneOtpSentSchema,
  PhoneOtpVerifyBodySchema,
  PhoneOtpVerifyResponseSchema,
  RefreshBodySchema,
  RegisterBodySchema,
  RegisterResponseSchema,
  ResetBodySchema,
  ResetResponseSchema,
  RevokedCountSchema,
  SessionIdParamsSchema,
  SessionsResponseSchema,
  TwoFaCompleteBodySchema,
  TwoFaStatusSchema,
} from './auth.schemas';
import { authServicesFor } from './auth.wiring';
import { UserProfileSchema } from '../users';

export function clientInfo(req: Request, body: { surface?: Hat; deviceName?: string } = {}): ClientInfo {
  return {
    ip: clientIp(req),
    userAgent: truncateText(req.get('user-agent') ?? '', 300) || null,
    surface: body.surface ?? null,
    deviceName: body.deviceName ?? null,
  };
}

// Most auth operations: public JSON POSTs of the auth tag.
function publicPost<TBody, TResult>(route: Omit<RouteDefinition<TBody, unknown, unknown, TResult>, 'method' | 'tag' | 'auth'>): AnyRoute {
  return defineRoute({ method: 'post', tag: 'auth', auth: 'public', ...route });
}

export function authRoutes(ctx: AppContext): AnyRoute[] {
  const { auth, sessions } = authServicesFor(ctx.config);
  const me = (a: AuthContext | undefined) => a!;

  const register = (path: string, names: OperationNames, summary: string, description?: string): AnyRoute =>
    defineRoute({
      method: 'post',
      path,
      ...names,
      tag: 'auth',
      summary,
      description,
      auth: 'public',
      rateLimit: AUTH_RATE_LIMITS.register,
      request: { body: RegisterBodySchema, headers: AcceptLanguageHeadersSchema },
      response: { description: 'Registered (or already registered: same answer); check the mailbox.', schema: RegisterResponseSchema },
      handler: ({ body, headers }) => auth.register(body, requestLocale(headers, ctx.config.DEFAULT_LOCALE)),
    });

  const passwordLogin = (path: string, names: OperationNames, summary: string, description?: string): AnyRoute =>
    defineRoute({
      method: 'post',
      path,
      ...names,
      tag: 'auth',
      summary,
      description,
      auth: 'public',
      rateLimit: AUTH_RATE_LIMITS.login,
      codes: ['AUTH_INVALID_CREDENTIALS', 'AUTH_EMAIL_NOT_VERIFIED', 'ACCOUNT_DISABLED', 'AUTH_LOCKED'],
      request: { body: PasswordLoginBodySchema },
      response: { description: 'Tokens and the new session, or a two-factor challenge.', schema: PasswordLoginResponseSchema },
      handler: ({ body, req }) => auth.loginPassword(body, clientInfo(req, body)),
    });

  const twoFaSwitch = (enabled: boolean, summary: string): AnyRoute =>
    defineRoute({
      method: 'post',
      path: `/auth/2fa/email/${enabled ? 'enable' : 'disable'}`,
      operationId: enabled ? 'enableEmailTwoFactor' : 'disableEmailTwoFactor',
      tag: 'auth',
      summary,
      description: 'Confirmed with the account password (403 when wrong; 409 for an account without a password).',
      auth: [],
      errors: [409],
      codes: ['AUTH_PASSWORD_INCORRECT', 'AUTH_LOCKED'],
      request: { body: PasswordConfirmBodySchema },
      response: { description: 'Two-factor status.', schema: TwoFaStatusSchema },
      handler: ({ body, auth: a }) => auth.setTwoFa(me(a).userId, body.password, enabled),
    });

  return [
    register(
      '/auth/register',
      { operationId: 'register' },
      'Register with email and password',
      'Creates a PENDING account with role USER and hat CON and mails an email OTP (purpose REGISTER).',
    ),
    register('/register', { operationId: 'registerAlias', aliasOf: 'register' }, 'Register (alias of POST /auth/register)'),
    passwordLogin(
      '/auth/login/password',
      { operationId: 'loginWithPassword' },
      'Sign in with email (or verified phone) and password',
      'With two-factor enabled, answers `{ requiresTwoFa: true, twoFaToken, ... }` and mails a PASSWORD_2FA code.',
    ),
    passwordLogin('/auth/login', { operationId: 'loginAlias', aliasOf: 'loginWithPassword' }, 'Password sign-in (alias; email or identifier)'),
    passwordLogin('/login', { operationId: 'loginShortAlias', aliasOf: 'loginWithPassword' }, 'Password sign-in (alias)'),
    publicPost({
      path: '/auth/login/password/2fa',
      operationId: 'completeTwoFactorLogin',
      summary: 'Complete a two-factor password sign-in',
      rateLimit: AUTH_RATE_LIMITS.otpVerify,
      errors: [401, 403, 429],
      codes: ['AUTH_INVALID_CODE', 'AUTH_LOCKED', 'ACCOUNT_DISABLED'],
      request: { body: TwoFaCompleteBodySchema },
      response: { description: 'Tokens and the new session.', schema: AuthTokensSchema },
      handler: ({ body, req }) => auth.completeTwoFa(body, clientInfo(req, body)),
    }),
    publicPost({
      path: '/auth/email/otp/send',
      operationId: 'sendEmailCode',
      summary: 'Mail a one-time code (sign-in of PAR, DRV and ADM apps, or a new REGISTER code)',
      rateLimit: AUTH_RATE_LIMITS.otpSend,
      errors: [429],
      codes: ['AUTH_CODE_LIMIT'],
      request: { body: EmailOtpSendBodySchema },
      response: { description: 'Accepted (same answer for unknown addresses).', schema: CodeSentSchema },
      handler: ({ body }) => auth.sendEmailOtp(body),
    }),
    publicPost({
      path: '/auth/email/otp/verify',
      operationId: 'verifyEmailCode',
      summary: 'Verify an email code: REGISTER activates the account; LOGIN signs in',
      rateLimit: AUTH_RATE_LIMITS.otpVerify,
      errors: [403, 429],
      codes: ['AUTH_INVALID_CODE', 'AUTH_LOCKED', 'ACCOUNT_DISABLED'],
      request: { body: EmailOtpVerifyBodySchema },
      response: { description: 'Tokens and the new session.', schema: AuthTokensSchema },
      handler: ({ body, req }) => auth.verifyEmailOtp(body, clientInfo(req, body)),
    }),
    // Public, but VERIFY_PHONE acts for the signed-in caller: the bearer token is optional (auth 'optional').
    defineRoute({
      method: 'post',
      tag: 'auth',
      auth: 'optional',
      path: '/auth/otp/send',
      operationId: 'sendPhoneCode',
      summary: 'Text a one-time code to a phone (SMS; login OTP only)',
      description:
        'Codes are texted only to mobile numbers (PHONE_NOT_MOBILE otherwise) of the countries in SMS_COUNTRIES. VERIFY_PHONE needs the bearer token of the account (401 TOKEN_MISSING without it).',
      rateLimit: AUTH_RATE_LIMITS.otpSend,
      errors: [401, 429],
      codes: ['AUTH_CODE_LIMIT', 'PHONE_COUNTRY_NOT_ALLOWED', 'PHONE_NOT_MOBILE', 'TOKEN_MISSING'],
      request: { body: PhoneOtpSendBodySchema },
      response: { description: 'Accepted (same answer for unknown numbers).', schema: PhoneOtpSentSchema },
      handler: ({ body, auth: caller }) => auth.sendPhoneOtp(body, caller),
    }),
    defineRoute({
      method: 'post',
      tag: 'auth',
      auth: 'optional',
      path: '/auth/otp/verify',
      operationId: 'verifyPhoneCode',
      summary: 'Verify a phone code: LOGIN signs in; VERIFY_PHONE attaches the phone to the signed-in account',
      rateLimit: AUTH_RATE_LIMITS.otpVerify,
      errors: [401, 403, 409, 429],
      codes: ['AUTH_INVALID_CODE', 'AUTH_LOCKED', 'PHONE_TAKEN', 'ACCOUNT_DISABLED', 'TOKEN_MISSING'],
      request: { body: PhoneOtpVerifyBodySchema },
      response: {
        description: 'Tokens (LOGIN) or the updated profile (VERIFY_PHONE, which needs the bearer token of the account).',
        schema: PhoneOtpVerifyResponseSchema,
      },
      handler: ({ body, req, auth: caller }) => auth.verifyPhoneOtp(body, clientInfo(req, body), caller),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/refresh',
      operationId: 'refreshTokens',
      tag: 'auth',
      summary: 'Rotate the refresh token',
      description:
        'Every use returns a new pair and retires the old refresh token. A lost answer costs nothing: until the new pair is first used (and for at most REFRESH_LOST_ANSWER_SEC, default 15 min, after the rotation), the previous access token keeps working and the previous refresh token may be retried: within 10 s it returns the same pair, later a fresh pair, retiring the unused one (a retired refresh token presented later revokes the session: two holders of one token). The first use of the new pair revokes the previous access token. Replaying the previous refresh token after that (past 10 s from the rotation), past REFRESH_LOST_ANSWER_SEC, or any older one, revokes the whole session (sign in again).',
      auth: 'public',
      rateLimit: AUTH_RATE_LIMITS.refresh,
      errors: [401, 429],
      codes: ['REFRESH_TOKEN_REUSED'],
      request: { body: RefreshBodySchema },
      response: { description: 'A new token pair.', schema: AuthTokensSchema },
      handler: ({ body, req }) => sessions.refresh(body.refreshToken, clientInfo(req)),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/google',
      operationId: 'signInWithGoogle',
      tag: 'auth',
      summary: 'Sign in with a Google ID token',
      description:
        'Verified against GOOGLE_CLIENT_IDS. Links by the token subject; creates an account for a new verified email; an existing account with that email is never taken over (409: sign in and use /auth/google/link). The deprecated access-token flow is refused (400).',
      auth: 'public',
      rateLimit: AUTH_RATE_LIMITS.google,
      errors: [401, 403, 409, 429, 503],
      codes: ['ACCOUNT_EXISTS', 'AUTH_EMAIL_NOT_VERIFIED'],
      request: { body: GoogleBodySchema, headers: AcceptLanguageHeadersSchema },
      response: { description: 'Tokens and the new session.', schema: AuthTokensSchema },
      handler: ({ body, req, headers }) => auth.google({ idToken: body.idToken! }, clientInfo(req, body), requestLocale(headers, ctx.config.DEFAULT_LOCALE)),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/google/link',
      operationId: 'linkGoogleAccount',
      tag: 'auth',
      summary: 'Link a Google account to the signed-in account',
      auth: [],
      rateLimit: AUTH_RATE_LIMITS.google,
      errors: [409, 429, 503],
      codes: ['ACCOUNT_EXISTS'],
      request: { body: GoogleLinkBodySchema },
      response: { description: 'Linked (idempotent).', schema: UserProfileSchema },
      handler: ({ body, auth: a }) => auth.linkGoogle(me(a).userId, body.idToken),
    }),
    publicPost({
      path: '/auth/password/forgot',
      operationId: 'requestPasswordReset',
      summary: 'Mail a password reset code',
      description: 'Same status, body and comparable time whether or not the account exists.',
      rateLimit: AUTH_RATE_LIMITS.forgot,
      errors: [429],
      request: { body: ForgotBodySchema },
      response: { description: 'Accepted.', schema: ForgotResponseSchema },
      handler: ({ body }) => auth.forgotPassword(body),
    }),
    publicPost({
      path: '/auth/password/reset',
      operationId: 'resetPassword',
      summary: 'Set a new password with the mailed code',
      description: 'Works while sign-in is locked; lifts the lock and revokes every session.',
      rateLimit: AUTH_RATE_LIMITS.reset,
      errors: [429],
      codes: ['AUTH_INVALID_CODE'],
      request: { body: ResetBodySchema },
      response: { description: 'Password changed.', schema: ResetResponseSchema },
      handler: ({ body }) => auth.resetPassword(body),
    }),
    twoFaSwitch(true, 'Enable email two-factor for password sign-in'),
    twoFaSwitch(false, 'Disable email two-factor'),
    defineRoute({
      method: 'get',
      path: '/auth/2fa/status',
      operationId: 'getTwoFactorStatus',
      tag: 'auth',
      summary: 'Two-factor status',
      auth: [],
      response: { description: 'Two-factor status.', schema: TwoFaStatusSchema },
      handler: ({ auth: a }) => auth.twoFaStatus(me(a).userId),
    }),
    defineRoute({
      method: 'get',
      path: '/auth/sessions',
      operationId: 'listMySessions',
      tag: 'auth',
      summary: 'Live sessions of the signed-in user',
      auth: [],
      response: { description: 'Newest use first; `current` marks the caller.', schema: SessionsResponseSchema },
      handler: async ({ auth: a }) => ({ sessions: await sessions.list(me(a).userId, me(a).sessionId) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/auth/sessions/:id',
      operationId: 'revokeSession',
      tag: 'auth',
      summary: 'Revoke one session (sign a device out)',
      auth: [],
      errors: [404],
      request: { params: SessionIdParamsSchema },
      response: { description: 'Revoked.', schema: RevokedCountSchema },
      handler: async ({ params, auth: a }) => {
        await sessions.revoke(me(a).userId, params.id, 'revoked_by_user');
        return { revoked: 1 };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/auth/sessions',
      operationId: 'revokeOtherSessions',
      tag: 'auth',
      summary: 'Revoke every other session (keep this one)',
      auth: [],
      response: { description: 'Number of sessions revoked.', schema: RevokedCountSchema },
      handler: async ({ auth: a }) => ({ revoked: await sessions.revokeAll(me(a).userId, 'revoked_by_user', me(a).sessionId) }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      operationId: 'logout',
      tag: 'auth',
      summary: 'Sign out this session, or everywhere',
      auth: [],
      request: { body: LogoutBodySchema },
      response: { description: 'Number of sessions revoked.', schema: RevokedCountSchema },
      handler: async ({ body, auth: a }) => {
        if (body.allSessions) return { revoked: await sessions.revokeAll(me(a).userId, 'logout_all') };
        return { revoked: await sessions.signOut(me(a).userId, me(a).sessionId) };
      },
    }),
  ];
}
