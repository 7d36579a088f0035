import { recordTransition } from './history';

/**
 * An action in an entity's history that moves no status (a refund reversed on a COMPLETED payment): one line of
 * `<entity>/{id}/events` with `from` = `to`, so the audit trail stays one list. A status change must be a move
 * (`transition`), which this refuses to record.
 */
export function recordNote<S extends string, A extends string>(
  tx: FirebaseFirestore.Transaction,
  entity: FirebaseFirestore.DocumentReference,
  note: { action: A; status: S; by: string; at: number; reason?: string | null },
): void {
  const { status, ...rest } = note;
  recordTransition<S, A>(tx, entity, { ...rest, from: status, to: status });
}
