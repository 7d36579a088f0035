import type { Transaction } from 'firebase-admin/firestore';
import { truncateText } from '../../platform/kits/text/text';
import { db, isFailedPrecondition } from '../../platform/core/firebase/firebase';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { collectionRecords } from '../../platform/core/module/triggers';
import { phoneLookupKeys } from '../../platform/core/http/contact';
import { localeOf, queryFields, USER_EMAILS, USER_PHONES, USERS, type UserRecord } from './users.model';
import type { Locale } from '../../platform/kits/i18n';
import type { Hat, Role } from '../../platform/core/auth/roles';

export type UserPatch = Partial<Omit<UserRecord, 'id' | 'createdAt'>>;
// The account fields the stored query fields (hats, search prefixes) derive from.
const QUERY_SOURCES = ['roles', 'name', 'email', 'phone'] as const;

/** The fields of `after` that differ from `before` (both read in the same transaction). */
export function changedFields(before: UserRecord, after: UserRecord): UserPatch {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof UserRecord>) {
    if (key === 'id' || key === 'createdAt') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key] ?? null;
  }
  return patch as UserPatch;
}

const users = () => db().collection(USERS);
// Reads as typed records; writes go through `users()` with the stored query fields beside the record.
const accountRecords = () => typedCollection<UserRecord>(USERS);
/** How a trigger on `users/{userId}` reads the account: as this repo does (platform/core/module/triggers). */
export const accountReader = () => collectionRecords<UserRecord>();
const emailIndex = (email: string) => db().collection(USER_EMAILS).doc(email);
const phoneIndex = (phone: string) => db().collection(USER_PHONES).doc(phone);

function fromDoc(id: string, data: FirebaseFirestore.DocumentData | undefined): UserRecord | undefined {
  return data ? ({ ...(data as Omit<UserRecord, 'id'>), id } as UserRecord) : undefined;
}

const LOCALE_READ_BATCH = 500;
const OPTIMISTIC_ATTEMPTS = 10;
// Retries of racing patches wait a random time below a bound that doubles per attempt (up to the cap).
const RETRY_BASE_MS = 10;
const RETRY_CAP_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The fields a patch writes: its own, plus the stored query fields when roles, name, email or phone change.
function storedFields(current: UserRecord, patch: UserPatch): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...patch };
  if (QUERY_SOURCES.some((key) => key in patch)) Object.assign(fields, queryFields({ ...current, ...patch }));
  return fields;
}

export const usersRepo = {
  newId(): string {
    return users().doc().id;
  },

  userRef(id: string) {
    return users().doc(id);
  },
  /** An account read together with other documents (one getAll). */
  fromSnapshot(snap: FirebaseFirestore.DocumentSnapshot): UserRecord | undefined {
    return fromDoc(snap.id, snap.data());
  },

  /** The account, read in the transaction when one is given. */
  get(id: string, tx?: Transaction): Promise<UserRecord | undefined> {
    return readRecord(accountRecords().doc(id), tx);
  },

  /** The account of an email (through its unique index), read in the transaction when one is given. */
  async findByEmail(email: string, tx?: Transaction): Promise<UserRecord | undefined> {
    const index = tx ? await tx.get(emailIndex(email)) : await emailIndex(email).get();
    const userId = index.get('userId') as string | undefined;
    return userId ? this.get(userId, tx) : undefined;
  },

  /** The language of each account (absent accounts: the default), read in one getAll of that field only. */
  async localesOf(ids: readonly string[]): Promise<Map<string, Locale>> {
    const unique = [...new Set(ids)];
    const locales = new Map<string, Locale>();
    for (let i = 0; i < unique.length; i += LOCALE_READ_BATCH) {
      const snaps = await db().getAll(...unique.slice(i, i + LOCALE_READ_BATCH).map((id) => users().doc(id)), { fieldMask: ['locale'] });
      for (const snap of snaps) locales.set(snap.id, localeOf(snap.data() as Pick<UserRecord, 'locale'> | undefined));
    }
    return locales;
  },

  // A number is looked up under its E.164 key and the trunk-prefixed form older accounts may be stored under.
  async findByPhone(phone: string): Promise<UserRecord | undefined> {
    for (const key of phoneLookupKeys(phone)) {
      const userId = (await phoneIndex(key).get()).get('userId') as string | undefined;
      if (userId) return this.get(userId);
    }
    return undefined;
  },

  async txPhoneOwner(tx: Transaction, phone: string): Promise<string | undefined> {
    const indexes = await Promise.all(phoneLookupKeys(phone).map((key) => tx.get(phoneIndex(key))));
    return indexes.map((index) => index.get('userId') as string | undefined).find(Boolean);
  },

  // Email (and phone) uniqueness rests on create() of the index documents inside the same transaction.
  txCreate(tx: Transaction, user: UserRecord): void {
    const { id, ...data } = user;
    if (user.email) tx.create(emailIndex(user.email), { userId: id, createdAt: user.createdAt });
    if (user.phone) tx.create(phoneIndex(user.phone), { userId: id, createdAt: user.createdAt });
    tx.create(users().doc(id), { ...data, ...queryFields(user) });
  },

  // Writes only the fields a change names (never a whole account read earlier: a stale copy would undo
  // a lock, a role change or a password reset made meanwhile). `current` is the account as read in the
  // same transaction; the stored query fields follow when roles, name, email or phone change.
  txPatch(tx: Transaction, current: UserRecord, patch: UserPatch): void {
    tx.update(users().doc(current.id), storedFields(current, patch));
  },

  /**
   * Reads the account and writes `change(current)` only if the account has not changed since that read (an
   * update-time precondition); otherwise waits a short random time, reads again and recomputes. The same
   * guarantee as a one-document transaction without holding a lock across the round trip, so a burst of updates
   * of one account does not queue on it. After ten lost races (about 2.5 s of backoff) it queues on the
   * document's lock in a transaction; should that time out too, the request fails as CONTENDED (503, retry).
   * Undefined when there is no account.
   */
  async patch(id: string, change: (current: UserRecord) => UserPatch | Promise<UserPatch>): Promise<UserRecord | undefined> {
    for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
      const snap = await accountRecords().doc(id).get();
      const current = snap.data();
      if (!current) return undefined;
      const patch = await change(current);
      if (Object.keys(patch).length === 0) return current;
      try {
        await users().doc(id).update(storedFields(current, patch), { lastUpdateTime: snap.updateTime! });
        return { ...current, ...patch };
      } catch (err) {
        if (!isFailedPrecondition(err)) throw err;
        await sleep(Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** attempt));
      }
    }
    return db().runTransaction(async (tx) => {
      const current = await readRecord(accountRecords().doc(id), tx);
      if (!current) return undefined;
      const patch = await change(current);
      if (Object.keys(patch).length > 0) tx.update(users().doc(id), storedFields(current, patch));
      return { ...current, ...patch };
    });
  },

  txClaimPhone(tx: Transaction, phone: string, userId: string, previousPhone: string | null, now: number): void {
    if (previousPhone && previousPhone !== phone) tx.delete(phoneIndex(previousPhone));
    tx.set(phoneIndex(phone), { userId, createdAt: now });
  },

  txReleasePhone(tx: Transaction, phone: string): void {
    tx.delete(phoneIndex(phone));
  },

  /** Fields that no query field derives from (status, flags, hashes); see txPatch for the others. */
  async update(id: string, patch: Omit<UserPatch, (typeof QUERY_SOURCES)[number]>): Promise<void> {
    await users().doc(id).update(patch);
  },
};

