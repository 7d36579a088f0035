// Public face of the chat module: calls, and the conversations other modules open for their entities.
import type { Surface } from '../notifications';
import type { ContextType } from './conversations.model';

export { CALL_STATUSES, type CallStatus } from './calls.model';
export { CONTEXT_TYPES, type ContextType } from './conversations.model';

const server = () => (require('./conversations.service') as typeof import('./conversations.service')).serverConversations;

/**
 * The conversation of a ride, order or booking for its parties (e.g. rider and driver, with the app each uses);
 * created once, later calls add parties who joined since. Returns its id. `stillParties`: reads the entity in the
 * conversation's transaction and says who is a party now, so a party who left meanwhile (a released courier, whose
 * `leaveContextConversation` may have run already) is not added back.
 */
export async function openContextConversation(
  context: { type: ContextType; id: string },
  parties: Array<{ userId: string; surface: Surface }>,
  stillParties?: (tx: FirebaseFirestore.Transaction) => Promise<(userId: string) => boolean>,
): Promise<string> {
  return (await server().open(context, parties, stillParties)).id;
}

/** A party left the ride, order or booking (a courier released from an order): they read its conversation no more. */
export async function leaveContextConversation(context: { type: ContextType; id: string }, userId: string): Promise<void> {
  await server().leave(context, userId);
}

/** The ride, order or booking is over: its conversation becomes read-only. */
export async function closeContextConversation(context: { type: ContextType; id: string }): Promise<void> {
  await server().close(context);
}

const blocks = () => (require('./conversations.repo') as typeof import('./conversations.repo')).conversationsRepo;

// A block applies everywhere two users meet (chat, calls, the social tab): the modules there ask these.

/** Whether either of two people blocks the other (in the caller's transaction when given, before its writes). */
export async function eitherBlocks(a: string, b: string, tx?: FirebaseFirestore.Transaction): Promise<boolean> {
  const state = await blocks().eitherBlocks(a, b, tx);
  return state.aBlocksB || state.bBlocksA;
}

/** Who blocks whom between two people (in the caller's transaction when given, before its writes). */
export function blockState(a: string, b: string, tx?: FirebaseFirestore.Transaction): Promise<{ aBlocksB: boolean; bBlocksA: boolean }> {
  return blocks().eitherBlocks(a, b, tx);
}

/** Whom a person blocks (one read). */
export function blockListOf(userId: string): Promise<ReadonlySet<string>> {
  return blocks().blockListOf(userId);
}

/** Which of `userIds` block `userId` (one read each). */
export function blockersOf(userId: string, userIds: string[]): Promise<Set<string>> {
  return blocks().blockersOf(userId, userIds);
}
