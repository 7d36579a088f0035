import type { Hat } from '../../platform/auth/roles';
import type { IssuedToken } from './tokens';
import type { Role } from '../../platform/auth/roles';

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
  refresh: IssuedToken & { previousJti: string | null; rotatedAt: number | null };
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  surface: Hat | null;
  deviceName: string | null;
}
