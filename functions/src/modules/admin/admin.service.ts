import { iso, isoOrNull } from '../../platform/kits/time/time';
import { logger } from '../../platform/core/logging/logger';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { HATS, ROLES, type Hat, type Role } from '../../platform/core/auth/roles';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { coversPermissions } from '../../platform/core/auth/roles';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { liveSessionsOf, revokeUserSession, revokeUserSessions, setFirebaseUserDisabled } from '../auth';
import { driverProfiles } from '../driver';
import { applications } from '../kyc';
import { accountDirectory, accounts, changedFields, hatsFor, newUserRecord, normalizeRoles, toProfile, type UserListFilter, type UserRecord } from '../users';

// Only an administrator holding every permission makes another administrator.
function assertGrantsAdmin(actor: AuthContext): void {
  if (!coversPermissions(actor.permissions, ['*']))
    throw new ForbiddenError('Only an administrator with every permission can grant ADMIN').withCode('PERMISSION_REQUIRED');
}

// An administrator changes another administrator only within its own permissions (never a wider one), and an
// ADMIN account's sign-in (phone, email) or lock only when it holds every permission or is that account: else a
// users.manage admin could take over a wider admin's sign-in or lock it out.
function assertMayChange(actor: AuthContext, target: UserRecord, touchesSignIn: boolean): void {
  if (!target.roles.includes('ADMIN') || target.id === actor.userId) return;
  if (!coversPermissions(actor.permissions, target.permissions))
    throw new ForbiddenError('This administrator holds permissions you do not').withCode('PERMISSION_REQUIRED');
  if (touchesSignIn && !coversPermissions(actor.permissions, ['*']))
    throw new ForbiddenError('Only an administrator with every permission changes another administrator’s phone, email or lock').withCode(
      'PERMISSION_REQUIRED',
    );
}

const DEFAULT_ROLES: Record<Hat, Role[]> = {
  CON: ['USER'],
  PAR: ['USER', 'PARTNER_OWNER'],
  DRV: ['USER', 'DRIVER'],
  ADM: ['USER', 'ADMIN'],
};

export function adminView(user: UserRecord) {
  return { ...toProfile(user), disabledAt: isoOrNull(user.disabledAt) };
}

// Refuses a change that would leave no ADMIN able to sign in.
async function assertNotLastAdmin(tx: FirebaseFirestore.Transaction, target: UserRecord, after: { roles: Role[]; disabled: boolean }) {
  const wasActiveAdmin = target.roles.includes('ADMIN') && !target.disabled;
  const staysActiveAdmin = after.roles.includes('ADMIN') && !after.disabled;
  if (!wasActiveAdmin || staysActiveAdmin) return;
  const others = (await accountDirectory.txActiveAdminIds(tx)).filter((id) => id !== target.id);
  if (others.length === 0) throw new ConflictError('This is the last active ADMIN: promote another administrator first').withCode('LAST_ADMIN');
}

