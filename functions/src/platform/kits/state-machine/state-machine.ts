// The state-machine kit: a status table (machine.ts), one move in a transaction with related reads, lazy expiry and
// a tolerant mode (transition.ts), and the entity's history of moves (history.ts).
export { defineMachine, type Machine, type MachineDefinition, type Move } from './machine';
export { EVENTS, recordTransition, TransitionEventSchema, readHistory, type TransitionEvent } from './history';
export { recordNote } from './notes';
export {
  transition,
  lapsed,
  type Expiry,
  type Tolerance,
  type TransitionRequest,
  type TransitionResult,
  type TransitionStore,
  type Moved,
  type Unchanged,
} from './transition';
