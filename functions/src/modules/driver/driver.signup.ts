import { db, inTransaction } from '../../platform/firebase/firebase';
import { logger } from '../../platform/logging/logger';
import type { ApplicationRecord } from '../kyc/applications.model';
import { applicationsRepo } from '../kyc/applications.repo';
import type { Vehicle } from './driver.model';

// `driver_signups/{userId}`: a driver registration waiting for the mailbox owner. POST /driver/register
// is public, so it attaches nothing to an account: it mails a sign-in code and records the details with
// that code's challenge id. Only a sign-in with *that* code (someone who read the mail) turns the details
// into an application. Expires with the code's day.
export const DRIVER_SIGNUPS = 'driver_signups';
const SIGNUP_TTL_MS = 24 * 3600_000;

export interface DriverSignupDetails {
  fullName: string;
  phone: string | null;
  licenceNumber: string | null;
  vehicle: Vehicle;
}

interface DriverSignupRecord {
  userId: string;
  challengeId: string;
  details: DriverSignupDetails;
  createdAt: number;
  expiresAt: number;
}

const signups = () => db().collection(DRIVER_SIGNUPS);
const expireAt = (ms: number) => (require('firebase-admin/firestore') as typeof import('firebase-admin/firestore')).Timestamp.fromMillis(ms);

export async function recordDriverSignup(userId: string, challengeId: string, details: DriverSignupDetails, now: number): Promise<void> {
  const record: DriverSignupRecord = { userId, challengeId, details, createdAt: now, expiresAt: now + SIGNUP_TTL_MS };
  await signups().doc(userId).set({ ...record, expireAt: expireAt(record.expiresAt) });
}

/**
 * Called after an email code was verified. When it is the code a driver registration mailed, the
 * account's open DRIVER application is created (or the open one kept: registering twice makes one).
 * Idempotent: the signup is consumed in the same transaction.
 */
export async function claimDriverSignup(userId: string, challengeId: string, now: number): Promise<ApplicationRecord | undefined> {
  return inTransaction(async (tx) => {
    const ref = signups().doc(userId);
    const snap = await tx.get(ref);
    const signup = snap.data() as DriverSignupRecord | undefined;
    if (!signup || signup.challengeId !== challengeId || signup.expiresAt <= now) return undefined;
    const open = await applicationsRepo.txOpenOf(tx, userId, 'DRIVER');
    tx.delete(ref);
    if (open.length > 0) return open[0];
    const created: ApplicationRecord = {
      id: applicationsRepo.newId(),
      kind: 'DRIVER',
      userId,
      status: 'SUBMITTED',
      details: { ...signup.details },
      reason: null,
      reviewedBy: null,
      reviewedAt: null,
      grantedRoles: [],
      history: [{ status: 'SUBMITTED', at: now, by: userId, reason: null }],
      createdAt: now,
      updatedAt: now,
    };
    applicationsRepo.txCreate(tx, created);
    logger.info('driver application opened from a verified registration', { userId, applicationId: created.id });
    return created;
  });
}