export function createAdminService(now: () => number = Date.now) {
  // One transaction per change: reads first (account, phone owner, remaining admins, driver profile), then writes.
  type Change = { next: UserRecord; writes?: (tx: FirebaseFirestore.Transaction) => void };
  async function change(
    id: string,
    actor: AuthContext,
    apply: (user: UserRecord, tx: FirebaseFirestore.Transaction) => Promise<Change> | Change,
    expectedUpdatedAt?: string,
  ) {
    const actorId = actor.userId;
    return inTransaction(async (tx) => {
      const user = await accounts.get(id, tx);
      if (!user) throw new NotFoundError('User not found');
      // Before the change's own reads and refusals (a phone's owner is nobody else's business).
      assertMayChange(actor, user, false);
      // Checked in the transaction: a whole list written from an older read never overwrites a change made since.
      if (expectedUpdatedAt !== undefined && Date.parse(expectedUpdatedAt) !== user.updatedAt)
        throw new ConflictError('The account changed since you read it', { updatedAt: iso(user.updatedAt) }).withCode('USER_CHANGED');
      const { next, writes } = await apply(user, tx);
      assertMayChange(actor, user, next.phone !== user.phone || next.email !== user.email || next.disabled !== user.disabled);
      await assertNotLastAdmin(tx, user, next);
      // `updatedBy`: who made the change, for the audit trail of roles and locks (the users module's audit trigger).
      const after = { ...next, updatedAt: now(), updatedBy: actorId };
      // The last read (whether a driver profile exists) and the first write: a new DRIVER gets its profile.
      if (next.roles.includes('DRIVER')) await driverProfiles.txEnsure(tx, id, after.updatedAt);
      writes?.(tx);
      // Only what changed is written.
      accounts.txPatch(tx, user, changedFields(user, after));
      return { before: user, after };
    });
  }

  // A lock signs every session out (API and Firebase listeners) and disables the Firebase user; an unlock
  // enables it again (sessions stay revoked: the user signs in anew).
  async function signOutIfLocked(before: UserRecord, after: UserRecord): Promise<number> {
    if (before.disabled && !after.disabled) await setFirebaseUserDisabled(after.id, false);
    if (!after.disabled || before.disabled) return 0;
    await setFirebaseUserDisabled(after.id, true);
    return revokeUserSessions(after.id, 'locked_by_admin', now());
  }

  return {
    async overview() {
      const [total, disabled, roleCounts, hatCounts, drivers, partners] = await Promise.all([
        accountDirectory.count(),
        accountDirectory.count({ field: 'disabled', op: '==', value: true }),
        Promise.all(ROLES.map((role) => accountDirectory.count({ field: 'roles', op: 'array-contains', value: role }))),
        Promise.all(HATS.map((hat) => accountDirectory.count({ field: 'hats', op: 'array-contains', value: hat }))),
        applications.countOpen('DRIVER'),
        applications.countOpen('PARTNER'),
      ]);
      return {
        total,
        disabled,
        byRole: Object.fromEntries(ROLES.map((role, i) => [role, roleCounts[i]])) as Record<Role, number>,
        byHat: Object.fromEntries(HATS.map((hat, i) => [hat, hatCounts[i]])) as Record<Hat, number>,
        pendingApplications: { DRIVER: drivers, PARTNER: partners },
      };
    },

    async list(actor: AuthContext, filter: UserListFilter) {
      const page = await accountDirectory.list(filter, actor.userId);
      return { users: page.users.map(adminView), nextCursor: page.nextCursor };
    },

    async get(id: string) {
      const user = await accounts.get(id);
      if (!user) throw new NotFoundError('User not found');
      return adminView(user);
    },

    async create(actor: AuthContext, body: { hat: Hat; email?: string; phone?: string; fullName?: string; roles?: Role[] }) {
      const roles = normalizeRoles(body.roles ?? DEFAULT_ROLES[body.hat]);
      if (roles.includes('ADMIN')) assertGrantsAdmin(actor);
      if (!hatsFor(roles)[body.hat]) throw new BadRequestError(`The roles ${roles.join(', ')} do not unlock the ${body.hat} hat`);
      const email = body.email?.toLowerCase() ?? null;
      const t = now();
      const user = newUserRecord({
        id: accounts.newId(),
        email,
        name: body.fullName ?? email?.split('@')[0] ?? body.phone ?? 'User',
        passwordHash: null,
        emailVerified: false,
        provider: null,
        now: t,
        roles,
        phone: body.phone ?? null,
        status: 'ACTIVE',
      });
      await inTransaction(async (tx) => {
        if (email && (await accounts.findByEmail(email, tx))) throw new ConflictError('An account with this email exists').withCode('ACCOUNT_EXISTS');
        if (body.phone && (await accounts.txPhoneOwner(tx, body.phone)))
          throw new ConflictError('An account with this phone exists').withCode('ACCOUNT_EXISTS');
        if (roles.includes('DRIVER')) await driverProfiles.txEnsure(tx, user.id, t);
        accounts.txCreate(tx, user);
      });
      return adminView(user);
    },

    async update(
      actor: AuthContext,
      id: string,
      patch: { fullName?: string; phone?: string | null; permissions?: UserRecord['permissions']; disabled?: boolean; expectedUpdatedAt?: string },
    ) {
      // An administrator grants only permissions it holds: it can narrow itself, never widen itself (or a proxy).
      if (patch.permissions !== undefined && !coversPermissions(actor.permissions, patch.permissions)) {
        throw new ForbiddenError('You can grant only permissions you hold yourself').withCode('PERMISSION_REQUIRED');
      }
      const { before, after } = await change(
        id,
        actor,
        async (user, tx) => {
          assertMayChange(
            actor,
            user,
            (patch.phone !== undefined && patch.phone !== user.phone) || (patch.disabled !== undefined && patch.disabled !== user.disabled),
          );
          const next = { ...user };
          let writes: Change['writes'];
          if (patch.fullName !== undefined) next.name = patch.fullName;
          if (patch.permissions !== undefined) next.permissions = [...new Set(patch.permissions)];
          if (patch.disabled !== undefined) {
            next.disabled = patch.disabled;
            next.disabledAt = patch.disabled ? (user.disabledAt ?? now()) : null;
          }
          if (patch.phone !== undefined && patch.phone !== user.phone) {
            const phone = patch.phone;
            if (phone) {
              const owner = await accounts.txPhoneOwner(tx, phone);
              if (owner && owner !== id) throw new ConflictError('This phone number belongs to another account').withCode('PHONE_TAKEN');
              writes = (w) => accounts.txClaimPhone(w, phone, id, user.phone, now());
            } else if (user.phone) {
              const previous = user.phone;
              writes = (w) => accounts.txReleasePhone(w, previous);
            }
            next.phone = phone;
            next.phoneVerified = phone !== null;
          }
          return { next, writes };
        },
        patch.expectedUpdatedAt,
      );
      await signOutIfLocked(before, after);
      return adminView(after);
    },

    async setRoles(actor: AuthContext, id: string, roles: Role[], expectedUpdatedAt?: string) {
      const { after } = await change(
        id,
        actor,
        (user) => {
          const next = { ...user, roles: normalizeRoles(roles) };
          if (next.roles.includes('ADMIN') && !user.roles.includes('ADMIN')) {
            assertGrantsAdmin(actor);
            next.permissions = ['*'];
          }
          return { next };
        },
        expectedUpdatedAt,
      );
      return adminView(after);
    },

    // An account's live sessions (devices, sign-in method, addresses): another administrator's only within one's own
    // permissions (the rule of a change to it, applied to this read).
    async sessions(actor: AuthContext, id: string) {
      const user = await accounts.get(id);
      if (!user) throw new NotFoundError('User not found');
      assertMayChange(actor, user, false);
      return { sessions: await liveSessionsOf(id, now(), actor.userId === id ? actor.sessionId : undefined) };
    },

    // Signs one device out, or every device (`sessionId` undefined) without locking the account: another
    // administrator's sessions as its lock (every permission). On one's own account, every device but this one.
    async revokeSessions(actor: AuthContext, id: string, sessionId?: string) {
      const user = await accounts.get(id);
      if (!user) throw new NotFoundError('User not found');
      assertMayChange(actor, user, true);
      const keep = actor.userId === id ? actor.sessionId : undefined;
      let revoked = 1;
      if (sessionId === undefined) revoked = await revokeUserSessions(id, 'revoked_by_admin', now(), keep);
      else await revokeUserSession(id, sessionId, 'revoked_by_admin', now());
      // The sessions keep only a reason: who ended them goes to the log.
      logger.info('sessions revoked by an administrator', { by: actor.userId, userId: id, sessionId: sessionId ?? null, revoked });
      return { revoked };
    },

    // Locks sign-in; the record stays (and stays listed).
    async lock(actor: AuthContext, id: string) {
      const { before, after } = await change(id, actor, (user) => ({ next: { ...user, disabled: true, disabledAt: user.disabledAt ?? now() } }));
      const sessionsRevoked = await signOutIfLocked(before, after);
      return { user: adminView(after), sessionsRevoked };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
