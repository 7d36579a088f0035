import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { typedCollection } from '../../platform/kits/firestore/records';
import { ADDRESS_LIMIT, ADDRESSES, type AddressRecord } from './addresses.model';

const addresses = () => typedCollection<AddressRecord>(ADDRESSES);

export const addressesRepo = {
  newId: () => db().collection(ADDRESSES).doc().id,
  /** All of a user's addresses (at most the limit), read in the transaction that changes one of them. */
  async ofUser(userId: string, tx?: Transaction): Promise<AddressRecord[]> {
    const query = addresses()
      .where('userId', '==', userId)
      .limit(ADDRESS_LIMIT + 1);
    const snap = tx ? await tx.get(query) : await query.get();
    return snap.docs.map((d) => d.data());
  },
  get: async (id: string): Promise<AddressRecord | undefined> => (await addresses().doc(id).get()).data(),
  create(tx: Transaction, record: AddressRecord): void {
    tx.create(addresses().doc(record.id), record);
  },
  update(tx: Transaction, id: string, fields: Partial<Omit<AddressRecord, 'id' | 'userId'>>): void {
    tx.update(db().collection(ADDRESSES).doc(id), fields);
  },
  remove(tx: Transaction, id: string): void {
    tx.delete(db().collection(ADDRESSES).doc(id));
  },
};
