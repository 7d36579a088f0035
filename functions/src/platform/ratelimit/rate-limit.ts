import { createHash } from 'node:crypto';
import { TooManyRequestsError } from '../errors/app-error';

// A fixed-window counter: at most `limit` hits per `windowSec` for one subject (e.g. an IP) in one scope.
export interface RateLimitRule {
  scope: string;
  limit: number;
  windowSec: number;
  /**
   * Who is counted: the client IP (default; public operations such as sign-in) or the signed-in user (writes
   * that notify others or cost money: one account behind a shared IP must not exhaust its neighbours' limit).
   */
  per?: 'ip' | 'user';
}

export interface RateLimitStore {
  /** Adds one hit to the window's counter and returns the new count. */
  increment(key: string, expiresAtMs: number): Promise<number>;
}

export interface RateLimiter {
  /** Throws TooManyRequestsError (429 + Retry-After) when the subject is over the limit. */
  hit(rule: RateLimitRule, subject: string): Promise<void>;
}

export function subjectKey(subject: string): string {
  return createHash('sha256').update(subject).digest('base64url').slice(0, 32);
}

/** `overrides` (RATE_LIMITS) replace the limit and window of the scopes they name. */
export function createRateLimiter(store: RateLimitStore, now: () => number = Date.now, overrides: Readonly<Record<string, { limit: number; windowSec: number }>> = {}): RateLimiter {
  return {
    async hit(declared, subject) {
      const rule = { ...declared, ...overrides[declared.scope] };
      const windowMs = rule.windowSec * 1000;
      const windowIndex = Math.floor(now() / windowMs);
      const windowEnd = (windowIndex + 1) * windowMs;
      const count = await store.increment(`${rule.scope}:${subjectKey(subject)}:${windowIndex}`, windowEnd);
      if (count > rule.limit) {
        throw new TooManyRequestsError('Too many requests; try again later', (windowEnd - now()) / 1000);
      }
    },
  };
}

// For unit tests and the plain node server without Firestore.
export function memoryRateLimitStore(): RateLimitStore {
  const counts = new Map<string, number>();
  return {
    async increment(key) {
      const next = (counts.get(key) ?? 0) + 1;
      counts.set(key, next);
      return next;
    },
  };
}
