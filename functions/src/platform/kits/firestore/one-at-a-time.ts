// Transactions on one hot document, one at a time in this instance. Run side by side, transactions that read and
// write the same document abort one another or wait on its lock (the emulator: up to its ~30 s lock timeout), and
// the SDK's growing pauses leave the losers waiting past the request deadline. Queued under the document's key, each
// runs alone here (tens of milliseconds); contention remains only between instances, where the SDK's retries handle
// it. The wait is capped: one transaction stuck in the SDK's retries must not hold every later one until the request
// deadline; past the cap the caller is told to retry (its Idempotency-Key makes that safe). Users: the cart's placing
// transactions (per store), wallet transfers (per sender).

const tails = new Map<string, Promise<void>>();

/** How long a transaction waits for the ones queued before it under its key. */
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
