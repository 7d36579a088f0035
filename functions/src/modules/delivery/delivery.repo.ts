import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { DELIVERIES } from './delivery.collections';
import type { DeliveryAction, DeliveryStatus } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';

const deliveries = () => typedCollection<DeliveryRecord>(DELIVERIES);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

/** Fields a plain update may change (never the status: that is a move). */
export type DeliveryPatch = Partial<Omit<DeliveryRecord, 'id' | 'status' | 'senderId' | 'createdAt'>>;

export const deliveryRepo = {
  ref: (id: string) => db().collection(DELIVERIES).doc(id),
  get: (id: string, tx?: Transaction) => readRecord(deliveries().doc(id), tx),
  create(tx: Transaction, record: DeliveryRecord): void {
    tx.create(deliveries().doc(record.id), record);
  },
  /** A change of fields in the caller's transaction (after its reads). */
  patch(tx: Transaction, id: string, patch: DeliveryPatch): void {
    tx.update(db().collection(DELIVERIES).doc(id), patch);
  },
  /** The payments a settlement recorded (outside any move: the status stays). */
  async recordPayments(id: string, payment: Pick<DeliveryRecord['payment'], 'feePaymentId' | 'cancelFeePaymentId'>): Promise<void> {
    await db()
      .collection(DELIVERIES)
      .doc(id)
      .update({ 'payment.feePaymentId': payment.feePaymentId, 'payment.cancelFeePaymentId': payment.cancelFeePaymentId });
  },
  /** The parcel as the state-machine kit moves it (its moves go to `deliveries/{id}/events`). */
  store(id: string, alongside?: TransitionStore<DeliveryRecord, DeliveryStatus, DeliveryAction>['alongside']) {
    const store: TransitionStore<DeliveryRecord, DeliveryStatus, DeliveryAction> = {
      load: (tx) => readRecord(deliveries().doc(id), tx),
      save: (tx, next) => {
        tx.set(deliveries().doc(id), next);
      },
      ref: () => db().collection(DELIVERIES).doc(id),
      ...(alongside ? { alongside } : {}),
    };
    return store;
  },
  /** The sender's parcels, or the driver's, newest first. */
  listOf(party: 'senderId' | 'driverId', userId: string, page: PageRequest): Promise<Page<DeliveryRecord>> {
    return paginate(deliveries().where(party, '==', userId), newestFirst, page, (d) => d.data());
  },
  /** Every parcel (or those in one status), newest first: the administrators' list. */
  listAll(status: DeliveryStatus | undefined, page: PageRequest): Promise<Page<DeliveryRecord>> {
    const query = status ? deliveries().where('status', '==', status) : deliveries();
    return paginate(query, newestFirst, page, (d) => d.data());
  },
  history: (id: string) => readHistory<DeliveryStatus | 'NEW', DeliveryAction | 'place'>(db().collection(DELIVERIES).doc(id)),
};
