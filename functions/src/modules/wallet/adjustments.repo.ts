import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { db } from '../../platform/core/firebase/firebase';
import { ADJUSTMENTS, STAFF_TOTALS, type AdjustmentRecord, type AdjustmentStatus } from './wallet.model';
import { timestampOf } from '../../platform/kits/time/time';

const staffTotals = () => db().collection(STAFF_TOTALS);
const adjustments = () => typedCollection<AdjustmentRecord>(ADJUSTMENTS);

export const adjustmentsRepo = {
  ref: (id: string) => adjustments().doc(id),
  get: (id: string, tx?: Transaction) => readRecord(adjustments().doc(id), tx),
  create(tx: Transaction, record: AdjustmentRecord): void {
    tx.create(adjustments().doc(record.id), record);
  },
  /** Writes the fields a decision changes (the record was read in the same transaction). */
  save(tx: Transaction, next: AdjustmentRecord): void {
    tx.update(adjustments().doc(next.id), {
      status: next.status,
      decidedBy: next.decidedBy,
      decidedAt: next.decidedAt,
      decisionReason: next.decisionReason,
      transferId: next.transferId,
      updatedAt: next.updatedAt,
    });
  },
  /** What a staff member (or staff, to one user) moved on a day without a second administrator, in the caller's transaction. */
  async staffTotal(tx: Transaction, id: string): Promise<number> {
    return ((await tx.get(staffTotals().doc(id))).get('moved') as number | undefined) ?? 0;
  },
  setStaffTotal(tx: Transaction, id: string, moved: number, now: number): void {
    // Kept two days: a day's total is only read on that day.
    tx.set(staffTotals().doc(id), { moved, updatedAt: now, expireAt: timestampOf(now + 2 * 86_400_000) });
  },
  list(filter: { status?: AdjustmentStatus }, page: PageRequest): Promise<Page<AdjustmentRecord>> {
    const query = filter.status ? adjustments().where('status', '==', filter.status) : adjustments();
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], page, (d) => d.data());
  },
};
