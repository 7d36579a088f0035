import { stableId } from '../../kits/ids/stable-id';
import { TooManyRequestsError } from '../errors/app-error';
import { logger } from '../logging/logger';

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
  /**
   * Where the hits are counted: in Firestore, shared by every instance (default), or in this instance's memory, for
   * public reads served often (a file download), where a write per request would cost more than the read it guards;
   * each instance then allows `limit` by itself.
   */
  counted?: 'shared' | 'instance';
}

export interface RateLimitStore {
  /** Adds one hit to the window's counter and returns the new count. */
  increment(key: string, expiresAtMs: number): Promise<number>;
  /** Takes one hit back from the window's counter (never below 0 in memory; the answer is not read back). */
  giveBack(key: string): Promise<void>;
}

/** Where a subject stands after a hit: the rule in force (RATE_LIMITS applied), hits left, seconds to the window's end. */
export interface RateLimitState {
  scope: string;
  limit: number;
  windowSec: number;
  remaining: number;
  resetSec: number;
}

/**
 * A second bucket a hit also counts in, shared by many subjects, with `factor` times the rule's limit (same scope
 * and window): e.g. the Hosting edge a client address came through, which caps what made-up addresses behind one
 * edge can do in total.
 */
export interface RateLimitAggregate {
  subject: string;
  factor: number;
}

export interface RateLimiter {
  /**
   * Counts a hit (in `aggregate` too, when given) and answers the subject's state. Over the limit, the subject's or
   * the aggregate's, it throws TooManyRequestsError: 429 with Retry-After and the subject's RateLimit headers.
   * `giveBack` takes the subject's hit back (a request that turned out not to be the subject's: a revoked token).
   */
  hit(rule: RateLimitRule, subject: string, aggregate?: RateLimitAggregate): Promise<RateLimitState & { giveBack(): Promise<void> }>;
}

// The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers-11), one policy per route named after its scope:
//   RateLimit-Policy: "auth-login";q=30;w=300   RateLimit: "auth-login";r=29;t=287
export function rateLimitHeaders(state: RateLimitState): Record<'RateLimit-Policy' | 'RateLimit', string> {
  return {
    'RateLimit-Policy': `"${state.scope}";q=${state.limit};w=${state.windowSec}`,
    RateLimit: `"${state.scope}";r=${state.remaining};t=${state.resetSec}`,
  };
}

/** Sends a hit's RateLimit headers (the 429 carries them on its error); not once an answer went out (a deadline's). */
export function sendRateLimitHeaders(res: { headersSent: boolean; setHeader(name: string, value: string): unknown }, state: RateLimitState): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
}

export function subjectKey(subject: string): string {
  return stableId({ key: subject, length: 32 });
}

/** `overrides` (RATE_LIMITS) replace the limit and window of the scopes they name. */
export function createRateLimiter(
  store: RateLimitStore,
  now: () => number = Date.now,
  overrides: Readonly<Record<string, { limit: number; windowSec: number }>> = {},
): RateLimiter {
  return {
    async hit(declared, subject, aggregate) {
      const rule = { ...declared, ...overrides[declared.scope] };
      const windowMs = rule.windowSec * 1000;
      const windowIndex = Math.floor(now() / windowMs);
      const windowEnd = (windowIndex + 1) * windowMs;
      const keyOf = (who: string) => `${rule.scope}:${subjectKey(who)}:${windowIndex}`;
      const sharedLimit = aggregate && aggregate.factor > 0 ? rule.limit * aggregate.factor : undefined;
      const [count, shared] = await Promise.all([
        store.increment(keyOf(subject), windowEnd),
        sharedLimit === undefined ? 0 : store.increment(keyOf(aggregate!.subject), windowEnd),
      ]);
      const left = (windowEnd - now()) / 1000;
      const state = {
        scope: rule.scope,
        limit: rule.limit,
        windowSec: rule.windowSec,
        remaining: Math.max(0, rule.limit - count),
        resetSec: Math.max(0, Math.ceil(left)),
        giveBack: () => store.giveBack(keyOf(subject)),
      };
      const sharedOver = sharedLimit !== undefined && shared > sharedLimit;
      // The first refusal of a window only: a flood behind one edge writes one line, not one per request.
      if (sharedOver && shared === sharedLimit + 1)
        logger.warn('rate limit of a shared bucket reached (HOSTING_EDGE_LIMIT_FACTOR)', {
          scope: rule.scope,
          aggregate: aggregate!.subject,
          limit: sharedLimit,
          windowSec: rule.windowSec,
        });
      if (count > rule.limit || sharedOver) {
        const refused = new TooManyRequestsError('Too many requests; try again later', left);
        // Retry-After is never earlier than the end of the window RateLimit announces; nothing is left of it now.
        Object.assign(refused.headers, rateLimitHeaders({ ...state, remaining: 0, resetSec: Number(refused.headers['Retry-After']) }));
        throw refused;
      }
      return state;
    },
  };
}

/** How often the memory store drops the counters of windows that ended. */
const PRUNE_EVERY_MS = 60_000;

// For unit tests, the plain node server without Firestore, and the limits counted per instance (`counted:
// 'instance'`). Keys name their window (a new window counts under a new key); ended windows are dropped once a
// minute, so a long-lived instance keeps only the current windows' counters (`size` says how many, for tests).
export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore & { size(): number } {
  const counts = new Map<string, { count: number; expiresAtMs: number }>();
  let pruneAt = 0;
  return {
    async increment(key, expiresAtMs) {
      const at = now();
      if (at >= pruneAt) {
        for (const [k, entry] of counts) if (entry.expiresAtMs <= at) counts.delete(k);
        pruneAt = at + PRUNE_EVERY_MS;
      }
      const count = (counts.get(key)?.count ?? 0) + 1;
      counts.set(key, { count, expiresAtMs });
      return count;
    },
    async giveBack(key) {
      const entry = counts.get(key);
      if (entry && entry.count > 0) counts.set(key, { ...entry, count: entry.count - 1 });
    },
    size: () => counts.size,
  };
}
