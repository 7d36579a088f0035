import { setFlagsFromString } from 'node:v8';

/**
 * V8's allocation-site pretenuring, off for every instance (called first thing by the functions' entry; the P2
 * bench's stack server calls it as the `api` instance does). Measured on 2026-12-01 with the API's middleware under
 * P2's load (Node 24, the instance's heap): in some fresh processes (2 of 8, 1 of 10 and 1 of 10 in three batches),
 * V8 decided early that a hot allocation site's objects live long and allocated them in the old generation for the
 * rest of the process's life, so it ran a mark-compact every ~150 ms instead of every ~800 ms, GC took a quarter of
 * its CPU instead of a tenth, and it served 17–20k requests a second where the others served 27–33k. With the
 * heuristic off, 34 fresh processes served 28–37k, none in the slow mode; plain Express never showed it. Set at
 * start-up, before any request: Node does not accept this flag in NODE_OPTIONS.
 */
export function tuneV8(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
