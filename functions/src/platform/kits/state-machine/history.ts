import * as z from 'zod/mini';
import { logger } from '../../core/logging/logger';

// The audit trail of an entity's moves: one document per move in `<entity>/{id}/events`, written in the move's
// transaction, read back oldest (or newest) first.

/** The subcollection of an entity's moves. */
export const EVENTS = 'events';

/** One line of `<entity>/{id}/events`, as stored (`at` in epoch ms). */
export const TransitionEventSchema = z.object({
  action: z.string(),
  from: z.string(),
  to: z.string(),
  /** Account id of the actor, or `system:<source>`. */
  by: z.string(),
  at: z.number(),
  reason: z.optional(z.nullable(z.string())),
});

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

/** Appends a move to `<entity>/{id}/events` in the transaction (for services running their own transaction). */
export function recordTransition<S extends string, A extends string>(
  tx: FirebaseFirestore.Transaction,
  entity: FirebaseFirestore.DocumentReference,
  event: TransitionEvent<S, A>,
): void {
  tx.create(entity.collection(EVENTS).doc(), event);
}

/**
 * An entity's moves, checked against the event schema: oldest first (the default) or newest first, at most `limit`.
 * The statuses and actions are the entity's own (its machine wrote them).
 */
export async function readHistory<S extends string, A extends string>(
  entity: FirebaseFirestore.DocumentReference,
  options: { order?: 'asc' | 'desc'; limit?: number } = {},
): Promise<Array<TransitionEvent<S, A>>> {
  const snap = await entity
    .collection(EVENTS)
    .orderBy('at', options.order ?? 'asc')
    .limit(options.limit ?? 200)
    .get();
  // A line that does not read as an event is left out (and logged) rather than failing the whole history.
  return snap.docs.flatMap((d) => {
    const parsed = TransitionEventSchema.safeParse(d.data());
    if (parsed.success) return [parsed.data as TransitionEvent<S, A>];
    logger.warn('history line skipped: not an event', { path: d.ref.path, reason: parsed.error.message });
    return [];
  });
}
