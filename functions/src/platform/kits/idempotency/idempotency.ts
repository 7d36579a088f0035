import { IDEMPOTENCY_COLLECTION } from '../firestore/collections';
import { randomBytes } from 'node:crypto';
import type { Timestamp, Transaction } from 'firebase-admin/firestore';
import { z } from 'zod';
import { AppError } from '../../core/errors/app-error';
import { API_TIMEOUT_SECONDS } from '../../core/deploy/settings';
import { logger } from '../../core/logging/logger';
import { timestampOf } from '../time/time';
import { sha256 } from '../ids/digest';
import { stableId } from '../ids/stable-id';

// Idempotent creations (`defineRoute({ idempotent: true })`): a request carrying an `Idempotency-Key`
// header runs once per key, caller and route; a retry with the same key and body replays the first
// answer for 24 hours (header `Idempotent-Replayed: true`), the same key with another body is 422, and a
// retry while the first is still running is 409. A request that fails releases its key, so the client
// can retry it. Without the header the request runs as usual.
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
// A claim not renewed for this long is taken over: the request that held it died (a crashed instance). A running
// handler renews it every IDEMPOTENCY_RENEW_EVERY_MS, so a slow one (past its deadline answer) is never run twice.
export const IDEMPOTENCY_LEASE_MS = 60_000;
export const IDEMPOTENCY_RENEW_EVERY_MS = 20_000;
// An answer goes in a run's commit only this long before the claim's first renewal could write it (clock skew, a slow
// commit): later, it is stored after the commit.
const IN_COMMIT_MARGIN_MS = 5_000;
// What a 409 IDEMPOTENCY_IN_PROGRESS asks the client to wait (most runs end within a second or two).
const IN_PROGRESS_RETRY_AFTER_SEC = 2;
// No run outlives the function's timeout: renewing past it (plus a margin for a slow last commit) would only keep a
// claim whose instance is gone, or a handler stuck for good, from ever being taken over.
export const IDEMPOTENCY_RENEW_FOR_MS = API_TIMEOUT_SECONDS * 1000 + 30_000;

export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, { message: 'must be 1 to 200 visible ASCII characters' })
  .describe(
    'Makes a retried request safe: the same key (per caller and operation) returns the first answer for 24 h; another body under a used key is 422; while the first runs, 409.',
  );

export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(422, 'This Idempotency-Key was used with another request body');
    this.code = 'IDEMPOTENCY_KEY_REUSED';
  }
}

export interface StoredAnswer {
  status: number;
  body: unknown;
}

export type Claim = { kind: 'run'; id: string; token: string } | { kind: 'replay'; answer: StoredAnswer };

/**
 * A route's `ctx.answerInCommit` (platform/core/http/route.ts): stores `result` as the answer in `tx`'s commit and
 * gives it back, to be returned as it is.
 */
export type AnswerInCommit = <T>(tx: Transaction, result: T) => T;

export interface IdempotencyStore {
  /** Claims `id` for a new run, or returns the stored answer; throws 422 (other body) or 409 (running). */
  claim(id: string, requestHash: string, now: number): Promise<Claim>;
  /** Stores the answer of the run that holds the claim. */
  complete(id: string, token: string, answer: StoredAnswer, now: number): Promise<void>;
  /**
   * Stores the answer in the run's own transaction (no write after its commit), on the condition that nothing wrote
   * the claim since this instance created it (a renewal, a take-over: the commit then fails, and nothing of it is
   * kept). False, with nothing written, when the claim was not such a create (a key seen before) or its first renewal
   * is near: complete it after.
   */
  txComplete?(tx: Transaction, id: string, token: string, answer: StoredAnswer, now: number): boolean;
  /** The answer of `token`'s run was committed by `txComplete`. */
  completedInCommit?(token: string): void;
  /** Frees the claim after a failed run. */
  release(id: string, token: string): Promise<void>;
  /** Extends the lease of a claim still running; false (nothing done) when `token` no longer holds it. */
  renew(id: string, token: string, now: number): Promise<boolean>;
}

/** The stored record of a key: stableId of (caller, operation, key), the whole hash (43 characters). */
export function recordId(callerId: string, operation: string, key: string): string {
  return stableId({ key: [callerId, operation, key], length: 43 });
}

export function requestHashOf(parts: unknown): string {
  return sha256(JSON.stringify(parts) ?? '', 'base64url');
}