export interface UserListFilter {
  role?: string;
  hat?: string;
  disabled?: boolean;
  search?: string;
  limit: number;
  cursor?: string;
}

// The admin list: newest first, one array filter served by Firestore (search, else role, else hat),
// the rest applied to the page. Composite indexes in firestore.indexes.json.
export const usersAdminRepo = {
  async list(filter: UserListFilter, caller: string): Promise<{ users: UserRecord[]; nextCursor: string | null }> {
    let query: FirebaseFirestore.Query<UserRecord> = accountRecords();
    const inMemory: Array<(u: UserRecord) => boolean> = [];
    if (filter.search) {
      query = query.where('searchPrefixes', 'array-contains', truncateText(filter.search.toLowerCase(), 20));
      if (filter.role) inMemory.push((u) => u.roles.includes(filter.role as never));
      if (filter.hat) inMemory.push((u) => (u.hats ?? []).includes(filter.hat as never));
    } else if (filter.role) {
      query = query.where('roles', 'array-contains', filter.role);
      if (filter.hat) inMemory.push((u) => (u.hats ?? []).includes(filter.hat as never));
    } else if (filter.hat) {
      query = query.where('hats', 'array-contains', filter.hat);
    }
    if (filter.disabled !== undefined) query = query.where('disabled', '==', filter.disabled);
    const list = {
      limit: filter.limit,
      cursor: filter.cursor,
      query: `users-admin:${JSON.stringify([filter.search, filter.role, filter.hat, filter.disabled])}`,
      caller,
    };
    const page = await paginate(query, [{ field: 'createdAt', direction: 'desc' }], list, (d) => d.data());
    return { users: page.items.filter((u) => inMemory.every((keep) => keep(u))), nextCursor: page.nextCursor };
  },

  async count(where?: { field: string; op: FirebaseFirestore.WhereFilterOp; value: unknown }): Promise<number> {
    const query = where ? users().where(where.field, where.op, where.value) : users();
    return (await query.count().get()).data().count;
  },

  // Inside a transaction: the ADMIN accounts that can still sign in.
  async txActiveAdminIds(tx: Transaction): Promise<string[]> {
    const snap = await tx.get(users().where('roles', 'array-contains', 'ADMIN').where('disabled', '==', false));
    return snap.docs.map((d) => d.id);
  },
};

/**
 * One page of the accounts not disabled that hold a hat or a role, ordered by id, after `afterId`: ids, hats and
 * language only (select), not whole accounts. System fan-outs (broadcasts, an SOS to every administrator) page with
 * it: by id, so a page boundary stays put while accounts are added.
 */
export async function activeAccountsPage(
  holding: { hat: Hat } | { role: Role },
  afterId: string | null,
  limit: number,
): Promise<Array<{ id: string; hats: string[]; locale: Locale }>> {
  const [field, value] = 'hat' in holding ? ['hats', holding.hat] : ['roles', holding.role];
  let query = users().where(field, 'array-contains', value).where('disabled', '==', false).orderBy('__name__').select('hats', 'locale').limit(limit);
  if (afterId) query = query.startAfter(afterId);
  return (await query.get()).docs.map((d) => ({
    id: d.id,
    hats: (d.get('hats') as string[] | undefined) ?? [],
    locale: localeOf({ locale: d.get('locale') as Locale | undefined }),
  }));
}
