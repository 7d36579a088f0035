import type { Response } from 'express';
import type { BesideOutcome } from '../auth/guard';
import { TooManyRequestsError } from '../errors/app-error';
import { BoundedMap } from '../../kits/memo/bounded-map';
import { sendRateLimitHeaders, type RateLimiter, type RateLimitRule } from '../ratelimit/rate-limit';

// A per-user rate limit's hit runs beside the session check (guard.ts's `beside`): an increment whose commit answers
// the count (kits/counters/increment-and-count.ts). A keyed request (an Idempotency-Key on an idempotent route) does
// not wait for that verdict before its claim: the guard lets it on, and the verdict is awaited with the claim
// (claimed-run.ts: before the handler runs, before a claimBeside handler's first write, before a replay is answered).
// A refused request frees the claim it made and writes nothing else. A caller this instance refused in the window's
// scope waits for the verdict first, so a flood over the limit costs no claims.

/** Callers refused, by scope and user, until their window ends: a hint (the limiter decides), bounded. */
const refusedUntil = new BoundedMap<string, number>(10_000);
/** The verdicts keyed requests await with their claim, by response. */
const verdicts = new WeakMap<Response, Promise<void>>();

export function perUserRateLimit(route: { idempotent?: boolean | 'required' }, rule: RateLimitRule, limiter: RateLimiter, keysStored: boolean) {
  const beside = (caller: { userId: string }, res: Response): Promise<BesideOutcome> => {
    const refusalKey = `${rule.scope}:${caller.userId}`;
    const hit = limiter.hit(rule, `user:${caller.userId}`);
    hit.catch((err: unknown) => {
      if (err instanceof TooManyRequestsError) refusedUntil.set(refusalKey, Date.now() + Number(err.headers['Retry-After']) * 1000);
    });
    const keyed = keysStored && !!route.idempotent && res.req.get('idempotency-key') !== undefined;
    if (!keyed || (refusedUntil.get(refusalKey) ?? 0) > Date.now())
      return hit.then((state) => ({ admitted: () => sendRateLimitHeaders(res, state), refused: state.giveBack }));
    const verdict = hit.then((state) => sendRateLimitHeaders(res, state));
    verdict.catch(() => undefined); // a request that ends before its claim (a 400, a 403) never awaits it
    return Promise.resolve({
      admitted: () => void verdicts.set(res, verdict),
      refused: () =>
        hit.then(
          (state) => state.giveBack(),
          () => undefined,
        ),
    });
  };
  return {
    beside,
    /** This instance refused the caller in the limit's current window (a hint: the limiter decides). */
    refusedNow: (userId: string): boolean => (refusedUntil.get(`${rule.scope}:${userId}`) ?? 0) > Date.now(),
    /** The verdict a keyed request awaits with its claim (it rejects with the 429); none when the guard awaited it. */
    verdictOf: (res: Response): Promise<void> | undefined => verdicts.get(res),
  };
}
