import { ConflictError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';

// Status changes as a table: each action moves an entity from some statuses to one, done by some actors.
// `defineMachine` checks moves; `transition` (transition.ts) runs one in a Firestore transaction: read, check the actor and the
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
  /** Whether `action` leaves `status` at all (whoever acts). */
  accepts(action: A, status: S): boolean;
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
    accepts: (action, status) => list(definition.moves[action].from).includes(status),
    can: (action, status, roles) => machine.accepts(action, status) && holds(definition.moves[action], roles),
    allowed: (status, roles) => (Object.keys(definition.moves) as A[]).filter((action) => machine.can(action, status, roles)),
    checkActor(action, roles) {
      const move = definition.moves[action];
      if (!holds(move, roles)) {
        throw new ConflictError(`Only the ${list(move.by).join(' or ').toLowerCase()} can ${action} this ${definition.entity}`).withCode(
          definition.codes.actor,
        );
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
