import { timestampOf } from '../../platform/kits/time/time';
import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi, inTransaction, isAlreadyExists } from '../../platform/core/firebase/firebase';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { incrementAndCount } from '../../platform/kits/counters/increment-and-count';
import {
  AUTH_DAILY_SENDS,
  AUTH_FAILURES,
  AUTH_LOCKS,
  AUTH_OTPS,
  AUTH_SESSIONS,
  OTP_USES,
  USER_IDENTITIES,
  type OtpRecord,
  type SessionRecord,
} from './auth.model';
import { accounts } from '../users';

// Firestore layout of the auth module. Clients never read these (firestore.rules deny all).

const col = (name: string) => db().collection(name);
// Documents that only matter until a moment carry `expireAt`, the field of the collections' TTL policies.
const expireAt = timestampOf;

export type Tx = Transaction;

// Typed reads; writes add the TTL field (expireAt) beside the record.
const sessions = () => typedCollection<SessionRecord>(AUTH_SESSIONS);
const otps = () => plainCollection<OtpRecord>(AUTH_OTPS);

export const authRepo = {
  newSessionId: () => col(AUTH_SESSIONS).doc().id,

  // Sessions
  txGetSession: (tx: Tx, id: string) => readRecord(sessions().doc(id), tx),
  txSetSession(tx: Tx, session: SessionRecord): void {
    const { id, ...data } = session;
    tx.set(col(AUTH_SESSIONS).doc(id), { ...data, expireAt: expireAt(session.refresh.exp * 1000) });
  },
  async createSession(session: SessionRecord): Promise<void> {
    const { id, ...data } = session;
    await col(AUTH_SESSIONS)
      .doc(id)
      .create({ ...data, expireAt: expireAt(session.refresh.exp * 1000) });
  },
  /**
   * Whether the user signed in before at all, and from this device (user agent and device name) before: two queries
   * of at most one document each, however many sessions the account has had (all of them cost a read each before).
   */
  async deviceHistory(userId: string, device: { userAgent: string | null; deviceName: string | null }): Promise<{ any: boolean; known: boolean }> {
    const mine = sessions().where('userId', '==', userId);
    const [any, known] = await Promise.all([
      mine.limit(1).get(),
      mine.where('userAgent', '==', device.userAgent).where('deviceName', '==', device.deviceName).limit(1).get(),
    ]);
    return { any: !any.empty, known: !known.empty };
  },
  async sessionsOf(userId: string): Promise<SessionRecord[]> {
    return (await sessions().where('userId', '==', userId).get()).docs.map((d) => d.data());
  },
  /**
   * Ends the sessions among `ids` that are still unrevoked when a transaction reads them (one ended meanwhile keeps its
   * time and reason, and is not counted twice): how many it ended. At most 500 a transaction: an account may have more.
   */
  async revokeSessions(ids: string[], reason: string, now: number): Promise<number> {
    let ended = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const refs = ids.slice(i, i + 500).map((id) => sessions().doc(id));
      ended += await inTransaction(async (tx) => {
        const unrevoked = (await tx.getAll(...refs)).map((snap) => snap.data()).filter((s): s is SessionRecord => s !== undefined && s.revokedAt === null);
        for (const s of unrevoked) this.txRevokeSession(tx, s.id, reason, now);
        return unrevoked.length;
      });
    }
    return ended;
  },
  txRevokeSession(tx: Tx, id: string, reason: string, now: number): void {
    tx.update(col(AUTH_SESSIONS).doc(id), { revokedAt: now, revokeReason: reason });
  },
  async touchSession(id: string, now: number): Promise<void> {
    await col(AUTH_SESSIONS).doc(id).update({ lastUsedAt: now });
  },

  // What every protected request needs, in one round trip: the account and the session (which names the access
  // tokens it still honours, so no list of revoked tokens is read).
  async requestState(userId: string, sessionId: string) {
    const [user, session] = await db().getAll(accounts.ref(userId), col(AUTH_SESSIONS).doc(sessionId));
    return {
      user: user.exists ? user.data() : undefined,
      session: session.exists ? ({ ...session.data(), id: session.id } as SessionRecord) : undefined,
    };
  },

  // One-time codes
  // The live challenge of a purpose and destination, and the codes sent to that destination today.
  async txOtpAndDailySends(tx: Tx, id: string, destinationKey: string, day: number): Promise<[OtpRecord | undefined, number]> {
    const [otp, daily] = await tx.getAll(col(AUTH_OTPS).doc(id), col(AUTH_DAILY_SENDS).doc(`${destinationKey}:${day}`));
    return [otp.exists ? (otp.data() as OtpRecord) : undefined, (daily.get('count') as number | undefined) ?? 0];
  },
  txCountDailySend(tx: Tx, destinationKey: string, day: number, dayEndMs: number): void {
    const { FieldValue } = firestoreApi();
    tx.set(col(AUTH_DAILY_SENDS).doc(`${destinationKey}:${day}`), { count: FieldValue.increment(1), expireAt: expireAt(dayEndMs + 3600_000) }, { merge: true });
  },
  txSetOtp(tx: Tx, id: string, otp: OtpRecord): void {
    // Kept an hour past expiry so the hourly send cap survives the code's own expiry.
    tx.set(col(AUTH_OTPS).doc(id), { ...otp, expireAt: expireAt(Math.max(otp.expiresAt, otp.hourWindowStart) + 3600_000) });
  },
  async getOtp(id: string): Promise<OtpRecord | undefined> {
    return readRecord(otps().doc(id));
  },
  // Atomic: each caller gets its own attempt number.
  reserveOtpAttempt(id: string): Promise<number> {
    return incrementAndCount(col(AUTH_OTPS).doc(id), 'attempts', { mustExist: true });
  },
  // Single use: only the first create() of the challenge's use marker succeeds.
  async consumeOtp(id: string, challengeId: string, now: number): Promise<boolean> {
    try {
      await col(AUTH_OTPS)
        .doc(id)
        .collection(OTP_USES)
        .doc(challengeId)
        .create({ usedAt: now, expireAt: expireAt(now + 24 * 3600_000) });
    } catch (err) {
      if (isAlreadyExists(err)) return false;
      throw err;
    }
    await col(AUTH_OTPS).doc(id).update({ consumedAt: now });
    return true;
  },

  // Failed sign-ins per account: `auth_failures/{key}:{window}` counters and `auth_locks/{key}`.
  countFailure(key: string, window: number, windowEndMs: number): Promise<number> {
    return incrementAndCount(col(AUTH_FAILURES).doc(`${key}:${window}`), 'count', { extra: { expireAt: expireAt(windowEndMs + 60_000) } });
  },
  async lock(key: string, untilMs: number, window: number): Promise<void> {
    const batch = db().batch();
    batch.set(col(AUTH_LOCKS).doc(key), { lockedUntil: untilMs, expireAt: expireAt(untilMs + 60_000) });
    // The lock starts a fresh count.
    batch.delete(col(AUTH_FAILURES).doc(`${key}:${window}`));
    await batch.commit();
  },
  async lockedUntil(key: string): Promise<number | null> {
    const snap = await col(AUTH_LOCKS).doc(key).get();
    return (snap.get('lockedUntil') as number | undefined) ?? null;
  },
  async clearFailures(key: string, window: number): Promise<void> {
    const batch = db().batch();
    batch.delete(col(AUTH_LOCKS).doc(key));
    batch.delete(col(AUTH_FAILURES).doc(`${key}:${window}`));
    await batch.commit();
  },

  // Social identities: `user_identities/google:{sub}` -> user id
  async txIdentityOwner(tx: Tx, provider: string, subject: string): Promise<string | undefined> {
    const snap = await tx.get(col(USER_IDENTITIES).doc(`${provider}:${subject}`));
    return snap.get('userId') as string | undefined;
  },
  txCreateIdentity(tx: Tx, provider: string, subject: string, userId: string, email: string | null, now: number): void {
    tx.create(col(USER_IDENTITIES).doc(`${provider}:${subject}`), { provider, subject, userId, email, createdAt: now });
  },
};
