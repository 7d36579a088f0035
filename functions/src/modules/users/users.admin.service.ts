import { inTransaction } from '../../platform/firebase/firebase';
import { HATS, ROLES, type Hat, type Role } from '../../platform/auth/roles';
import type { AuthContext } from '../../platform/auth/access-token';
import { coversPermissions } from '../../platform/auth/roles';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors/app-error';
import { revokeUserSessions, setFirebaseUserDisabled } from '../auth/session.service';
import { driverRepo } from '../driver/driver.repo';
import { DEFAULT_CAPABILITIES } from '../driver/driver.model';
import { applicationsRepo } from '../kyc/applications.repo';
import { hatsFor, newUserRecord, normalizeRoles, toProfile, type UserRecord } from './users.model';
import { changedFields, usersAdminRepo, usersRepo, type UserListFilter } from './users.repo';

// Only an administrator holding every permission makes another administrator.
function assertGrantsAdmin(actor: AuthContext): void {
  if (!coversPermissions(actor.permissions, ['*'])) throw new ForbiddenError('Only an administrator with every permission can grant ADMIN').withCode('PERMISSION_REQUIRED');
}

const DEFAULT_ROLES: Record<Hat, Role[]> = {
  CON: ['USER'],
  PAR: ['USER', 'PARTNER_OWNER'],
  DRV: ['USER', 'DRIVER'],
  ADM: ['USER', 'ADMIN'],
};

export function adminView(user: UserRecord) {
  return { ...toProfile(user), disabledAt: user.disabledAt ? new Date(user.disabledAt).toISOString() : null };
}

// Refuses a change that would leave no ADMIN able to sign in.
async function assertNotLastAdmin(tx: FirebaseFirestore.Transaction, target: UserRecord, after: { roles: Role[]; disabled: boolean }) {
  const wasActiveAdmin = target.roles.includes('ADMIN') && !target.disabled;
  const staysActiveAdmin = after.roles.includes('ADMIN') && !after.disabled;
  if (!wasActiveAdmin || staysActiveAdmin) return;
  const others = (await usersAdminRepo.txActiveAdminIds(tx)).filter((id) => id !== target.id);
  if (others.length === 0) throw new ConflictError('This is the last active ADMIN: promote another administrator first').withCode('LAST_ADMIN');
}

export function createUsersAdminService(now: () => number = Date.now) {
  // One transaction per change: reads first (account, phone owner, remaining admins, driver profile), then writes.
  type Change = { next: UserRecord; writes?: (tx: FirebaseFirestore.Transaction) => void };
  async function change(id: string, actorId: string, apply: (user: UserRecord, tx: FirebaseFirestore.Transaction) => Promise<Change> | Change) {
    return inTransaction(async (tx) => {
      const user = await usersRepo.txGet(tx, id);
      if (!user) throw new NotFoundError('User not found');
      const { next, writes } = await apply(user, tx);
      await assertNotLastAdmin(tx, user, next);
      const becomesDriver = next.roles.includes('DRIVER') && !(await driverRepo.txHasProfile(tx, id));
      // `updatedBy`: who made the change, for the audit trail of roles and locks (users.triggers).
      const after = { ...next, updatedAt: now(), updatedBy: actorId };
      writes?.(tx);
      if (becomesDriver) driverRepo.txCreateProfile(tx, id, DEFAULT_CAPABILITIES, now());
      // Only what changed is written.
      usersRepo.txPatch(tx, user, changedFields(user, after));
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
        usersAdminRepo.count(),
        usersAdminRepo.count({ field: 'disabled', op: '==', value: true }),
        Promise.all(ROLES.map((role) => usersAdminRepo.count({ field: 'roles', op: 'array-contains', value: role }))),
        Promise.all(HATS.map((hat) => usersAdminRepo.count({ field: 'hats', op: 'array-contains', value: hat }))),
        applicationsRepo.countOpen('DRIVER'),
        applicationsRepo.countOpen('PARTNER'),
      ]);
      return {
        total,
        disabled,
        byRole: Object.fromEntries(ROLES.map((role, i) => [role, roleCounts[i]])) as Record<Role, number>,
        byHat: Object.fromEntries(HATS.map((hat, i) => [hat, hatCounts[i]])) as Record<Hat, number>,
        pendingApplications: { DRIVER: drivers, PARTNER: partners },
      };
    },

    async list(filter: UserListFilter) {
      const page = await usersAdminRepo.list(filter);
      return { users: page.users.map(adminView), nextCursor: page.nextCursor };
    },

    async get(id: string) {
      const user = await usersRepo.get(id);
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
        id: usersRepo.newId(),
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
        if (email && (await usersRepo.txFindByEmail(tx, email))) throw new ConflictError('An account with this email exists').withCode('ACCOUNT_EXISTS');
        if (body.phone && (await usersRepo.txPhoneOwner(tx, body.phone))) throw new ConflictError('An account with this phone exists').withCode('ACCOUNT_EXISTS');
        usersRepo.txCreate(tx, user);
        if (roles.includes('DRIVER')) driverRepo.txCreateProfile(tx, user.id, DEFAULT_CAPABILITIES, t);
      });
      return adminView(user);
    },

    async update(actor: AuthContext, id: string, patch: { fullName?: string; phone?: string | null; permissions?: UserRecord['permissions']; disabled?: boolean }) {
      // An administrator grants only permissions it holds: it can narrow itself, never widen itself (or a proxy).
      if (patch.permissions !== undefined && !coversPermissions(actor.permissions, patch.permissions)) {
        throw new ForbiddenError('You can grant only permissions you hold yourself').withCode('PERMISSION_REQUIRED');
      }
      const { before, after } = await change(id, actor.userId, async (user, tx) => {
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
            const owner = await usersRepo.txPhoneOwner(tx, phone);
            if (owner && owner !== id) throw new ConflictError('This phone number belongs to another account').withCode('PHONE_TAKEN');
            writes = (w) => usersRepo.txClaimPhone(w, phone, id, user.phone, now());
          } else if (user.phone) {
            const previous = user.phone;
            writes = (w) => usersRepo.txReleasePhone(w, previous);
          }
          next.phone = phone;
          next.phoneVerified = phone !== null;
        }
        return { next, writes };
      });
      await signOutIfLocked(before, after);
      return adminView(after);
    },

    async setRoles(actor: AuthContext, id: string, roles: Role[]) {
      const { after } = await change(id, actor.userId, (user) => {
        const next = { ...user, roles: normalizeRoles(roles) };
        if (next.roles.includes('ADMIN') && !user.roles.includes('ADMIN')) {
          assertGrantsAdmin(actor);
          next.permissions = ['*'];
        }
        return { next };
      });
      return adminView(after);
    },

    // Locks sign-in; the record stays (and stays listed).
    async lock(actor: AuthContext, id: string) {
      const { before, after } = await change(id, actor.userId, (user) => ({ next: { ...user, disabled: true, disabledAt: user.disabledAt ?? now() } }));
      const sessionsRevoked = await signOutIfLocked(before, after);
      return { user: adminView(after), sessionsRevoked };
    },
  };
}
