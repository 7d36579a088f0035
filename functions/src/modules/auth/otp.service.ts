import { randomUUID } from 'node:crypto';
import { stableId } from '../../platform/kits/ids/stable-id';
import { BadRequestError, TooManyRequestsError } from '../../platform/core/errors/app-error';
import { AUTH_LIMITS, type OtpChannel, type OtpPurpose, type OtpRecord } from './auth.model';
import { authRepo } from './auth.repo';
import { createLockout, LockedError } from './lockout';
import { generateOtpCode, hmacOtp, otpKey, otpMatches } from './otp-code';
import { inTransaction } from '../../platform/core/firebase/firebase';

export interface OtpTarget {
  purpose: OtpPurpose;
  channel: OtpChannel;
  /** Normalised email or E.164 phone. */
  destination: string;
  /** The account the code is bound to; null for an unknown destination (the code is never delivered). */
  userId: string | null;
}

export function destinationKey(channel: OtpChannel, destination: string): string {
  return stableId({ key: `${channel}:${destination}`, length: 32 });
}

// Failed attempts count against the account, or against the destination when there is none,
// so known and unknown destinations behave alike.
export function failureKey(target: Pick<OtpTarget, 'channel' | 'destination' | 'userId'>): string {
  return target.userId ?? `anon:${destinationKey(target.channel, target.destination)}`;
}

export function invalidCodeError(): BadRequestError {
  return new BadRequestError('Invalid or expired code', [{ field: 'code', message: 'invalid or expired', code: 'OTP_INVALID' }]).withCode('AUTH_INVALID_CODE');
}

export interface OtpService {
  issue(target: OtpTarget): Promise<{ code: string; challengeId: string; expiresInSec: number }>;
  /** The live, unused challenge of a target (no code: it was already delivered), if any. */
  live(target: OtpTarget): Promise<{ challengeId: string; expiresInSec: number } | undefined>;
  verify(target: OtpTarget, code: string): Promise<{ challengeId: string }>;
}

const DAY_MS = 24 * 3600_000;

export function createOtpService(opts: { jwtSecret: string; devCode?: string; now: () => number }): OtpService {
  const key = otpKey(opts.jwtSecret);
  const lockout = createLockout(opts.now);
  const idOf = (t: OtpTarget) => `${t.purpose}:${destinationKey(t.channel, t.destination)}`;
  // The lock never blocks password reset, and reset attempts do not feed it.
  const guarded = (t: OtpTarget) => t.purpose !== 'PASSWORD_RESET';

  return {
    async issue(target) {
      const now = opts.now();
      const id = idOf(target);
      const code = generateOtpCode();
      const challengeId = randomUUID();
      const destination = destinationKey(target.channel, target.destination);
      const day = Math.floor(now / DAY_MS);
      await inTransaction(async (tx) => {
        const [previous, sentToday] = await authRepo.txOtpAndDailySends(tx, id, destination, day);
        // Limits belong to the destination, whichever account (or none) asks: two accounts taking turns
        // get no more texts to a number than one (SMS pumping), nor more mails to a mailbox.
        if (previous && now - previous.lastSentAt < AUTH_LIMITS.otpResendGapSec * 1000) {
          throw new TooManyRequestsError(
            'A code was sent recently; wait before asking again',
            (previous.lastSentAt + AUTH_LIMITS.otpResendGapSec * 1000 - now) / 1000,
          ).withCode('AUTH_CODE_LIMIT');
        }
        const sameHour = previous && now - previous.hourWindowStart < 3600_000;
        const sends = sameHour ? previous.sendsInWindow : 0;
        if (sameHour && sends >= AUTH_LIMITS.otpSendsPerHour) {
          throw new TooManyRequestsError('Too many codes requested this hour', (previous.hourWindowStart + 3600_000 - now) / 1000).withCode('AUTH_CODE_LIMIT');
        }
        if (sentToday >= AUTH_LIMITS.otpSendsPerDestinationPerDay) {
          throw new TooManyRequestsError('Too many codes sent to this destination today', ((day + 1) * DAY_MS - now) / 1000).withCode('AUTH_CODE_LIMIT');
        }
        authRepo.txCountDailySend(tx, destination, day, (day + 1) * DAY_MS);
        const record: OtpRecord = {
          ...target,
          challengeId,
          codeHmac: hmacOtp(key, challengeId, code),
          createdAt: now,
          expiresAt: now + AUTH_LIMITS.otpTtlSec * 1000,
          attempts: 0,
          consumedAt: null,
          lastSentAt: now,
          hourWindowStart: sameHour ? previous.hourWindowStart : now,
          sendsInWindow: sends + 1,
        };
        authRepo.txSetOtp(tx, id, record);
      });
      return { code, challengeId, expiresInSec: AUTH_LIMITS.otpTtlSec };
    },

    async live(target) {
      const otp = await authRepo.getOtp(idOf(target));
      const now = opts.now();
      if (!otp || otp.userId !== target.userId || otp.consumedAt !== null || otp.expiresAt <= now || otp.attempts >= AUTH_LIMITS.otpMaxAttempts)
        return undefined;
      return { challengeId: otp.challengeId, expiresInSec: Math.floor((otp.expiresAt - now) / 1000) };
    },

    async verify(target, code) {
      const id = idOf(target);
      const lockKey = failureKey(target);
      if (guarded(target)) await lockout.assertUnlocked(lockKey);
      const otp = await authRepo.getOtp(id);
      // A code for an unknown destination is never delivered and never accepted.
      const live =
        otp !== undefined &&
        target.userId !== null &&
        otp.userId === target.userId &&
        otp.consumedAt === null &&
        otp.expiresAt > opts.now() &&
        otp.attempts < AUTH_LIMITS.otpMaxAttempts;
      if (live) {
        // The attempt is counted before the code is compared: parallel guesses cannot exceed the cap.
        const attempt = await authRepo.reserveOtpAttempt(id);
        const matches = otpMatches(key, otp.challengeId, code, otp.codeHmac) || (opts.devCode !== undefined && code === opts.devCode);
        if (attempt <= AUTH_LIMITS.otpMaxAttempts && matches && (await authRepo.consumeOtp(id, otp.challengeId, opts.now()))) {
          if (guarded(target)) await lockout.clear(lockKey);
          return { challengeId: otp.challengeId };
        }
      }
      if (guarded(target)) {
        const lockedUntil = await lockout.fail(lockKey);
        if (lockedUntil) throw new LockedError(lockedUntil, opts.now());
      }
      throw invalidCodeError();
    },
  };
}
