import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { storedFields } from '../../platform/kits/firestore/documents';
import { readHistory } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import {
  PAYMENT_TIPS,
  paymentDocument,
  PAYMENTS,
  STAFF_REFUNDS,
  type StaffRefundRecord,
  type StaffRefundStatus,
  type PaymentMethod,
  type PaymentPurpose,
  type PaymentRecord,
  type PaymentStatus,
} from './payments.model';
import type { Provider } from '../wallet';

const payments = () => typedCollection<PaymentRecord>(PAYMENTS, paymentDocument);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

export interface PaymentFilter {
  status?: PaymentStatus;
  purpose?: PaymentPurpose;
  method?: PaymentMethod;
  provider?: Provider;
  payerId?: string;
}

export const paymentsRepo = {
  ref: (id: string) => db().collection(PAYMENTS).doc(id),
  get: (id: string, tx?: Transaction) => readRecord(payments().doc(id), tx),
  create(tx: Transaction, record: PaymentRecord): void {
    tx.create(payments().doc(record.id), record);
  },
  /** Writes the fields a move changes (the record was read in the same transaction). */
  save(tx: Transaction, next: PaymentRecord): void {
    const { id: _id, payerId: _p, amount: _a, currency: _c, purpose: _u, createdAt: _t, ...changed } = next;
    tx.update(payments().doc(next.id), storedFields(paymentDocument, changed));
  },
  async setPaymentUrl(id: string, paymentUrl: string, now: number): Promise<void> {
    await payments()
      .doc(id)
      .update(storedFields(paymentDocument, { paymentUrl, updatedAt: now }));
  },
  /** How many tips a payer gave for one ride or order (`payment_tips/{id}`), in the caller's transaction. */
  async tipCount(tx: Transaction, id: string): Promise<number> {
    return ((await tx.get(db().collection(PAYMENT_TIPS).doc(id))).get('count') as number | undefined) ?? 0;
  },
  setTipCount(tx: Transaction, id: string, count: number, now: number): void {
    tx.set(db().collection(PAYMENT_TIPS).doc(id), { count, updatedAt: now });
  },
  list(filter: PaymentFilter, page: PageRequest): Promise<Page<PaymentRecord>> {
    let query: FirebaseFirestore.Query<PaymentRecord> = payments();
    if (filter.payerId) query = query.where('payerId', '==', filter.payerId);
    if (filter.status) query = query.where('status', '==', filter.status);
    if (filter.purpose) query = query.where('purpose', '==', filter.purpose);
    if (filter.method) query = query.where('method', '==', filter.method);
    if (filter.provider) query = query.where('provider', '==', filter.provider);
    return paginate(query, newestFirst, page, (d) => d.data());
  },
};

const staffRefunds = () => typedCollection<StaffRefundRecord>(STAFF_REFUNDS);

export const staffRefundsRepo = {
  ref: (id: string) => staffRefunds().doc(id),
  get: (id: string, tx?: Transaction) => readRecord(staffRefunds().doc(id), tx),
  create(tx: Transaction, record: StaffRefundRecord): void {
    tx.create(staffRefunds().doc(record.id), record);
  },
  save(tx: Transaction, next: StaffRefundRecord): void {
    tx.update(staffRefunds().doc(next.id), {
      status: next.status,
      decidedBy: next.decidedBy,
      decidedAt: next.decidedAt,
      decisionReason: next.decisionReason,
      updatedAt: next.updatedAt,
    });
  },
  list(filter: { status?: StaffRefundStatus }, page: PageRequest): Promise<Page<StaffRefundRecord>> {
    const query = filter.status ? staffRefunds().where('status', '==', filter.status) : staffRefunds();
    return paginate(query, newestFirst, page, (d) => d.data());
  },
};

/** A payment's moves, oldest first (its `events` subcollection). */
export async function paymentEvents(id: string) {
  const events = await readHistory<PaymentStatus, string>(db().collection(PAYMENTS).doc(id));
  return events.map((e) => ({ action: e.action, from: e.from, to: e.to, by: e.by, at: iso(e.at), reason: e.reason ?? null }));
}
