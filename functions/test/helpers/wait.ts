// Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`.
export async function waitFor<T>(probe: () => Promise<T | undefined>, opts: { what?: string; timeoutMs?: number; everyMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 250));
  }
}
