import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { MEDIA, type MediaRecord } from './media.model';

const media = () => db().collection(MEDIA);

export const mediaRepo = {
  newId: () => media().doc().id,
  async create(record: MediaRecord): Promise<void> {
    const { id, ...data } = record;
    await media().doc(id).create(data);
  },
  // All items of one upload in one batch: a multi-file upload is recorded whole or not at all. Written with set():
  // items named by an Idempotency-Key are rewritten whole by a retry whose first commit did land unseen.
  async createAll(records: MediaRecord[]): Promise<void> {
    const batch = db().batch();
    for (const { id, ...data } of records) batch.set(media().doc(id), data);
    await batch.commit();
  },
  async deleteAll(ids: string[]): Promise<void> {
    const batch = db().batch();
    for (const id of ids) batch.delete(media().doc(id));
    await batch.commit();
  },
  /** The item, read in the transaction when one is given. */
  get: (id: string, tx?: FirebaseFirestore.Transaction) => readRecord(typedCollection<MediaRecord>(MEDIA).doc(id), tx),
  txUpdate(tx: FirebaseFirestore.Transaction, id: string, patch: Partial<MediaRecord>): void {
    tx.update(media().doc(id), patch);
  },
  async update(id: string, patch: Partial<MediaRecord>): Promise<void> {
    await media().doc(id).update(patch);
  },
  async delete(id: string): Promise<void> {
    await media().doc(id).delete();
  },
  async ofOwner(ownerId: string, filter: { sha256?: string; limit: number }): Promise<MediaRecord[]> {
    let query = typedCollection<MediaRecord>(MEDIA).where('ownerId', '==', ownerId);
    if (filter.sha256) query = query.where('sha256', '==', filter.sha256);
    const snap = await query.get();
    return snap.docs
      .map((d) => d.data())
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, filter.limit);
  },
};
