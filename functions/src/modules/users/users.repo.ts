import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import type { UserRecord } from './users.model';

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

  // Email uniqueness rests on create() of the index document inside the same transaction.
  txCreate(tx: Transaction, user: UserRecord): void {
    const { id, ...data } = user;
    tx.create(emailIndex(user.email), { userId: id, createdAt: user.createdAt });
    tx.create(users().doc(id), data);
  },

  txUpdate(tx: Transaction, id: string, patch: Partial<Omit<UserRecord, 'id'>>): void {
    tx.update(users().doc(id), patch);
  },

  txClaimPhone(tx: Transaction, phone: string, userId: string, previousPhone: string | null, now: number): void {
    if (previousPhone && previousPhone !== phone) tx.delete(phoneIndex(previousPhone));
    tx.set(phoneIndex(phone), { userId, createdAt: now });
  },

  async update(id: string, patch: Partial<Omit<UserRecord, 'id'>>): Promise<void> {
    await users().doc(id).update(patch);
  },
};
