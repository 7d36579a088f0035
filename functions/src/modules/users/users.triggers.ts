import type { AppConfig } from '../../platform/core/config';
import { db, isAlreadyExists } from '../../platform/core/firebase/firebase';
import { typedTrigger } from '../../platform/core/module/triggers';
import { accountReader } from './users.repo';
import { AUDIT_LOG, type UserRecord } from './users.model';

export { AUDIT_LOG };

// The audit trail of what decides access: roles, the lock and admin permissions. A trigger on `users/{id}`
// writes one `audit_log/{eventId}` entry per change (who, what, before, after). Cloud Functions deliver at
// least once: the entry's id is the event's, written with create(), so a repeated delivery adds nothing.

const AUDITED = ['roles', 'disabled', 'permissions'] as const;

export interface AuditEntry {
  userId: string;
  /** `updatedBy` of the account after the change: an administrator's id, or `system:<source>`. */
  by: string | null;
  changes: Array<{ field: (typeof AUDITED)[number]; before: unknown; after: unknown }>;
  at: number;
}

/** The entry a write calls for, or undefined when no audited field changed. */
export function auditEntryFor(
  userId: string,
  before: Partial<UserRecord> | undefined,
  after: Partial<UserRecord> | undefined,
  at: number,
): AuditEntry | undefined {
  if (!before || !after) return undefined; // creation and deletion are not role changes
  const changes = AUDITED.filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null)).map((field) => ({
    field,
    before: before[field] ?? null,
    after: after[field] ?? null,
  }));
  return changes.length > 0 ? { userId, by: after.updatedBy ?? null, changes, at } : undefined;
}

/** Trigger work: 'written', 'duplicate' (this event was recorded already) or 'ignored'. */
export async function recordAudit(eventId: string, entry: AuditEntry | undefined): Promise<'written' | 'duplicate' | 'ignored'> {
  if (!entry) return 'ignored';
  try {
    await db().collection(AUDIT_LOG).doc(eventId).create(entry);
    return 'written';
  } catch (err) {
    if (isAlreadyExists(err)) return 'duplicate';
    throw err;
  }
}

/** The `userAuditTrail` trigger's work. */
export const onUserDocumentUpdated = typedTrigger(accountReader(), async ({ id, time, params, before, after }, _config: Readonly<AppConfig>) =>
  recordAudit(id, auditEntryFor(params.userId, before, after, Date.parse(time))),
);
