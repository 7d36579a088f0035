// Placing transactions of one store, one at a time in this instance. A crowd at a store reads and writes the same
// counted items: run side by side, its transactions abort one another (the emulator refused 385 of 690 commits of a
// crowd of 50) and the SDK's growing pauses left the losers waiting past the request deadline. Queued, each runs
// alone here (tens of milliseconds); contention remains only between instances, where the SDK's retries handle it.

const tails = new Map<string, Promise<void>>();

/** Runs `run` after the runs queued before it under `key` have ended (whichever way). */
export async function oneAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  tails.set(key, tail);
  try {
    await before;
    return await run();
  } finally {
    done();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