interface Entry {
  requestHash: string;
  state: 'RUNNING' | 'DONE';
  token: string;
  leaseUntil: number;
  answer: StoredAnswer | null;
  expiresAt: number;
}

/** What a stored entry means for a new request with `requestHash` at `now`. */
export function decide(entry: Entry | undefined, requestHash: string, now: number): 'run' | 'replay' {
  if (!entry || entry.expiresAt <= now) return 'run';
  if (entry.requestHash !== requestHash) throw new IdempotencyKeyReusedError();
  if (entry.state === 'DONE') return 'replay';
  if (entry.leaseUntil > now)
    throw new AppError(409, 'A request with this Idempotency-Key is still running; retry shortly', undefined, {
      'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SEC),
    }).withCode('IDEMPOTENCY_IN_PROGRESS');
  return 'run';
}

const newToken = () => randomBytes(12).toString('base64url');

// For unit tests and the plain server without Firestore.
export function memoryIdempotencyStore(): IdempotencyStore {
  const entries = new Map<string, Entry>();
  return {
    async claim(id, requestHash, now) {
      const entry = entries.get(id);
      if (decide(entry, requestHash, now) === 'replay') return { kind: 'replay', answer: storedAnswer(entry!.answer!) };
      const token = newToken();
      entries.set(id, { requestHash, state: 'RUNNING', token, leaseUntil: now + IDEMPOTENCY_LEASE_MS, answer: null, expiresAt: now + IDEMPOTENCY_TTL_MS });
      return { kind: 'run', id, token };
    },
    async complete(id, token, answer, now) {
      const entry = entries.get(id);
      if (entry?.token === token)
        entries.set(id, { ...entry, state: 'DONE', answer: { status: answer.status, body: JSON.stringify(answer.body) }, expiresAt: now + IDEMPOTENCY_TTL_MS });
    },
    async release(id, token) {
      const entry = entries.get(id);
      if (entry?.token === token && entry.state === 'RUNNING') entries.delete(id);
    },
    async renew(id, token, now) {
      const entry = entries.get(id);
      if (entry?.token !== token || entry.state !== 'RUNNING') return false;
      entries.set(id, { ...entry, leaseUntil: now + IDEMPOTENCY_LEASE_MS });
      return true;
    },
  };
}

export { IDEMPOTENCY_COLLECTION };

