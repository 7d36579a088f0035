import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { storedFields } from '../../platform/kits/firestore/documents';
import { WITHDRAWALS, withdrawalDocument, type WithdrawalRecord, type WithdrawalStatus } from './wallet.model';

const withdrawals = () => typedCollection<WithdrawalRecord>(WITHDRAWALS, withdrawalDocument);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

export const withdrawalsRepo = {
  get: (id: string, tx?: Transaction) => readRecord(withdrawals().doc(id), tx),
  create(tx: Transaction, record: WithdrawalRecord): void {
    tx.create(withdrawals().doc(record.id), record);
  },
  /** Writes the fields a decision changes (the record was read in the same transaction). */
  save(tx: Transaction, next: WithdrawalRecord): void {
    tx.update(
      withdrawals().doc(next.id),
      storedFields(withdrawalDocument, {
        status: next.status,
        reason: next.reason,
        decidedBy: next.decidedBy,
        decidedAt: next.decidedAt,
        operationId: next.operationId,
        updatedAt: next.updatedAt,
      }),
    );
  },
  /** Who decided (staff id): kept in the staff-only events, the record itself says STAFF. */
  async decidedBy(id: string): Promise<string | null> {
    const last = await withdrawals().doc(id).collection('events').orderBy('at', 'desc').limit(1).get();
    return (last.docs[0]?.get('by') as string | undefined) ?? null;
  },
  listOf(userId: string, page: PageRequest): Promise<Page<WithdrawalRecord>> {
    return paginate(withdrawals().where('userId', '==', userId), newestFirst, page, (d) => d.data());
  },
  list(filter: { status?: WithdrawalStatus; userId?: string }, page: PageRequest): Promise<Page<WithdrawalRecord>> {
    let query: FirebaseFirestore.Query<WithdrawalRecord> = withdrawals();
    if (filter.status) query = query.where('status', '==', filter.status);
    if (filter.userId) query = query.where('userId', '==', filter.userId);
    return paginate(query, newestFirst, page, (d) => d.data());
  },
};
