import { z } from 'zod';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { EmailSchema, PhoneSchema } from '../../platform/core/http/contact';
import { HatSchema } from '../../platform/core/auth/roles.schemas';
import { UserProfileSchema } from '../users';
import { SMS_PROVIDERS } from '../../platform/core/config/config.schema';
import { AUTH_LIMITS, LOGIN_METHODS } from './auth.model';
import { PasswordSchema } from './passwords';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const limits =
  `Codes: 6 digits, valid ${AUTH_LIMITS.otpTtlSec / 60} min, single use, ${AUTH_LIMITS.otpMaxAttempts} wrong tries per code, ` +
  `${AUTH_LIMITS.otpResendGapSec} s between sends, ${AUTH_LIMITS.otpSendsPerHour} sends per hour per destination.`;

export const OtpCodeSchema = z
  .string()
  .regex(/^\d{6}$/, { message: 'must be 6 digits' })
  .meta({ example: '123456' });

// Optional, on every call that opens a session: shown in GET /auth/sessions.
const clientFields = {
  surface: HatSchema.optional().describe('App that signs in (CON, PAR, DRV, ADM)'),
  deviceName: z.string().trim().min(1).max(100).optional().describe('e.g. "Pixel 8"'),
};

export const RegisterBodySchema = z
  .object({ email: EmailSchema, password: PasswordSchema, name: z.string().trim().min(1).max(100) })
  .meta({ id: 'RegisterBody', description: 'Any other field (roles, admin flags) is ignored: registration always yields USER.' });

export const CodeSentSchema = z
  .object({
    mailSent: z.boolean().describe('A mail transport is configured and the message (if any is due) was handed to it; the same for every address'),
    expiresInSec: z.number().int(),
    resendAfterSec: z.number().int(),
  })
  .meta({ id: 'EmailCodeSent', description: `Same answer whether or not the address has an account. ${limits}` });

export const RegisterResponseSchema = CodeSentSchema.extend({ email: z.string() }).meta({
  id: 'RegisterResponse',
  description:
    'An email OTP with purpose REGISTER is mailed; verify it with POST /auth/email/otp/verify. The same status and body for a new, a pending and an active address, on every repeat. A repeat for a pending address never changes its password or name: it mails a new code (not within the resend gap, nor past the hourly or daily cap of the mailbox, when nothing is sent); an active address gets a notice mail under the same limits.',
});

export const EmailOtpSendBodySchema = z.object({ email: EmailSchema, purpose: z.enum(['REGISTER', 'LOGIN']).default('LOGIN') }).meta({
  id: 'EmailOtpSendBody',
  description: 'REGISTER re-sends the code of an unverified registration; LOGIN is the sign-in of the partner, driver and admin apps.',
});

export const EmailOtpVerifyBodySchema = z
  .object({ email: EmailSchema, code: OtpCodeSchema, purpose: z.enum(['REGISTER', 'LOGIN']).default('LOGIN'), ...clientFields })
  .meta({ id: 'EmailOtpVerifyBody' });

export const PhoneOtpSendBodySchema = z.object({ phone: PhoneSchema, purpose: z.enum(['LOGIN', 'VERIFY_PHONE']).default('LOGIN') }).meta({
  id: 'PhoneOtpSendBody',
  description:
    'LOGIN: a consumer with a verified phone signs in. VERIFY_PHONE (bearer token required): attach this phone to the signed-in account. Codes are texted only to numbers of the SMS_COUNTRIES (Vietnam by default): another country is 400 PHONE_COUNTRY_NOT_ALLOWED, a number that is not a mobile one (premium-rate 1900…, toll-free, fixed line) 400 PHONE_NOT_MOBILE, and nothing is sent.',
});

export const PhoneOtpSentSchema = z
  .object({ smsProvider: z.enum(SMS_PROVIDERS), expiresInSec: z.number().int(), resendAfterSec: z.number().int() })
  .meta({ id: 'PhoneCodeSent', description: `Same answer whether or not the number has an account. ${limits}` });

export const PhoneOtpVerifyBodySchema = z
  .object({ phone: PhoneSchema, code: OtpCodeSchema, purpose: z.enum(['LOGIN', 'VERIFY_PHONE']).default('LOGIN'), ...clientFields })
  .meta({ id: 'PhoneOtpVerifyBody' });

export const PasswordLoginBodySchema = z
  .object({
    identifier: z.string().trim().min(1).max(254).optional().describe('Email, or a verified phone as typed (0912 345 678, +84912345678)'),
    email: EmailSchema.optional(),
    password: z.string().min(1).max(1000),
    ...clientFields,
  })
  .refine((b) => b.identifier !== undefined || b.email !== undefined, { message: 'identifier or email is required', path: ['identifier'] })
  .meta({ id: 'PasswordLoginBody' });

