import { timestampOf } from '../../platform/kits/time/time';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { PENDING_APPLICATIONS, type ApplicationKind, type ApplicationRecord } from './applications.model';
import { applicationsRepo, newApplication } from './applications.repo';

// `pending_applications/{userId}`: an application waiting for the mailbox owner. A public registration
// (POST /driver/register) attaches nothing to an account: it mails a sign-in code and records the details
// with that code's challenge id. Only a sign-in with *that* code (someone who read the mail) opens the
// application. Expires with the code's day.
const PENDING_TTL_MS = 24 * 3600_000;

interface PendingApplicationRecord {
  userId: string;
  kind: ApplicationKind;
  challengeId: string;
  details: Record<string, unknown>;
  createdAt: number;
  expiresAt: number;
}

const pending = () => db().collection(PENDING_APPLICATIONS);

/** Keeps the details until the mailbox owner signs in with the code of `challengeId` (a newer registration replaces them). */
export async function recordPendingApplication(
  userId: string,
  kind: ApplicationKind,
  challengeId: string,
  details: Record<string, unknown>,
  now: number,
): Promise<void> {
  const record: PendingApplicationRecord = { userId, kind, challengeId, details, createdAt: now, expiresAt: now + PENDING_TTL_MS };
  await pending()
    .doc(userId)
    .set({ ...record, expireAt: timestampOf(record.expiresAt) });
}

/**
 * Called after an email code was verified. When it is the code a registration mailed, the account's open
 * application of that kind is created (or the open one kept: registering twice makes one). Idempotent:
 * the pending record is consumed in the same transaction.
 */
export async function claimPendingApplication(userId: string, challengeId: string, now: number): Promise<ApplicationRecord | undefined> {
  return inTransaction(async (tx) => {
    const ref = pending().doc(userId);
    const snap = await tx.get(ref);
    const record = snap.data() as PendingApplicationRecord | undefined;
    if (!record || record.challengeId !== challengeId || record.expiresAt <= now) return undefined;
    const open = await applicationsRepo.txOpenOf(tx, userId, record.kind);
    tx.delete(ref);
    if (open.length > 0) return open[0];
    const created = newApplication({ kind: record.kind, userId, details: record.details, now });
    applicationsRepo.txCreate(tx, created);
    logger.info('application opened from a verified registration', { userId, kind: record.kind, applicationId: created.id });
    return created;
  });
}