// `idempotency_keys/{id}`; `expireAt` is the field of the collection's TTL policy. Most keys are new: the claim is
// one `create` and the completion one update on the condition that nothing wrote the entry since (two round trips,
// not four; one, when the run stores its answer in its own transaction's commit: `txComplete`). A key seen before (a
// retry, a race, an expired entry the TTL has not removed yet) is claimed in a transaction (two racing requests: one
// runs, one gets 409), and a completion whose condition failed (a renewal wrote the entry) is done in one.
export function firestoreIdempotencyStore(): IdempotencyStore {
  const { db, inTransaction, isAlreadyExists, isFailedPrecondition, isNotFound } =
    require('../../core/firebase/firebase') as typeof import('../../core/firebase/firebase');
  const ref = (id: string) => db().collection(IDEMPOTENCY_COLLECTION).doc(id);
  // The write time of each claim this instance created, by token, until its completion or release (or a renewal,
  // which writes the entry again): one entry per request in flight.
  const claimWriteTimes = new Map<string, Timestamp>();
  const withExpireAt = (entry: Entry) => ({ ...entry, expireAt: timestampOf(entry.expiresAt) });
  const doneFields = (answer: StoredAnswer, now: number) => ({
    state: 'DONE',
    // The answer is stored as JSON text: any shape, and nothing Firestore would reinterpret.
    answer: { status: answer.status, body: JSON.stringify(answer.body) },
    expiresAt: now + IDEMPOTENCY_TTL_MS,
    expireAt: timestampOf(now + IDEMPOTENCY_TTL_MS),
  });
  // Only a claim still running is freed: a stored answer (a completion that landed unseen) stays to be replayed.
  const release = (id: string, token: string) => {
    claimWriteTimes.delete(token);
    return inTransaction(async (tx) => {
      const snap = await tx.get(ref(id));
      if (snap.get('token') === token && snap.get('state') === 'RUNNING') tx.delete(ref(id));
    });
  };
  const claimInTransaction = (id: string, fresh: Entry, now: number) =>
    inTransaction(async (tx): Promise<Claim> => {
      const snap = await tx.get(ref(id));
      const entry = snap.exists ? (snap.data() as Entry) : undefined;
      if (entry?.token === fresh.token) return { kind: 'run', id, token: fresh.token };
      if (decide(entry, fresh.requestHash, now) === 'replay') return { kind: 'replay', answer: storedAnswer(entry!.answer!) };
      tx.set(ref(id), withExpireAt(fresh));
      return { kind: 'run', id, token: fresh.token };
    });
  return {
    async claim(id, requestHash, now) {
      // The token is chosen before writing: a write that landed although it reported a failure is then recognisably
      // ours, both to the transaction below (after a create the SDK retried into ALREADY_EXISTS) and to the release.
      const fresh: Entry = {
        requestHash,
        state: 'RUNNING',
        token: newToken(),
        leaseUntil: now + IDEMPOTENCY_LEASE_MS,
        answer: null,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      };
      try {
        try {
          const written = await ref(id).create(withExpireAt(fresh));
          claimWriteTimes.set(fresh.token, written.writeTime);
          return { kind: 'run', id, token: fresh.token };
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
        return await claimInTransaction(id, fresh, now);
      } catch (err) {
        // Otherwise a claim that landed unseen would answer 409 to every retry until its lease ran out.
        if (!(err instanceof AppError)) await release(id, fresh.token).catch(() => undefined);
        throw err;
      }
    },
    txComplete(tx, id, token, answer, now) {
      const writeTime = claimWriteTimes.get(token);
      // Not once the claim's first renewal is near (it would fail the commit whole): stored after the commit then.
      if (!writeTime || now - writeTime.toMillis() > IDEMPOTENCY_RENEW_EVERY_MS - IN_COMMIT_MARGIN_MS) return false;
      tx.update(ref(id), doneFields(answer, now), { lastUpdateTime: writeTime });
      return true;
    },
    completedInCommit(token) {
      claimWriteTimes.delete(token);
    },
    async complete(id, token, answer, now) {
      const writeTime = claimWriteTimes.get(token);
      claimWriteTimes.delete(token);
      if (writeTime) {
        try {
          await ref(id).update(doneFields(answer, now), { lastUpdateTime: writeTime });
          return;
        } catch (err) {
          // Written since (a renewal, a take-over) or gone: the transaction decides by the token.
          if (!isFailedPrecondition(err) && !isNotFound(err)) throw err;
        }
      }
      await inTransaction(async (tx) => {
        const snap = await tx.get(ref(id));
        if (snap.get('token') === token) tx.update(ref(id), doneFields(answer, now));
      });
    },
    release,
    renew: (id, token, now) => {
      claimWriteTimes.delete(token);
      return inTransaction(async (tx) => {
        const snap = await tx.get(ref(id));
        if (snap.get('token') !== token || snap.get('state') !== 'RUNNING') return false;
        tx.update(ref(id), { leaseUntil: now + IDEMPOTENCY_LEASE_MS });
        return true;
      });
    },
  };
}

/**
 * Keeps a running claim's lease renewed until the returned stop is called: every `everyMs`, one renewal at a time
 * (a slow one is not stacked on), for at most `forMs`; a renewal that finds the claim taken over (its lease had run
 * out: the run may now happen twice) is logged and renewing stops.
 */
export function keepClaimed(
  store: IdempotencyStore,
  id: string,
  token: string,
  opts: { everyMs?: number; forMs?: number; now?: () => number } = {},
): () => void {
  const now = opts.now ?? Date.now;
  const forMs = opts.forMs ?? IDEMPOTENCY_RENEW_FOR_MS;
  const started = now();
  let pending = false;
  const timer = setInterval(() => {
    if (now() - started >= forMs) {
      clearInterval(timer);
      logger.warn('idempotency claim no longer renewed: its run outlived the function timeout', { id, forMs });
      return;
    }
    if (pending) return;
    pending = true;
    store
      .renew(id, token, now())
      .then(
        (held) => {
          if (held) return;
          clearInterval(timer);
          logger.warn('idempotency claim taken over while its run was still going', { id });
        },
        (err: Error) => logger.warn('idempotency claim renewal failed', { id, error: err.message }),
      )
      .finally(() => (pending = false));
  }, opts.everyMs ?? IDEMPOTENCY_RENEW_EVERY_MS).unref();
  return () => clearInterval(timer);
}

/** Answers are kept with their body as JSON text (any shape, nothing Firestore would reinterpret). */
function storedAnswer(answer: StoredAnswer): StoredAnswer {
  return { status: answer.status, body: JSON.parse(answer.body as string) };
}
