import { setFlagsFromString } from 'node:v8';

/**
 * V8's allocation-site pretenuring, off. With it on, some processes of the API fell for their whole life into a mode
 * where a hot site's objects went straight to the old generation: a mark-compact every ~150 ms instead of every
 * ~800 ms, a quarter of the CPU in GC, ~40 % fewer requests a second (docs/benchmarks.md, P2). Node refuses the flag in
 * NODE_OPTIONS, so it is set here: applied when this module loads, which the functions' entry imports first.
 */
export function tuneV8(): void {
  setFlagsFromString(V8_FLAGS);
}
export const V8_FLAGS = '--no-allocation-site-pretenuring';

tuneV8();
