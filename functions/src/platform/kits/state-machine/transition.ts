import { ConflictError, type AppError } from '../../core/errors/app-error';
import { inTransaction } from '../../core/firebase/firebase';
import { recordTransition, type TransitionEvent } from './history';
import type { Machine } from './machine';

// One move of an entity in a Firestore transaction. In order: start `beside` (a read outside the transaction), read
// the entity (missing or hidden: `missing()`), read what the move depends on (`read`: the payment's order, the call's
// line…, and await `beside` there), check the actor, expire the entity if its deadline passed (`deadline`: lazy
// expiry), run the caller's own checks (`guard`), check the move (or, `tolerant`, answer `changed: false`), then
// write: `alongside` (its reads come first: every write follows every read), the entity, and one event per move. An expiry commits even when the move it preceded is refused (the refusal is
// thrown after the commit). Effects that must not run twice or hold the transaction (push, tasks) follow it.

export interface TransitionStore<T, S extends string, A extends string> {
  load(tx: FirebaseFirestore.Transaction): Promise<T | undefined>;
  save(tx: FirebaseFirestore.Transaction, next: T, previous: T): void;
  /** The entity's document: events go to its `events` subcollection. */
  ref(entity: T): FirebaseFirestore.DocumentReference;
  /** Optional extra reads and writes of the same move (after every check, before the entity's write). */
  alongside?(tx: FirebaseFirestore.Transaction, next: T, previous: T, event: TransitionEvent<S, A>): Promise<void> | void;
}

/** The deadline of an entity, checked before every move that names it (declared with platform/kits/deadlines). */
export interface Expiry<T, S extends string, A extends string> {
  /** When the entity's deadline passes; null when it has none in its status. */
  dueAt(entity: T): number | null;
  /** The machine's action that expires it (e.g. `timeout`, `expire`). */
  action: A;
  /** Who expires it, as stored in the event (`system:<source>`). */
  by: string;
  /** The entity expired at `at` (the kit sets the status to `to`). */
  apply(entity: T, to: S, at: number): T;
  /** The expiry's own reads and writes (a hold released), before the entity's write; its reads come first. */
  alongside?(tx: FirebaseFirestore.Transaction, expired: T, before: T, event: TransitionEvent<S, A>): Promise<void> | void;
}

/**
 * At-least-once callers (webhooks, tasks): `target` answers an entity already in the move's target status with
 * `changed: false` instead of 409; `refused` does so for any status the move cannot leave (stale or repeated news).
 * An actor without the move's roles is refused either way.
 */
export type Tolerance = 'target' | 'refused';

export interface TransitionRequest<T extends { status: S }, S extends string, A extends string, R extends string, X = undefined, B = undefined> {
  action: A;
  /** Who acts, as stored in the event. */
  by: string;
  /** The actor's roles for this entity (e.g. caller or callee of this call). */
  rolesOf(entity: T, related: X): readonly R[];
  /** The entity after the move. */
  apply(entity: T, to: S, related: X): T;
  now: number;
  reason?: string | null;
  /** Throws when the entity is missing (usually 404) — also used to hide an entity from a non-party. */
  missing(): Error;
  /** False hides the entity from this actor: answered as `missing()`. */
  visible?(entity: T): boolean;
  /**
   * Related reads in the transaction, before any check or write (the documents the move depends on). `besideRead` is
   * what `request.beside` reads (undefined without one): await it together with these reads. It rejects with the
   * kit's own wrapper; the move then fails with the read's error.
   */
  read?(tx: FirebaseFirestore.Transaction, entity: T, besideRead: Promise<B>): Promise<X>;
  /**
   * A read the move needs but does not lock (a profile's card): started once before the transaction, and awaited in
   * its read step beside the transaction's own reads, so it costs no round trip of its own; a retried transaction
   * gets the same answer. Its failure fails the move with the read's own error (the transaction is not run again).
   * Only in the kit's own transaction: in a caller's it would start on every attempt and hold the caller's locks.
   */
  beside?(): Promise<B>;
  /** Checks beyond the table (blocks, amounts), on the entity as it stands after a lazy expiry; throws to refuse. */
  guard?(entity: T, related: X): void;
  /** The entity's deadline: past it, the entity is expired before the move (which the machine may then refuse). */
  deadline?: Expiry<T, S, A>;
  tolerant?: Tolerance;
}

