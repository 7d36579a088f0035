import { WriteBatch } from 'firebase-admin/firestore';

// A fault-injecting seam under every Firestore write of this process: transactions, batches and single-document
// writes all commit through WriteBatch._commit. A test counts the commits of an operation, then fails or stalls
// the k-th one: before it is sent (nothing written), after it landed (written, but the caller sees the error, as
// when the answer is lost on the way), or held until the test releases it (a paused database).
// The app under test must run in the test's own process (buildApp), not the shared in-process API.

export type FaultMode = 'fail-before' | 'fail-after' | 'stall';

// gRPC codes: UNAVAILABLE is retried by the SDK's transaction runner; FAILED_PRECONDITION is not (the request fails).
export const UNAVAILABLE = 14;
export const FAILED_PRECONDITION = 9;

type Commit = (this: WriteBatch, options?: unknown) => Promise<unknown>;
interface Internals {
  _commit: Commit;
}

export function firestoreFaults() {
  const proto = WriteBatch.prototype as unknown as Internals;
  const original = proto._commit;
  let seen = 0;
  let fault: { at: number; mode: FaultMode; code: number; gate?: Promise<void> } | undefined;
  let hits = 0;
  proto._commit = async function (this: WriteBatch, options?: unknown) {
    seen += 1;
    const active = fault && seen === fault.at ? fault : undefined;
    if (active) hits += 1;
    if (active?.mode === 'fail-before') throw injected(active.code);
    if (active?.mode === 'stall') await active.gate;
    const result = await original.call(this, options);
    if (active?.mode === 'fail-after') throw injected(active.code);
    return result;
  };
  return {
    /** Starts counting commits from now (for `commits()`), with no fault. */
    count() {
      seen = 0;
      fault = undefined;
    },
    commits: () => seen,
    /** Faults the `at`-th commit from now; a stall holds it until `release()`. */
    inject(at: number, mode: FaultMode, code = FAILED_PRECONDITION): { release(): void } {
      seen = 0;
      hits = 0;
      let release = () => undefined as void;
      const gate = mode === 'stall' ? new Promise<void>((resolve) => (release = resolve)) : undefined;
      fault = { at, mode, code, gate };
      return { release: () => release() };
    },
    /** How many commits the last injected fault hit (0 when the operation made fewer commits than `at`). */
    hits: () => hits,
    clear() {
      fault = undefined;
    },
    restore() {
      proto._commit = original;
    },
  };
}

function injected(code: number): Error {
  return Object.assign(new Error(`${code} injected fault: the database did not answer`), { code, details: 'injected fault' });
}
