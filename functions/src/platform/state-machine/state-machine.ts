import { ConflictError } from '../errors/app-error';
import type { ErrorCode } from '../errors/codes';
import { inTransaction } from '../firebase/firebase';

// Status changes as a table: each action moves an entity from some statuses to one, done by some actors.
// `defineMachine` checks moves; `transition` runs one in a Firestore transaction: read, check the actor and the
// move, write the entity, append the move to `<entity>/{id}/events`, then after-commit effects.

export interface Move<S extends string, R extends string> {
  from: S | readonly S[];
  to: S;
  /** Roles an actor must hold (for this entity) to make the move. */
  by: R | readonly R[];
}

export interface MachineDefinition<S extends string, A extends string, R extends string> {
  /** The entity, for messages ("Cannot answer a call that is ENDED"). */
  entity: string;
  states: readonly S[];
  moves: Record<A, Move<S, R>>;
  codes: {
    /** The status does not allow the action (409). */
    transition: ErrorCode;
    /** The actor holds none of the roles the action needs (409 unless `actorStatus` says otherwise). */
    actor: ErrorCode;
  };
}

const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? (value as readonly T[]) : [value as T]);

export interface Machine<S extends string, A extends string, R extends string> {
  readonly definition: MachineDefinition<S, A, R>;
  /** The status after `action` (no checks). */
  target(action: A): S;
  /** Whether an actor with `roles` may do `action` in `status`. */
  can(action: A, status: S, roles: readonly R[]): boolean;
  /** The actions an actor with `roles` may take in `status` (for clients that show buttons). */
  allowed(status: S, roles: readonly R[]): A[];
  /** Throws 409 with the actor code when none of `roles` may ever do `action`. */
  checkActor(action: A, roles: readonly R[]): void;
  /** The status after `action`; throws 409 with the actor code, then with the transition code. */
  check(action: A, status: S, roles: readonly R[]): S;
}

export function defineMachine<S extends string, A extends string, R extends string>(definition: MachineDefinition<S, A, R>): Machine<S, A, R> {
  for (const [action, move] of Object.entries(definition.moves) as Array<[A, Move<S, R>]>) {
    for (const status of [...list(move.from), move.to]) {
      if (!definition.states.includes(status)) throw new Error(`${definition.entity} machine: ${action} names unknown status ${status}`);
    }
  }
  const holds = (move: Move<S, R>, roles: readonly R[]) => list(move.by).some((role) => roles.includes(role));
  const machine: Machine<S, A, R> = {
    definition,
    target: (action) => definition.moves[action].to,
    can: (action, status, roles) => list(definition.moves[action].from).includes(status) && holds(definition.moves[action], roles),
    allowed: (status, roles) => (Object.keys(definition.moves) as A[]).filter((action) => machine.can(action, status, roles)),
    checkActor(action, roles) {
      const move = definition.moves[action];
      if (!holds(move, roles)) {
        throw new ConflictError(`Only the ${list(move.by).join(' or ').toLowerCase()} can ${action} this ${definition.entity}`).withCode(definition.codes.actor);
      }
    },
    check(action, status, roles) {
      machine.checkActor(action, roles);
      const move = definition.moves[action];
      if (!list(move.from).includes(status)) {
        const allowed = machine.allowed(status, roles);
        throw new ConflictError(`Cannot ${action} a ${definition.entity} that is ${status}`, { status, allowed }).withCode(definition.codes.transition);
      }
      return move.to;
    },
  };
  return machine;
}

/** One line of `<entity>/{id}/events`: the audit trail of the entity's moves. */
export interface TransitionEvent<S extends string, A extends string> {
  action: A;
  from: S;
  to: S;
  /** Account id of the actor, or `system:<source>`. */
  by: string;
  at: number;
  reason?: string | null;
}

/** The subcollection of an entity's moves. */
export const EVENTS = 'events';

/** Appends a move to `<entity>/{id}/events` in the transaction (for services running their own transaction). */
export function recordTransition<S extends string, A extends string>(tx: FirebaseFirestore.Transaction, entity: FirebaseFirestore.DocumentReference, event: TransitionEvent<S, A>): void {
  tx.create(entity.collection(EVENTS).doc(), event);
}

export interface TransitionStore<T, S extends string, A extends string> {
  load(tx: FirebaseFirestore.Transaction): Promise<T | undefined>;
  save(tx: FirebaseFirestore.Transaction, next: T, previous: T): void;
  /** The entity's document: events go to its `events` subcollection. */
  ref(entity: T): FirebaseFirestore.DocumentReference;
  /** Optional extra reads and writes of the same move (after every check, before the entity's write). */
  alongside?(tx: FirebaseFirestore.Transaction, next: T, previous: T, event: TransitionEvent<S, A>): Promise<void> | void;
}

export interface TransitionRequest<T extends { status: S }, S extends string, A extends string, R extends string> {
  action: A;
  /** Who acts, as stored in the event. */
  by: string;
  /** The actor's roles for this entity (e.g. caller or callee of this call). */
  rolesOf(entity: T): readonly R[];
  /** The entity after the move. */
  apply(entity: T, to: S): T;
  now: number;
  reason?: string | null;
  /** Throws when the entity is missing (usually 404) — also used to hide an entity from a non-party. */
  missing(): Error;
}

/**
 * Runs one move in a transaction and returns the entity before and after. Effects that must not run twice or
 * must not hold the transaction (push, tasks) belong after it, in the caller — or in a trigger on the entity.
 */
export async function transition<T extends { status: S }, S extends string, A extends string, R extends string>(
  machine: Machine<S, A, R>,
  store: TransitionStore<T, S, A>,
  request: TransitionRequest<T, S, A, R>,
  tx?: FirebaseFirestore.Transaction,
): Promise<{ before: T; after: T; event: TransitionEvent<S, A> }> {
  const run = async (t: FirebaseFirestore.Transaction) => {
    const before = await store.load(t);
    if (!before) throw request.missing();
    const to = machine.check(request.action, before.status, request.rolesOf(before));
    const after = request.apply(before, to);
    const event: TransitionEvent<S, A> = { action: request.action, from: before.status, to, by: request.by, at: request.now, ...(request.reason !== undefined ? { reason: request.reason } : {}) };
    await store.alongside?.(t, after, before, event);
    store.save(t, after, before);
    recordTransition(t, store.ref(before), event);
    return { before, after, event };
  };
  return tx ? run(tx) : inTransaction(run);
}
