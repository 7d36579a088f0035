import type { RateLimitRule } from '../../platform/core/ratelimit/rate-limit';
import type { Hat } from '../../platform/core/auth/roles';
import type { IssuedToken } from './tokens';

// Firestore layout of the auth module (API only; TTL on expireAt where noted in auth.module.ts).
export const AUTH_SESSIONS = 'auth_sessions';
export const AUTH_OTPS = 'auth_otps';
/** `auth_otps/{id}/uses/{challengeId}`: a consumed code, so it is used once. */
export const OTP_USES = 'uses';
export const AUTH_FAILURES = 'auth_failures';
export const AUTH_DAILY_SENDS = 'auth_daily_sends';
export const AUTH_LOCKS = 'auth_locks';
export const USER_IDENTITIES = 'user_identities';
import type { Role } from '../../platform/core/auth/roles';

export const OTP_PURPOSES = ['REGISTER', 'LOGIN', 'PASSWORD_2FA', 'PASSWORD_RESET', 'VERIFY_PHONE'] as const;
export type OtpPurpose = (typeof OTP_PURPOSES)[number];
export type OtpChannel = 'email' | 'sms';

export const LOGIN_METHODS = ['password', 'password_2fa', 'email_otp', 'phone_otp', 'google', 'register'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

// Limits of the auth flows (the spec leaves them open; these are ours, documented in OpenAPI and README).
export const AUTH_LIMITS = {
  otpTtlSec: 10 * 60,
  otpMaxAttempts: 5,
  otpResendGapSec: 60,
  otpSendsPerHour: 5, // per purpose and destination
  otpSendsPerDestinationPerDay: 20, // every purpose together: SMS pumping and mailbox flooding
  lockThreshold: 10, // failed logins/codes per account ...
  lockWindowSec: 15 * 60, // ... within this window ...
  lockDurationSec: 15 * 60, // ... lock sign-in for this long
  refreshGraceSec: 10,
  twoFaTtlSec: 10 * 60,
  sessionTouchEverySec: 60,
} as const;

// `auth_otps/{purpose}:{destinationKey}`: one live challenge per purpose and destination.
export interface OtpRecord {
  purpose: OtpPurpose;
  channel: OtpChannel;
  destination: string;
  userId: string | null;
  challengeId: string;
  codeHmac: string;
  createdAt: number;
  expiresAt: number;
  attempts: number;
  consumedAt: number | null;
  lastSentAt: number;
  hourWindowStart: number;
  sendsInWindow: number;
}

// `auth_sessions/{id}`: a session is one refresh-token family.
export interface SessionRecord {
  id: string;
  userId: string;
  method: LoginMethod;
  surface: Hat | null;
  deviceName: string | null;
  userAgent: string | null;
  ip: string | null;
  createdAt: number;
  lastUsedAt: number;
  lastIp: string | null;
  revokedAt: number | null;
  revokeReason: string | null;
  access: IssuedToken & { roles: Role[] };
  /**
   * `retryUntil`: the end of the lost-answer allowance of `previousJti` (REFRESH_LOST_ANSWER_SEC after the first
   * rotation; absent on older sessions: rotatedAt plus the default). `retiredJti`: the unused refresh token a late
   * retry replaced; presenting it means two holders of one token, and revokes the session.
   */
  refresh: IssuedToken & { previousJti: string | null; rotatedAt: number | null; retryUntil?: number | null; retiredJti?: string | null };
  /**
   * The access token of the pair before `access`, set while the current pair is unused: a refresh whose answer was
   * lost must not sign the client out, so that token stays valid (and its refresh token retryable) until the new
   * pair is first used. Absent on sessions written before this rule (treated as used).
   */
  previousAccess?: { jti: string; exp: number } | null;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  surface: Hat | null;
  deviceName: string | null;
}

// Per client IP. Tight where a request costs a hash or sends a message.
export const AUTH_RATE_LIMITS = {
  register: { scope: 'auth-register', limit: 10, windowSec: 600 },
  login: { scope: 'auth-login', limit: 30, windowSec: 300 },
  otpSend: { scope: 'auth-otp-send', limit: 10, windowSec: 600 },
  otpVerify: { scope: 'auth-otp-verify', limit: 30, windowSec: 300 },
  refresh: { scope: 'auth-refresh', limit: 120, windowSec: 300 },
  forgot: { scope: 'auth-forgot', limit: 10, windowSec: 900 },
  reset: { scope: 'auth-reset', limit: 20, windowSec: 900 },
  google: { scope: 'auth-google', limit: 30, windowSec: 300 },
} satisfies Record<string, RateLimitRule>;
