import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../../platform/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/firestore/records';
import { ADJUSTMENTS, type AdjustmentRecord, type AdjustmentStatus } from './wallet.model';

const adjustments = () => typedCollection<AdjustmentRecord>(ADJUSTMENTS);

export const adjustmentsRepo = {
  ref: (id: string) => adjustments().doc(id),
  get: (id: string, tx?: Transaction) => readRecord(adjustments().doc(id), tx),
  create(tx: Transaction, record: AdjustmentRecord): void {
    tx.create(adjustments().doc(record.id), record);
  },
  /** Writes the fields a decision changes (the record was read in the same transaction). */
  save(tx: Transaction, next: AdjustmentRecord): void {
    tx.update(adjustments().doc(next.id), { status: next.status, decidedBy: next.decidedBy, decidedAt: next.decidedAt, decisionReason: next.decisionReason, transferId: next.transferId, updatedAt: next.updatedAt });
  },
  list(filter: { status?: AdjustmentStatus }, page: PageRequest): Promise<Page<AdjustmentRecord>> {
    const query = filter.status ? adjustments().where('status', '==', filter.status) : adjustments();
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], page, (d) => d.data());
  },
};
