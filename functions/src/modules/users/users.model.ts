import { iso } from '../../platform/kits/time/time';
import type { Hat, PermissionGrant, Role } from '../../platform/core/auth/roles';
import { prefixesOf } from '../../platform/kits/text/text';
import { HATS, ROLES } from '../../platform/core/auth/roles';
import { hatUnlocked } from '../../platform/core/auth/guard';
import { defaultLocale, isLocale, type Locale } from '../../platform/kits/i18n';

// Firestore layout of accounts: `users/{id}` plus unique indexes `user_emails/{email}` and `user_phones/{e164}`,
// and `audit_log/{eventId}` (users.triggers).
export const USERS = 'users';
export const USER_EMAILS = 'user_emails';
export const USER_PHONES = 'user_phones';
export const AUDIT_LOG = 'audit_log';

export type AccountStatus = 'PENDING' | 'ACTIVE';
export type AuthProvider = 'password' | 'google';

// The stored account (collection `users`). Times are epoch milliseconds.
export interface UserRecord {
  id: string;
  /** Unique; null only for phone-only accounts an administrator created. */
  email: string | null;
  emailVerified: boolean;
  name: string;
  /** The language of texts for this person (push, inbox, mail, SMS); absent: DEFAULT_LOCALE (see localeOf). */
  locale?: Locale;
  phone: string | null;
  phoneVerified: boolean;
  passwordHash: string | null;
  roles: Role[];
  /** Stored copy of unlockedHats(roles), for queries; written by usersRepo. */
  hats?: Hat[];
  /** ADMIN accounts: see holdsPermission (`['*']` all, `[]` none, absent all). */
  permissions?: PermissionGrant[];
  status: AccountStatus;
  disabled: boolean;
  disabledAt?: number | null;
  /** Sessions created before this moment (epoch ms) are dead: set by a password reset with the new hash. */
  sessionsValidAfter?: number;
  twoFactor: { enabled: boolean; method: 'EMAIL' | null; enabledAt: number | null };
  providers: AuthProvider[];
  createdAt: number;
  updatedAt: number;
  /** Who made the last administrative change (an account id, or `system:<source>`): the audit trail's "who". */
  updatedBy?: string;
}

// Which app each role opens. DRIVER is exclusive: a driver does not book as a consumer.
export function hatsFor(roles: readonly Role[]): Record<Hat, boolean> {
  return { CON: hatUnlocked(roles, 'CON'), PAR: hatUnlocked(roles, 'PAR'), DRV: hatUnlocked(roles, 'DRV'), ADM: hatUnlocked(roles, 'ADM') };
}

export function unlockedHats(roles: readonly Role[]): Hat[] {
  const hats = hatsFor(roles);
  return HATS.filter((hat) => hats[hat]);
}

/** The account's language: its own choice, else the configured default (accounts from before locales, or never asked). */
export function localeOf(user: Pick<UserRecord, 'locale'> | undefined): Locale {
  return isLocale(user?.locale) ? user.locale : defaultLocale();
}

// The profile every client sees: never the password hash.
export function toProfile(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    name: user.name,
    locale: localeOf(user),
    phone: user.phone,
    phoneVerified: user.phoneVerified,
    roles: user.roles,
    hats: unlockedHats(user.roles),
    permissions: user.permissions ?? ['*'],
    status: user.status,
    disabled: user.disabled,
    twoFactorEnabled: user.twoFactor.enabled,
    providers: user.providers,
    hasPassword: user.passwordHash !== null,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

export function newUserRecord(fields: {
  id: string;
  email: string | null;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
  provider: AuthProvider | null;
  now: number;
  roles?: Role[];
  phone?: string | null;
  status?: AccountStatus;
  /** The person's language (registration: Accept-Language); absent: the account follows DEFAULT_LOCALE. */
  locale?: Locale;
}): UserRecord {
  return {
    id: fields.id,
    email: fields.email,
    emailVerified: fields.emailVerified,
    name: fields.name,
    ...(fields.locale ? { locale: fields.locale } : {}),
    phone: fields.phone ?? null,
    phoneVerified: Boolean(fields.phone),
    passwordHash: fields.passwordHash,
    // Registration always yields USER; other roles come from approved applications or an administrator.
    roles: fields.roles ?? ['USER'],
    // A new ADMIN holds every permission until narrowed; an administrator grants only what it holds.
    permissions: (fields.roles ?? []).includes('ADMIN') ? ['*'] : [],
    status: fields.status ?? (fields.emailVerified ? 'ACTIVE' : 'PENDING'),
    disabled: false,
    disabledAt: null,
    twoFactor: { enabled: false, method: null, enabledAt: null },
    providers: fields.provider ? [fields.provider] : [],
    createdAt: fields.now,
    updatedAt: fields.now,
  };
}

// Roles always keep USER and never repeat; the order follows ROLES.
export function normalizeRoles(roles: readonly Role[]): Role[] {
  const wanted = new Set<Role>(['USER', ...roles]);
  return ROLES.filter((role) => wanted.has(role));
}

// Stored beside the account for the admin list: hats to filter on and prefixes to search
// (email, each name word, phone digits), lower-case, 2 to 20 characters.
export function queryFields(user: Pick<UserRecord, 'roles' | 'email' | 'name' | 'phone'>) {
  const prefixes = new Set<string>();
  // By code points: a prefix cut inside a surrogate pair (an emoji) is not valid UTF-8.
  const addPrefixes = (word: string) => {
    for (const prefix of prefixesOf(word.toLowerCase(), 20)) prefixes.add(prefix);
  };
  if (user.email) {
    addPrefixes(user.email);
    addPrefixes(user.email.split('@')[0]);
  }
  for (const word of user.name.split(/\s+/).filter(Boolean)) addPrefixes(word);
  if (user.phone) {
    addPrefixes(user.phone);
    addPrefixes(user.phone.replace(/^\+/, ''));
  }
  return { hats: unlockedHats(user.roles), searchPrefixes: [...prefixes] };
}
