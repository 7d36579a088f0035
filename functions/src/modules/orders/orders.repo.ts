import type { HandoverCodeState } from '../../platform/kits/handover/handover';
import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { storedFields } from '../../platform/kits/firestore/documents';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { timestampOf } from '../../platform/kits/time/time';
import { readHistory, recordNote, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { CONFIRM_CLOCK_GRACE_MS } from './orders.deadline';
import type { OrderAction, OrderStatus } from './orders.machine';
import { ORDER_HANDOVERS, ORDER_RATINGS, ORDERS, orderDocument, type HandoverRecord, type OrderRecord, type RatingRecord } from './orders.model';

const orders = () => typedCollection<OrderRecord>(ORDERS, orderDocument);
const handovers = () => plainCollection<HandoverRecord>(ORDER_HANDOVERS);
const ratings = () => plainCollection<RatingRecord>(ORDER_RATINGS);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

/** Who an order list is filtered by (one of them), and which statuses. */
export interface OrderFilter {
  consumerId?: string;
  sellerKey?: string;
  partnerId?: string;
  driverId?: string;
  statuses?: readonly OrderStatus[];
}

export type OrderSettlement = OrderRecord['settlement'];

export const ordersRepo = {
  ref: (id: string) => db().collection(ORDERS).doc(id),
  get: (id: string, tx?: Transaction) => readRecord(orders().doc(id), tx),
  /** Writes a new order and its first line of history, `place` in its first status (the caller's transaction, no read). */
  txCreate(tx: Transaction, record: OrderRecord, by: string): void {
    tx.create(orders().doc(record.id), record);
    recordNote<OrderStatus, OrderAction | 'place'>(tx, db().collection(ORDERS).doc(record.id), {
      action: 'place',
      status: record.status,
      by,
      at: record.createdAt,
    });
  },
  save(tx: Transaction, record: OrderRecord): void {
    tx.set(orders().doc(record.id), record);
  },
  /** Changes fields that move no status (the courier search's round, a ready order's pickup window), in the caller's transaction. */
  patch(tx: Transaction, id: string, change: Partial<Omit<OrderRecord, 'id' | 'status'>>): void {
    tx.update(db().collection(ORDERS).doc(id), storedFields(orderDocument, change));
  },
  /** Records what the settlement did (money, voucher), in the caller's transaction or alone. */
  async markSettled(id: string, change: Partial<OrderSettlement>, at: number, tx?: Transaction): Promise<void> {
    const fields = Object.fromEntries(Object.entries(change).map(([k, v]) => [`settlement.${k}`, v]));
    const data = storedFields(orderDocument, { ...fields, updatedAt: at });
    if (tx) tx.update(db().collection(ORDERS).doc(id), data);
    else await db().collection(ORDERS).doc(id).update(data);
  },
  /** The order as the state-machine kit moves it (its moves go to `orders/{id}/events`). */
  store(id: string, alongside?: TransitionStore<OrderRecord, OrderStatus, OrderAction>['alongside']): TransitionStore<OrderRecord, OrderStatus, OrderAction> {
    return {
      load: (tx) => readRecord(orders().doc(id), tx),
      save: (tx, next) => tx.set(orders().doc(id), next),
      ref: () => db().collection(ORDERS).doc(id),
      ...(alongside ? { alongside } : {}),
    };
  },
  history: (id: string) => readHistory<OrderStatus, OrderAction | 'place'>(db().collection(ORDERS).doc(id)),
  list(filter: OrderFilter, page: PageRequest): Promise<Page<OrderRecord>> {
    let query: FirebaseFirestore.Query<OrderRecord> = orders();
    if (filter.consumerId) query = query.where('consumerId', '==', filter.consumerId);
    if (filter.sellerKey) query = query.where('sellerKey', '==', filter.sellerKey);
    if (filter.partnerId) query = query.where('partnerId', '==', filter.partnerId);
    if (filter.driverId) query = query.where('driverId', '==', filter.driverId);
    if (filter.statuses?.length === 1) query = query.where('status', '==', filter.statuses[0]);
    else if (filter.statuses && filter.statuses.length > 1) query = query.where('status', 'in', [...filter.statuses]);
    return paginate(query, newestFirst, page, (d) => d.data());
  },

  /**
   * The consumer's unconfirmed orders, up to `limit`, read in the caller's transaction: AWAITING_PAYMENT ones, and
   * PLACED ones whose store may still confirm them: `confirmBy` not yet passed by more than CONFIRM_CLOCK_GRACE_MS
   * (another instance's clock may be behind this one's; an order past that is cancelled by its timer or next read).
   */
  async txCountPending(tx: Transaction, consumerId: string, at: number, limit: number): Promise<number> {
    const mine = db().collection(ORDERS).where('consumerId', '==', consumerId);
    const [awaiting, placed] = await Promise.all([
      tx.get(mine.where('status', '==', 'AWAITING_PAYMENT').limit(limit)),
      tx.get(
        mine
          .where('status', '==', 'PLACED')
          .where('confirmBy', '>', timestampOf(at - CONFIRM_CLOCK_GRACE_MS))
          .limit(limit),
      ),
    ]);
    return Math.min(limit, awaiting.size + placed.size);
  },

  handover: (orderId: string, tx?: Transaction) => readRecord(handovers().doc(orderId), tx),
  txCreateHandover(tx: Transaction, orderId: string, record: HandoverRecord): void {
    tx.create(handovers().doc(orderId), record);
  },
  txSaveCodeState(tx: Transaction, orderId: string, state: HandoverCodeState, at: number): void {
    tx.update(handovers().doc(orderId), { failedAttempts: state.failedAttempts, lockedAt: state.lockedAt, updatedAt: at });
  },

  rating: (orderId: string, tx?: Transaction) => readRecord(ratings().doc(orderId), tx),
  txCreateRating(tx: Transaction, record: RatingRecord): void {
    tx.create(ratings().doc(record.orderId), record);
  },
};