export interface Moved<T, S extends string, A extends string> {
  changed: true;
  before: T;
  after: T;
  /** The move's event (the expiry's, when the move was the expiry). */
  event: TransitionEvent<S, A>;
  /** Whether the entity was expired in this transaction (lazily). */
  expired: boolean;
}

export interface Unchanged<T> {
  changed: false;
  before: T;
  /** The entity as it stands (expired, when `expired`). */
  after: T;
  event?: undefined;
  expired: boolean;
}

export type TransitionResult<T, S extends string, A extends string> = Moved<T, S, A> | Unchanged<T>;

type Outcome<T, S extends string, A extends string> = TransitionResult<T, S, A> | { refused: AppError };

/**
 * Runs one move in a transaction (the caller's, when given) and returns the entity before and after. Without
 * `tolerant` the move happens or throws; with it, `changed: false` says there was nothing to do.
 */
export async function transition<T extends { status: S }, S extends string, A extends string, R extends string, X = undefined, B = undefined>(
  machine: Machine<S, A, R>,
  store: TransitionStore<T, S, A>,
  request: TransitionRequest<T, S, A, R, X, B> & { tolerant?: undefined },
  tx?: FirebaseFirestore.Transaction,
): Promise<Moved<T, S, A>>;
export async function transition<T extends { status: S }, S extends string, A extends string, R extends string, X = undefined, B = undefined>(
  machine: Machine<S, A, R>,
  store: TransitionStore<T, S, A>,
  request: TransitionRequest<T, S, A, R, X, B>,
  tx?: FirebaseFirestore.Transaction,
): Promise<TransitionResult<T, S, A>>;
export async function transition<T extends { status: S }, S extends string, A extends string, R extends string, X = undefined, B = undefined>(
  machine: Machine<S, A, R>,
  store: TransitionStore<T, S, A>,
  request: TransitionRequest<T, S, A, R, X, B>,
  tx?: FirebaseFirestore.Transaction,
): Promise<TransitionResult<T, S, A>> {
  if (tx && request.beside) throw new Error(`${machine.definition.entity} ${request.action}: \`beside\` runs in the kit's own transaction only`);
  const beside = request.beside?.().catch((err: unknown) => {
    throw new BesideReadFailed(err);
  });
  // Awaited in the read step; this keeps its failure from going unhandled when the move ends before it (a missing
  // entity, a failed load).
  beside?.catch(() => undefined);
  // An expiry commits even when the move it preceded is refused, in the kit's own transaction. In a caller's
  // transaction the refusal is thrown inside it and rolls the expiry back too: the deadline's task (or the next
  // read) expires the entity then. Prefer the kit's transaction for moves with a deadline.
  let outcome: Outcome<T, S, A>;
  try {
    outcome = await (tx ? runMove(machine, store, request, tx, beside) : inTransaction((t) => runMove(machine, store, request, t, beside)));
  } catch (err) {
    throw err instanceof BesideReadFailed ? err.failure : err;
  }
  if ('refused' in outcome) throw outcome.refused;
  return outcome;
}

/**
 * A failed `beside` read, carried through the transaction without a gRPC code: the SDK would otherwise run the
 * transaction again on a promise that fails the same way (up to its attempts). Unwrapped once out of it.
 */
class BesideReadFailed extends Error {
  constructor(readonly failure: unknown) {
    super('a read beside the transaction failed');
  }
}

