// Public face of the chat module: calls, and the conversations other modules open for their entities.
import type { Surface } from '../notifications';
import type { ContextType } from './conversations.model';

export { CALL_STATUSES, type CallStatus } from './calls.model';
export { CONTEXT_TYPES, type ContextType } from './conversations.model';

const server = () => (require('./conversations.service') as typeof import('./conversations.service')).serverConversations;

/**
 * The conversation of a ride, order or booking for its parties (e.g. rider and driver, with the app each uses);
 * created once, later calls add parties who joined since. Returns its id.
 */
export async function openContextConversation(
  context: { type: ContextType; id: string },
  parties: Array<{ userId: string; surface: Surface }>,
): Promise<string> {
  return (await server().open(context, parties)).id;
}

/** A party left the ride, order or booking (a courier released from an order): they read its conversation no more. */
export async function leaveContextConversation(context: { type: ContextType; id: string }, userId: string): Promise<void> {
  await server().leave(context, userId);
}

/** The ride, order or booking is over: its conversation becomes read-only. */
export async function closeContextConversation(context: { type: ContextType; id: string }): Promise<void> {
  await server().close(context);
}
