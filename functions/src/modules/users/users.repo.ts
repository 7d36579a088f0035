import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import { queryFields, type UserRecord } from './users.model';

// Firestore layout of accounts: `users/{id}` plus unique indexes `user_emails/{email}` and `user_phones/{e164}`.
export const USERS = 'users';
export const USER_EMAILS = 'user_emails';
export const USER_PHONES = 'user_phones';

const users = () => db().collection(USERS);
const emailIndex = (email: string) => db().collection(USER_EMAILS).doc(email);
const phoneIndex = (phone: string) => db().collection(USER_PHONES).doc(phone);

function fromDoc(id: string, data: FirebaseFirestore.DocumentData | undefined): UserRecord | undefined {
  return data ? ({ ...(data as Omit<UserRecord, 'id'>), id } as UserRecord) : undefined;
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

  async get(id: string): Promise<UserRecord | undefined> {
    const snap = await users().doc(id).get();
    return fromDoc(snap.id, snap.data());
  },

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const index = await emailIndex(email).get();
    const userId = index.get('userId') as string | undefined;
    return userId ? this.get(userId) : undefined;
  },

  async findByPhone(phone: string): Promise<UserRecord | undefined> {
    const index = await phoneIndex(phone).get();
    const userId = index.get('userId') as string | undefined;
    return userId ? this.get(userId) : undefined;
  },

  async txGet(tx: Transaction, id: string): Promise<UserRecord | undefined> {
    const snap = await tx.get(users().doc(id));
    return fromDoc(snap.id, snap.data());
  },

  async txFindByEmail(tx: Transaction, email: string): Promise<UserRecord | undefined> {
    const index = await tx.get(emailIndex(email));
    const userId = index.get('userId') as string | undefined;
    return userId ? this.txGet(tx, userId) : undefined;
  },

  async txPhoneOwner(tx: Transaction, phone: string): Promise<string | undefined> {
    const index = await tx.get(phoneIndex(phone));
    return index.get('userId') as string | undefined;
  },

  // Email (and phone) uniqueness rests on create() of the index documents inside the same transaction.
  txCreate(tx: Transaction, user: UserRecord): void {
    const { id, ...data } = user;
    if (user.email) tx.create(emailIndex(user.email), { userId: id, createdAt: user.createdAt });
    if (user.phone) tx.create(phoneIndex(user.phone), { userId: id, createdAt: user.createdAt });
    tx.create(users().doc(id), { ...data, ...queryFields(user) });
  },

  // Writes the whole account with its query fields: use it whenever roles, name, email or phone change.
  txSave(tx: Transaction, user: UserRecord): void {
    const { id, ...data } = user;
    tx.set(users().doc(id), { ...data, ...queryFields(user) });
  },

  async save(user: UserRecord): Promise<void> {
    const { id, ...data } = user;
    await users().doc(id).set({ ...data, ...queryFields(user) });
  },

  txUpdate(tx: Transaction, id: string, patch: Partial<Omit<UserRecord, 'id'>>): void {
    tx.update(users().doc(id), patch);
  },

  txClaimPhone(tx: Transaction, phone: string, userId: string, previousPhone: string | null, now: number): void {
    if (previousPhone && previousPhone !== phone) tx.delete(phoneIndex(previousPhone));
    tx.set(phoneIndex(phone), { userId, createdAt: now });
  },

  txReleasePhone(tx: Transaction, phone: string): void {
    tx.delete(phoneIndex(phone));
  },

  async update(id: string, patch: Partial<Omit<UserRecord, 'id'>>): Promise<void> {
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
  async list(filter: UserListFilter): Promise<{ users: UserRecord[]; nextCursor: string | null }> {
    let query: FirebaseFirestore.Query = users();
    const inMemory: Array<(u: UserRecord) => boolean> = [];
    if (filter.search) {
      query = query.where('searchPrefixes', 'array-contains', filter.search.toLowerCase().slice(0, 20));
      if (filter.role) inMemory.push((u) => u.roles.includes(filter.role as never));
      if (filter.hat) inMemory.push((u) => (u.hats ?? []).includes(filter.hat as never));
    } else if (filter.role) {
      query = query.where('roles', 'array-contains', filter.role);
      if (filter.hat) inMemory.push((u) => (u.hats ?? []).includes(filter.hat as never));
    } else if (filter.hat) {
      query = query.where('hats', 'array-contains', filter.hat);
    }
    if (filter.disabled !== undefined) query = query.where('disabled', '==', filter.disabled);
    query = query.orderBy('createdAt', 'desc').orderBy('__name__', 'desc');
    if (filter.cursor) {
      const after = await users().doc(filter.cursor).get();
      if (after.exists) query = query.startAfter(after);
    }
    const snap = await query.limit(filter.limit).get();
    const page = snap.docs.map((d) => fromDoc(d.id, d.data())!);
    return {
      users: page.filter((u) => inMemory.every((keep) => keep(u))),
      nextCursor: snap.size === filter.limit ? snap.docs[snap.size - 1].id : null,
    };
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

// Account ids that hold a hat and can sign in (broadcasts), ordered by id, in groups of `groupSize` as
// they stream in: the caller can write the first group while the rest is still being read. Queries run
// in pages of `pageSize` (startAfter), so a huge audience never rides on one long-lived stream.
export async function* userIdsWithHat(hat: string, opts: { pageSize?: number; groupSize?: number } = {}): AsyncGenerator<string[]> {
  const pageSize = opts.pageSize ?? 5000;
  const groupSize = opts.groupSize ?? 500;
  let last: string | undefined;
  for (;;) {
    // select(): document names only, not whole accounts.
    let query = users().where('hats', 'array-contains', hat).where('disabled', '==', false).orderBy('__name__').select().limit(pageSize);
    if (last) query = query.startAfter(last);
    let group: string[] = [];
    let read = 0;
    for await (const doc of query.stream() as AsyncIterable<FirebaseFirestore.QueryDocumentSnapshot>) {
      read += 1;
      last = doc.id;
      group.push(doc.id);
      if (group.length === groupSize) {
        yield group;
        group = [];
      }
    }
    if (group.length > 0) yield group;
    if (read < pageSize) return;
  }
}
