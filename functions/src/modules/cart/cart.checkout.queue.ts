import { AppError } from '../../platform/core/errors/app-error';

// Placing transactions of one store, one at a time in this instance. A crowd at a store reads and writes the same
// counted items: run side by side, its transactions abort one another (the emulator refused 385 of 690 commits of a
// crowd of 50) and the SDK's growing pauses left the losers waiting past the request deadline. Queued, each runs
// alone here (tens of milliseconds); contention remains only between instances, where the SDK's retries handle it.

// The wait is capped: one transaction stuck in the SDK's retries must not hold every later checkout of the store
// until the request deadline; past the cap the caller is told to retry (its Idempotency-Key makes that safe).

const tails = new Map<string, Promise<void>>();

/** How long a placing transaction waits for the ones queued before it at its store. */
export const QUEUE_WAIT_CAP_MS = 5_000;

/**
 * Runs `run` after the runs queued before it under `key` have ended (whichever way); throws `tooLong()` instead when
 * they have not within `maxWaitMs`.
 */
export async function oneAtATime<T>(key: string, tooLong: () => Error, run: () => Promise<T>, maxWaitMs = QUEUE_WAIT_CAP_MS): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  tails.set(key, tail);
  let timer: NodeJS.Timeout | undefined;
  try {
    const waited = await Promise.race([before.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), maxWaitMs)))]);
    if (!waited) throw tooLong();
    return await run();
  } finally {
    clearTimeout(timer);
    done();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/** The queue of a store's placing transactions. */
export const sellerQueueKey = (seller: { kind: string; id: string }) => `${seller.kind}/${seller.id}`;

/** The answer when a store's queue is too long to wait for here: nothing was taken, the same key may retry. */
export const storeBusy = () =>
  new AppError(409, 'The store is taking many orders at this moment: retry in a few seconds', undefined, { 'Retry-After': '2' }).withCode('CART_CHECKOUT_BUSY');
