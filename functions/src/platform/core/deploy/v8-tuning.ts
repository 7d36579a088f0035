import { setFlagsFromString } from 'node:v8';

/**
 * V8's allocation-site pretenuring, off. With it on, some processes of the API fell for their whole life into a mode
 * where a hot site's objects went straight to the old generation: a mark-compact every ~150 ms instead of every
 * ~800 ms, a quarter of the CPU in GC, ~40 % fewer requests a second (docs/benchmarks.md, P2). Node refuses the flag in
 * NODE_OPTIONS, so the `api` function sets it on its first request, before it builds the app (measured so: the bench's
 * stack server sets it after loading the bundle and before building the app, and no process fell into the slow mode).
 */
export function tuneV8(): void {
  setFlagsFromString(V8_FLAGS);
}
export const V8_FLAGS = '--no-allocation-site-pretenuring';
