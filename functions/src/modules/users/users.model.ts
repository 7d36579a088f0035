import type { Hat, Role } from '../../platform/auth/roles';
import { HATS } from '../../platform/auth/roles';

export type AccountStatus = 'PENDING' | 'ACTIVE';
export type AuthProvider = 'password' | 'google';

// The stored account (collection `users`). Times are epoch milliseconds.
export interface UserRecord {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  phone: string | null;
  phoneVerified: boolean;
  passwordHash: string | null;
  roles: Role[];
  status: AccountStatus;
  disabled: boolean;
  twoFactor: { enabled: boolean; method: 'EMAIL' | null; enabledAt: number | null };
  providers: AuthProvider[];
  createdAt: number;
  updatedAt: number;
}

// Which app each role opens. DRIVER is exclusive: a driver does not book as a consumer.
export function hatsFor(roles: readonly Role[]): Record<Hat, boolean> {
  const has = (role: Role) => roles.includes(role);
  return {
    CON: has('USER') && !has('DRIVER'),
    PAR: has('PARTNER_OWNER') || has('PARTNER_STAFF') || has('LANDLORD') || has('DOCTOR'),
    DRV: has('DRIVER'),
    ADM: has('ADMIN'),
  };
}

export function unlockedHats(roles: readonly Role[]): Hat[] {
  const hats = hatsFor(roles);
  return HATS.filter((hat) => hats[hat]);
}

// The profile every client sees: never the password hash.
export function toProfile(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    name: user.name,
    phone: user.phone,
    phoneVerified: user.phoneVerified,
    roles: user.roles,
    hats: unlockedHats(user.roles),
    status: user.status,
    twoFactorEnabled: user.twoFactor.enabled,
    providers: user.providers,
    hasPassword: user.passwordHash !== null,
    createdAt: new Date(user.createdAt).toISOString(),
    updatedAt: new Date(user.updatedAt).toISOString(),
  };
}

export function newUserRecord(fields: {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
  provider: AuthProvider;
  now: number;
}): UserRecord {
  return {
    id: fields.id,
    email: fields.email,
    emailVerified: fields.emailVerified,
    name: fields.name,
    phone: null,
    phoneVerified: false,
    passwordHash: fields.passwordHash,
    // Registration always yields USER; other roles come from approved applications.
    roles: ['USER'],
    status: fields.emailVerified ? 'ACTIVE' : 'PENDING',
    disabled: false,
    twoFactor: { enabled: false, method: null, enabledAt: null },
    providers: [fields.provider],
    createdAt: fields.now,
    updatedAt: fields.now,
  };
}