async function runMove<T extends { status: S }, S extends string, A extends string, R extends string, X, B>(
  machine: Machine<S, A, R>,
  store: TransitionStore<T, S, A>,
  request: TransitionRequest<T, S, A, R, X, B>,
  tx: FirebaseFirestore.Transaction,
  beside: Promise<B> | undefined,
): Promise<Outcome<T, S, A>> {
  const before = await store.load(tx);
  if (!before || request.visible?.(before) === false) throw request.missing();
  // Without `beside`, B is undefined (its default).
  const besideRead = (beside ?? Promise.resolve(undefined)) as Promise<B>;
  // Awaited here too: its failure fails the move even where `read` did not await it.
  const [related] = (await Promise.all([request.read ? request.read(tx, before, besideRead) : undefined, besideRead])) as [X, unknown];
  const roles = request.rolesOf(before, related);
  machine.checkActor(request.action, roles);
  const lapse = lapsed(machine, request.deadline, before, request.now);
  const current = lapse?.entity ?? before;
  // The expiry's own work (money released with a hold…) comes before its write, like a move's `alongside`.
  const expiryWork = async () => {
    if (lapse) await request.deadline!.alongside?.(tx, lapse.entity, before, lapse.event);
  };
  const writeLapse = async () => {
    if (!lapse) return;
    await expiryWork();
    store.save(tx, lapse.entity, before);
    recordTransition(tx, store.ref(before), lapse.event);
  };
  if (request.deadline && request.action === request.deadline.action) {
    if (lapse) {
      await writeLapse();
      return { changed: true, before, after: current, event: lapse.event, expired: true };
    }
    // The expiry action before the due time (a task delivered early or late for an extended deadline): nothing to do.
    const due = request.deadline.dueAt(before);
    if (due !== null && request.now < due) {
      if (request.tolerant) return { changed: false, before, after: before, expired: false };
      throw new ConflictError(`Cannot ${request.action} a ${machine.definition.entity} before its deadline`, { dueAt: due }).withCode(
        machine.definition.codes.transition,
      );
    }
  }
  try {
    request.guard?.(current, related);
  } catch (err) {
    if (!lapse) throw err;
    // The expiry stands; the caller's refusal follows its commit.
    await writeLapse();
    return { refused: err as AppError };
  }
  const target = machine.target(request.action);
  const allowed = machine.can(request.action, current.status, roles);
  if (!allowed && (request.tolerant === 'refused' || (request.tolerant === 'target' && current.status === target))) {
    await writeLapse();
    return { changed: false, before, after: current, expired: lapse !== undefined };
  }
  if (!allowed && lapse) {
    // The expiry stands; the move it preceded is refused once it is committed.
    await writeLapse();
    return { refused: refusal(machine, request.action, current.status, roles) };
  }
  const to = machine.check(request.action, current.status, roles);
  const after = request.apply(current, to, related);
  const event: TransitionEvent<S, A> = {
    action: request.action,
    from: current.status,
    to,
    by: request.by,
    at: request.now,
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
  };
  await expiryWork();
  await store.alongside?.(tx, after, current, event);
  store.save(tx, after, before);
  if (lapse) recordTransition(tx, store.ref(before), lapse.event);
  recordTransition(tx, store.ref(before), event);
  return { changed: true, before, after, event, expired: lapse !== undefined };
}

/** The entity expired, when its deadline passed and its status still has one to miss (the move and its event). */
export function lapsed<T extends { status: S }, S extends string, A extends string, R extends string>(
  machine: Machine<S, A, R>,
  deadline: Expiry<T, S, A> | undefined,
  entity: T,
  now: number,
) {
  if (!deadline) return undefined;
  const due = deadline.dueAt(entity);
  if (due === null || now < due) return undefined;
  if (!machine.accepts(deadline.action, entity.status)) return undefined;
  const to = machine.target(deadline.action);
  const event: TransitionEvent<S, A> = { action: deadline.action, from: entity.status, to, by: deadline.by, at: now };
  return { entity: { ...deadline.apply(entity, to, now), status: to }, event };
}

function refusal<S extends string, A extends string, R extends string>(machine: Machine<S, A, R>, action: A, status: S, roles: readonly R[]): AppError {
  try {
    machine.check(action, status, roles);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`${machine.definition.entity}: ${action} from ${status} was expected to be refused`);
}
