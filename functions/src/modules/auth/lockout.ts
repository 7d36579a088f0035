import { AUTH_LIMITS } from './auth.model';
import { authRepo } from './auth.repo';
import { TooManyRequestsError } from '../../platform/core/errors/app-error';

export class LockedError extends TooManyRequestsError {
  constructor(lockedUntil: number, now: number) {
    super('Too many failed attempts: sign-in is locked for a while (password reset still works)', (lockedUntil - now) / 1000);
    this.code = 'AUTH_LOCKED';
  }
}

// Failed sign-ins (passwords and codes, from any IP) counted per account in fixed windows; reaching
// the threshold locks sign-in for a while. Counters are atomic increments, so a burst of parallel
// failures cannot slip past the threshold and does not queue up on a transaction lock.
export function createLockout(now: () => number) {
  const windowMs = AUTH_LIMITS.lockWindowSec * 1000;
  return {
    async assertUnlocked(key: string): Promise<void> {
      const t = now();
      const lockedUntil = await authRepo.lockedUntil(key);
      if (lockedUntil && lockedUntil > t) throw new LockedError(lockedUntil, t);
    },

    /** Records one failure; returns the lock end when this failure locked the account. */
    async fail(key: string): Promise<number | null> {
      const t = now();
      const window = Math.floor(t / windowMs);
      const count = await authRepo.countFailure(key, window, (window + 1) * windowMs);
      if (count < AUTH_LIMITS.lockThreshold) return null;
      const until = t + AUTH_LIMITS.lockDurationSec * 1000;
      await authRepo.lock(key, until, Math.floor(t / windowMs));
      return until;
    },

    async clear(key: string): Promise<void> {
      await authRepo.clearFailures(key, Math.floor(now() / windowMs));
    },
  };
}

export type Lockout = ReturnType<typeof createLockout>;
