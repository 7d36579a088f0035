import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { BOOKINGS } from './bookings.collections';
import type { BookingAction, BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';

const bookings = () => typedCollection<BookingRecord>(BOOKINGS);

export const bookingsRepo = {
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
  history: (id: string) => readHistory<BookingStatus, BookingAction>(db().collection(BOOKINGS).doc(id)),
};