export const SessionSchema = z
  .object({
    id: z.string(),
    current: z.boolean(),
    method: z.enum(LOGIN_METHODS),
    surface: HatSchema.nullable(),
    deviceName: z.string().nullable(),
    userAgent: z.string().nullable(),
    ip: z.string().nullable().describe('IP at sign-in'),
    lastIp: z.string().nullable(),
    createdAt: IsoTimeSchema,
    lastUsedAt: IsoTimeSchema,
    expiresAt: IsoTimeSchema.describe('When the refresh token of this session expires'),
  })
  .meta({ id: 'Session', description: 'A session record: one sign-in and its refresh-token family.' });

export const AuthTokensSchema = z
  .object({
    tokenType: z.literal('Bearer'),
    accessToken: z.string(),
    refreshToken: z.string(),
    expiresIn: z.number().int().describe('Access token lifetime, seconds'),
    refreshExpiresIn: z.number().int(),
    session: SessionSchema,
    user: UserProfileSchema,
  })
  .meta({ id: 'AuthTokens', description: 'HS256 JWTs with jti, typ (access|refresh), sub, roles and sid (session id).' });

export const TwoFaChallengeSchema = z
  .object({
    requiresTwoFa: z.literal(true),
    method: z.literal('EMAIL'),
    twoFaToken: z.string().describe('Send it with the mailed code to POST /auth/login/password/2fa'),
    destination: z.string().describe('Masked email the code went to'),
    mailSent: z.boolean(),
    expiresInSec: z.number().int(),
  })
  .meta({ id: 'TwoFaChallenge', description: 'Password accepted, two-factor enabled: an email OTP (purpose PASSWORD_2FA) was sent; no tokens yet.' });

export const PasswordLoginResponseSchema = z.union([AuthTokensSchema, TwoFaChallengeSchema]).meta({ id: 'PasswordLoginResponse' });

export const TwoFaCompleteBodySchema = z
  .object({ twoFaToken: z.string().min(1).max(2000), code: OtpCodeSchema, ...clientFields })
  .meta({ id: 'TwoFaCompleteBody' });
export const PasswordConfirmBodySchema = z.object({ password: z.string().min(1).max(1000) }).meta({ id: 'PasswordConfirmBody' });
export const TwoFaStatusSchema = z
  .object({ enabled: z.boolean(), method: z.literal('EMAIL').nullable(), enabledAt: IsoTimeSchema.nullable() })
  .meta({ id: 'TwoFaStatus' });

export const RefreshBodySchema = z.object({ refreshToken: z.string().min(1).max(4000) }).meta({ id: 'RefreshBody' });

export const GoogleBodySchema = z
  .object({
    idToken: z.string().min(1).max(8000).optional().describe('ID token from Google Identity Services / Sign-In SDK'),
    accessToken: z.unknown().optional().describe('Deprecated flow: refused'),
    ...clientFields,
  })
  .superRefine((b, ctx) => {
    if (b.accessToken !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['accessToken'], message: 'Google sign-in with an OAuth access token is deprecated and refused; send the idToken' });
    } else if (b.idToken === undefined) {
      ctx.addIssue({ code: 'custom', path: ['idToken'], message: 'is required' });
    }
  })
  .meta({ id: 'GoogleSignInBody' });
export const GoogleLinkBodySchema = z.object({ idToken: z.string().min(1).max(8000) }).meta({ id: 'GoogleLinkBody' });

export const ForgotBodySchema = z.object({ email: EmailSchema }).meta({ id: 'ForgotPasswordBody' });
export const ForgotResponseSchema = z
  .object({ accepted: z.literal(true), message: z.string() })
  .meta({ id: 'ForgotPasswordResponse', description: 'Identical for known and unknown emails.' });
export const ResetBodySchema = z
  .object({ email: EmailSchema, code: OtpCodeSchema, newPassword: PasswordSchema })
  .meta({ id: 'ResetPasswordBody', description: 'The code mailed by /auth/password/forgot. A reset signs out every session.' });
export const ResetResponseSchema = z.object({ reset: z.literal(true), sessionsRevoked: z.number().int() }).meta({ id: 'ResetPasswordResponse' });

export const PhoneVerifiedSchema = z.object({ phoneVerified: z.literal(true), user: UserProfileSchema }).meta({ id: 'PhoneVerified' });
export const PhoneOtpVerifyResponseSchema = z.union([AuthTokensSchema, PhoneVerifiedSchema]).meta({ id: 'PhoneOtpVerifyResponse' });

export const SessionsResponseSchema = z.object({ sessions: z.array(SessionSchema) }).meta({ id: 'Sessions' });
export const SessionIdParamsSchema = IdParamsSchema;
export const LogoutBodySchema = z
  .object({ allSessions: z.boolean().default(false).describe('true: sign out everywhere, this session included') })
  .meta({ id: 'LogoutBody' });
export const RevokedCountSchema = z.object({ revoked: z.number().int() }).meta({ id: 'RevokedCount' });
