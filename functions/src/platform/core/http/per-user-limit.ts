import type { Response } from 'express';
import { TooManyRequestsError } from '../errors/app-error';
import { sendRateLimitHeaders, type RateLimiter, type RateLimitRule } from '../ratelimit/rate-limit';

const LIMIT_VERDICT = 'rateLimitVerdict';
/** Callers refused by a per-user limit, remembered per instance until their window ends (bounded). */
const REFUSED_REMEMBERED = 10_000;

/** The per-user limit's verdict a keyed request awaits with its claim (see perUserLimit); none otherwise. */
export function deferredLimitVerdict(res: Response): Promise<void> | undefined {
  return res.locals[LIMIT_VERDICT] as Promise<void> | undefined;
}

// A per-user limit's hit, beside the session check. The hit is an increment, then a read of the count. A keyed request
// of an idempotent route does not wait for that read before its claim: the verdict is awaited with the claim (and
// before a claimBeside handler's first write), one round trip less; a refused request frees the claim it made and
// writes nothing else. A caller this instance refused in the current window waits for the verdict first, so a flood
// over the limit costs no claims.
export function perUserLimit(route: { idempotent?: boolean | 'required' }, rule: RateLimitRule, limiter: RateLimiter, keysStored: boolean) {
  const refusedUntil = new Map<string, number>();
  const remember = (userId: string, err: unknown) => {
    if (!(err instanceof TooManyRequestsError)) return;
    if (refusedUntil.size >= REFUSED_REMEMBERED) {
      const now = Date.now();
      for (const [id, until] of refusedUntil) if (until <= now) refusedUntil.delete(id);
      if (refusedUntil.size >= REFUSED_REMEMBERED) refusedUntil.clear();
    }
    refusedUntil.set(userId, Date.now() + Number(err.headers['Retry-After']) * 1000);
  };
  return (caller: { userId: string }, res: Response) => {
    const hit = limiter.hit(rule, `user:${caller.userId}`);
    hit.catch((err: unknown) => remember(caller.userId, err));
    const keyed = keysStored && route.idempotent !== undefined && route.idempotent !== false && res.req.get('idempotency-key') !== undefined;
    if (!keyed || (refusedUntil.get(caller.userId) ?? 0) > Date.now())
      return hit.then((state) => ({ admitted: () => sendRateLimitHeaders(res, state), refused: state.giveBack }));
    const verdict = hit.then((state) => sendRateLimitHeaders(res, state));
    verdict.catch(() => undefined); // a request that ends before its claim (a 400) never awaits it
    return Promise.resolve({
      admitted: () => {
        res.locals[LIMIT_VERDICT] = verdict;
      },
      refused: () =>
        hit.then(
          (state) => state.giveBack(),
          () => undefined,
        ),
    });
  };
}
