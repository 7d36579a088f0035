import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { BOOKINGS } from './bookings.collections';
import type { BookingAction, BookingStatus } from './bookings.machine';
import type { BookingRecord, BookingSettlement } from './bookings.model';

const bookings = () => typedCollection<BookingRecord>(BOOKINGS);

/**
 * A list of bookings: one party's (a consumer's newest first; a partner's, or one resource of it, soonest start first),
 * or every booking for an administrator; narrowed by vertical and statuses. Each shape has its index.
 */
export interface BookingFilter {
  consumerId?: string;
  partnerId?: string;
  resourceId?: string;
  assigneeId?: string;
  vertical?: BookingRecord['vertical'];
  statuses?: readonly BookingStatus[];
  /** Starting at or after `from` and before `to` (epoch ms); with the `soonest` order only. */
  starts?: { from: number; to: number };
  order: 'newest' | 'soonest';
}

export const bookingsRepo = {
  ref: (id: string) => db().collection(BOOKINGS).doc(id),
  /** Marks steps of an ended booking's money (fields of `settlement` only: the rest of the booking is left as it is). */
  markSettled(tx: Transaction, id: string, change: Partial<BookingSettlement>, at: number): void {
    const fields = Object.fromEntries(Object.entries(change).map(([k, v]) => [`settlement.${k}`, v]));
    tx.update(db().collection(BOOKINGS).doc(id), { ...fields, updatedAt: at });
  },
  get: (id: string, tx?: Transaction) => readRecord(bookings().doc(id), tx),
  create(tx: Transaction, record: BookingRecord): void {
    tx.create(bookings().doc(record.id), record);
  },
  /** The booking as the state-machine kit moves it (its moves go to `bookings/{id}/events`). */
  store(
    id: string,
    alongside?: TransitionStore<BookingRecord, BookingStatus, BookingAction>['alongside'],
  ): TransitionStore<BookingRecord, BookingStatus, BookingAction> {
    return {
      load: (tx) => readRecord(bookings().doc(id), tx),
      save: (tx, next) => {
        tx.set(bookings().doc(id), next);
      },
      ref: () => db().collection(BOOKINGS).doc(id),
      alongside,
    };
  },
  list(filter: BookingFilter, page: PageRequest): Promise<Page<BookingRecord>> {
    let query: FirebaseFirestore.Query<BookingRecord> = bookings();
    if (filter.consumerId) query = query.where('consumerId', '==', filter.consumerId);
    if (filter.partnerId) query = query.where('partnerId', '==', filter.partnerId);
    if (filter.resourceId) query = query.where('resource.id', '==', filter.resourceId);
    if (filter.assigneeId) query = query.where('assigneeId', '==', filter.assigneeId);
    if (filter.vertical) query = query.where('vertical', '==', filter.vertical);
    if (filter.statuses?.length === 1) query = query.where('status', '==', filter.statuses[0]);
    else if (filter.statuses && filter.statuses.length > 1) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.starts) query = query.where('startsAt', '>=', filter.starts.from).where('startsAt', '<', filter.starts.to);
    const order = filter.order === 'newest' ? { field: 'createdAt', direction: 'desc' as const } : { field: 'startsAt', direction: 'asc' as const };
    return paginate(query, [order], page, (d) => d.data());
  },
  /**
   * How many of the consumer's bookings hold capacity without being confirmed at `at` (HELD for payment, or waiting
   * for a partner's answer; up to `limit` of each), read in the caller's transaction.
   */
  async txLiveHolds(tx: Transaction, consumerId: string, at: number, limit: number): Promise<number> {
    const mine = bookings().where('consumerId', '==', consumerId);
    const [held, waiting] = await Promise.all([
      tx.get(mine.where('status', '==', 'HELD').where('holdUntil', '>', at).limit(limit)),
      tx.get(mine.where('status', '==', 'PENDING_PARTNER').where('answerBy', '>', at).limit(limit)),
    ]);
    return held.size + waiting.size;
  },
  history: (id: string) => readHistory<BookingStatus, BookingAction>(db().collection(BOOKINGS).doc(id)),
};
