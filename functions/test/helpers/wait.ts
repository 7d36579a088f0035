// Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`. The first polls come
// quickly (most triggers and mails land within a few hundred ms), then back off to one every `everyMs`. The default
// wait is long (60 s) because a loaded 2-core machine queued triggers and tasks past 30 s (2026-12-01), and waits for
// triggers keep it (ones of 20 and 40 s expired in a CI run); a passing test does not wait it.
export async function waitFor<T>(probe: () => Promise<T | undefined>, opts: { what?: string; timeoutMs?: number; everyMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const every = opts.everyMs ?? 250;
  for (let pause = Math.min(25, every); ; pause = Math.min(every, pause * 1.5)) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}
