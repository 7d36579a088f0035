import { iso } from '../../platform/kits/time/time';
import type { AccessTokenVerifier, AuthContext } from '../../platform/core/auth/access-token';
import { NotFoundError, UnauthorizedError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { AUTH_LIMITS, type ClientInfo, type LoginMethod, type SessionRecord } from './auth.model';
import { authRepo } from './auth.repo';
import { removeSessionDevices } from '../notifications';
import type { TokenPair, TokenSigner } from './tokens';
import { authAdmin, inTransaction } from '../../platform/core/firebase/firebase';
import { UserRecord, toProfile, accounts } from '../users';
import { settled } from '../../platform/core/errors/settled';

export function sessionView(session: SessionRecord, currentSessionId?: string) {
  return {
    id: session.id,
    current: session.id === currentSessionId,
    method: session.method,
    surface: session.surface,
    deviceName: session.deviceName,
    userAgent: session.userAgent,
    ip: session.ip,
    lastIp: session.lastIp,
    createdAt: iso(session.createdAt),
    lastUsedAt: iso(session.lastUsedAt),
    expiresAt: iso(session.refresh.exp * 1000),
  };
}

export function authResult(pair: TokenPair, session: SessionRecord, user: UserRecord) {
  return {
    tokenType: 'Bearer' as const,
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresIn: pair.access.exp - pair.access.iat,
    refreshExpiresIn: pair.refresh.exp - pair.refresh.iat,
    session: sessionView(session, session.id),
    user: toProfile(user),
  };
}

/** The current pair was issued by a refresh and neither of its tokens has been used yet. */
export function newPairUnused(session: Pick<SessionRecord, 'previousAccess'>): boolean {
  return Boolean(session.previousAccess);
}

// The first use of a new pair's access token: the previous access token is revoked (the session no longer names it)
// and the previous refresh token loses its lost-answer allowance. Once per pair; a pair already moved on (a later
// refresh) is left alone.
async function markPairUsed(sessionId: string, accessJti: string): Promise<void> {
  await inTransaction(async (tx) => {
    const session = await authRepo.txGetSession(tx, sessionId);
    if (!session || !session.previousAccess || session.access.jti !== accessJti) return;
    authRepo.txSetSession(tx, { ...session, previousAccess: null });
  });
}

/**
 * The access tokens a session honours are the ones it names: its current pair's, and the pair before it while the
 * new one is unused (`previousAccess`). Every other token of the session was revoked when a rotation, a retirement or
 * the new pair's first use replaced it in the session document.
 */
export function honoursAccessToken(session: Pick<SessionRecord, 'access' | 'previousAccess'>, tokenId: string): boolean {
  return session.access?.jti === tokenId || session.previousAccess?.jti === tokenId;
}

export function isLive(session: SessionRecord, now: number): boolean {
  return session.revokedAt === null && session.refresh.exp * 1000 > now;
}

// A password reset sets `sessionsValidAfter` in the same transaction as the new hash: every older
// session dies with that one write, however many there are (their documents are marked afterwards).
export function survivesAccount(session: Pick<SessionRecord, 'createdAt'>, user: Pick<UserRecord, 'sessionsValidAfter'>): boolean {
  return session.createdAt >= (user.sessionsValidAfter ?? 0);
}

const authErrorCode = (err: unknown) => (err as { code?: string }).code ?? (err as { errorInfo?: { code?: string } }).errorInfo?.code;
const ignoreMissingFirebaseUser = (err: unknown) => {
  // No Firebase user yet: the account never signed in to Firebase (no custom token was used).
  if (authErrorCode(err) !== 'auth/user-not-found') throw err;
};

/** Signs the account's Firebase clients out: their refresh tokens stop working (listeners end within the ID token's hour, or at once through the rules' session check). */
export async function revokeFirebaseSignIns(userId: string): Promise<void> {
  await authAdmin().revokeRefreshTokens(userId).catch(ignoreMissingFirebaseUser);
}

export async function setFirebaseUserDisabled(userId: string, disabled: boolean): Promise<void> {
  await authAdmin().updateUser(userId, { disabled }).catch(ignoreMissingFirebaseUser);
  if (disabled) await revokeFirebaseSignIns(userId);
}

// REFRESH_LOST_ANSWER_SEC's default: an access token's default life.
const DEFAULT_LOST_ANSWER_SEC = 15 * 60;

export type SessionService = ReturnType<typeof createSessionService>;

// Called after a sign-in from a device the account has not used before (not on its first sign-in).
export type NewDeviceHook = (user: UserRecord, session: SessionRecord) => Promise<void>;

export function createSessionService(deps: { signer: TokenSigner; now: () => number; onNewDevice?: NewDeviceHook; lostAnswerSec?: number }) {
  const { signer, now } = deps;
  const lostAnswerMs = (deps.lostAnswerSec ?? DEFAULT_LOST_ANSWER_SEC) * 1000;

  return {
    // Each successful login creates a session: one refresh-token family.
    async start(user: UserRecord, method: LoginMethod, client: ClientInfo) {
      const t = now();
      const id = authRepo.newSessionId();
      const pair = signer.newPair(user.id, id, user.roles, t);
      const session: SessionRecord = {
        id,
        userId: user.id,
        method,
        surface: client.surface,
        deviceName: client.deviceName,
        userAgent: client.userAgent,
        ip: client.ip,
        createdAt: t,
        lastUsedAt: t,
        lastIp: client.ip,
        revokedAt: null,
        revokeReason: null,
        access: pair.access,
        refresh: { ...pair.refresh, previousJti: null, rotatedAt: null },
        previousAccess: null,
      };
      const history = deps.onNewDevice ? await authRepo.deviceHistory(user.id, client) : { any: false, known: true };
      await authRepo.createSession(session);
      if (deps.onNewDevice && history.any && !history.known) {
        // An alert must never fail the sign-in it reports.
        await deps.onNewDevice(user, session).catch((err: Error) => logger.error('new-device alert failed', { userId: user.id, error: err.message }));
      }
      return authResult(pair, session, user);
    },

    // Rotation on every use. A refresh whose answer never reached the client must not cost the session: until the
    // new pair is first used (its access token presented or its refresh token used), and for at most
    // REFRESH_LOST_ANSWER_SEC after the rotation, the previous access token keeps working and a retry of the
    // previous refresh token is honoured. Within the short grace of a racing retry it gets the same pair; later it
    // gets a FRESH pair and the unused one is retired, so two holders of one token (a thief who refreshed first)
    // cannot share the session unseen: the retired token's next use revokes it. Any other older token, or a retry
    // past the allowance, revokes the whole family.
    async refresh(refreshToken: string, client: ClientInfo) {
      const claims = signer.verifyRefresh(refreshToken);
      const t = now();
      const outcome = await inTransaction(async (tx) => {
        const session = await authRepo.txGetSession(tx, claims.sessionId);
        const user = await accounts.get(claims.userId, tx);
        if (!session || session.userId !== claims.userId || !isLive(session, t)) return { kind: 'invalid' as const };
        if (!user || user.disabled || user.status !== 'ACTIVE' || !survivesAccount(session, user)) return { kind: 'invalid' as const };
        if (claims.jti === session.refresh.jti) {
          const pair = signer.newPair(user.id, session.id, user.roles, t);
          // The client holds the pair it refreshed with, so the one before it is spent (no longer named by the
          // session); the pair it refreshed with stays valid until the new one is used (its answer may be lost).
          const next: SessionRecord = {
            ...session,
            lastUsedAt: t,
            lastIp: client.ip,
            access: pair.access,
            refresh: { ...pair.refresh, previousJti: session.refresh.jti, rotatedAt: t, retryUntil: t + lostAnswerMs, retiredJti: null },
            previousAccess: { jti: session.access.jti, exp: session.access.exp },
          };
          authRepo.txSetSession(tx, next);
          return { kind: 'ok' as const, pair, session: next, user };
        }
        const rotatedAt = session.refresh.rotatedAt;
        const ofParent = claims.jti === session.refresh.previousJti && rotatedAt !== null;
        if (ofParent && t - rotatedAt <= AUTH_LIMITS.refreshGraceSec * 1000) {
          const pair = signer.resign(user.id, session.id, session.access, session.refresh);
          return { kind: 'ok' as const, pair, session, user };
        }
        const retryUntil = session.refresh.retryUntil ?? (rotatedAt ?? 0) + lostAnswerMs;
        if (ofParent && newPairUnused(session) && t < retryUntil) {
          // The unused pair is retired: its access token is no longer named by the session.
          const pair = signer.newPair(user.id, session.id, user.roles, t);
          const next: SessionRecord = {
            ...session,
            lastUsedAt: t,
            lastIp: client.ip,
            access: pair.access,
            refresh: { ...pair.refresh, previousJti: session.refresh.previousJti, rotatedAt: t, retryUntil, retiredJti: session.refresh.jti },
          };
          authRepo.txSetSession(tx, next);
          return { kind: 'ok' as const, pair, session: next, user };
        }
        const reason =
          claims.jti === session.refresh.retiredJti
            ? 'refresh_token_retired'
            : ofParent && newPairUnused(session)
              ? 'refresh_retry_expired'
              : 'refresh_token_reuse';
        authRepo.txSetSession(tx, { ...session, revokedAt: t, revokeReason: reason });
        return { kind: 'reuse' as const, sessionId: session.id, userId: session.userId, reason };
      });
      if (outcome.kind === 'reuse') {
        logger.warn('refresh token reuse: session revoked', { sessionId: outcome.sessionId, userId: outcome.userId, reason: outcome.reason });
        // As any sign-out: the session's devices stop receiving push, and its Firebase clients are signed out.
        await Promise.all([removeSessionDevices([outcome.sessionId]), revokeFirebaseSignIns(outcome.userId)]);
        throw new UnauthorizedError('Refresh token was already used; the session has been revoked').withCode('REFRESH_TOKEN_REUSED');
      }
      if (outcome.kind === 'invalid') throw new UnauthorizedError('Invalid refresh token').withCode('TOKEN_INVALID');
      return authResult(outcome.pair, outcome.session, outcome.user);
    },

    list: (userId: string, currentSessionId: string) => liveSessionsOf(userId, now(), currentSessionId),
    revoke: (userId: string, sessionId: string, reason: string) => revokeUserSession(userId, sessionId, reason, now()),
    /** The caller's own session signed out: 0 when a racing sign-out ended it first. */
    signOut: (userId: string, sessionId: string) => endSession(userId, sessionId, 'logout', now()),

    revokeAll: (userId: string, reason: string, keepSessionId?: string) => revokeUserSessions(userId, reason, now(), keepSessionId),
  };
}

// Signature, type and expiry (jwtVerify), then on every request: the session is live and honours the token id, the
// account is active; roles come from the account as it is now.
export function createSessionAwareVerifier(jwtVerify: AccessTokenVerifier, now: () => number = Date.now): AccessTokenVerifier {
  return async (token, beside) => {
    const claims = await jwtVerify(token);
    // The session read and the caller's `beside` (a per-user rate limit) side by side: one round trip, not two.
    const [state, besideOutcome] = await Promise.all([
      authRepo.requestState(claims.userId, claims.sessionId),
      beside ? settled(beside({ userId: claims.userId })) : null,
    ]);
    const user = state.user as Omit<UserRecord, 'id'> | undefined;
    const t = now();
    if (!state.session || state.session.userId !== claims.userId || !isLive(state.session, t) || !honoursAccessToken(state.session, claims.tokenId)) {
      throw new UnauthorizedError('Access token revoked').withCode('TOKEN_REVOKED');
    }
    if (!user || user.disabled || user.status !== 'ACTIVE') throw new UnauthorizedError('Account is disabled').withCode('TOKEN_REVOKED');
    if (!survivesAccount(state.session, user)) throw new UnauthorizedError('Access token revoked').withCode('TOKEN_REVOKED');
    if (newPairUnused(state.session) && state.session.access.jti === claims.tokenId) {
      // A failure leaves the pair marked unused: the next request marks it.
      await markPairUsed(claims.sessionId, claims.tokenId).catch((err: Error) => logger.warn('marking a new token pair used failed', { error: err.message }));
    }
    if (t - state.session.lastUsedAt > AUTH_LIMITS.sessionTouchEverySec * 1000) {
      await authRepo.touchSession(claims.sessionId, t).catch((err: Error) => logger.warn('session touch failed', { error: err.message }));
    }
    if (besideOutcome && 'err' in besideOutcome) throw besideOutcome.err;
    const auth: AuthContext = { ...claims, roles: [...user.roles], permissions: user.permissions ? [...user.permissions] : undefined };
    return auth;
  };
}

/** An account's live sessions, the most recently used first (`currentSessionId`'s marked `current`). */
export async function liveSessionsOf(userId: string, now: number, currentSessionId?: string) {
  const sessions = (await authRepo.sessionsOf(userId)).filter((s) => isLive(s, now));
  sessions.sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  return sessions.map((s) => sessionView(s, currentSessionId));
}

/**
 * Ends one live session of the account (its devices stop receiving push): 1, or 0 when it is not the account's or not
 * live. Read and ended in one transaction, so of racing calls one ends it and the others change nothing.
 */
async function endSession(userId: string, sessionId: string, reason: string, now: number): Promise<0 | 1> {
  const outcome = await inTransaction(async (tx) => {
    const session = await authRepo.txGetSession(tx, sessionId);
    if (!session || session.userId !== userId) return 'not-theirs' as const;
    if (!isLive(session, now)) return 'ended-before' as const;
    authRepo.txRevokeSession(tx, sessionId, reason, now);
    return 'ended' as const;
  });
  // Its devices go whoever ended it (again: the call that did may have died before removing them).
  if (outcome !== 'not-theirs') await removeSessionDevices([sessionId]);
  return outcome === 'ended' ? 1 : 0;
}

/** Ends one live session of the account; another account's session, or one ended already, is a 404. */
export async function revokeUserSession(userId: string, sessionId: string, reason: string, now: number): Promise<void> {
  if (!(await endSession(userId, sessionId, reason, now))) throw new NotFoundError('Session not found');
}

// Signs a user out of every live session (but `keepSessionId`); used by logout, password reset and admin
// locks. Their Firebase clients are signed out too (the kept session's app mints a new custom token).
export async function revokeUserSessions(userId: string, reason: string, now: number, keepSessionId?: string): Promise<number> {
  const live = (await authRepo.sessionsOf(userId)).filter((s) => isLive(s, now) && s.id !== keepSessionId).map((s) => s.id);
  // Only those this call ended count (a racing sign-out may have ended some).
  const ended = await authRepo.revokeSessions(live, reason, now);
  // Signed-out devices stop receiving push (all of them again: a racing call may have died before its removal).
  await removeSessionDevices(live);
  await revokeFirebaseSignIns(userId);
  return ended;
}
