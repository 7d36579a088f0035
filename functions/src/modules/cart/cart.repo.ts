import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { timestampOf } from '../../platform/kits/time/time';
import { CART_CHECKOUTS, CARTS, type CartRecord, type CheckoutRecord } from './cart.model';

// Carts: one document per consumer and seller, the lines inside (at most 50, small), found by the consumer's id (an
// equality query of at most CART_MAX_CARTS + 1 documents, sorted in memory: no composite index). Checkouts: one
// document per order id. Writes add the TTL field `expireAt` beside the record.

const carts = () => typedCollection<CartRecord>(CARTS);
const checkouts = () => typedCollection<CheckoutRecord>(CART_CHECKOUTS);
const DAY_MS = 86_400_000;
/** A checkout's record outlives the idempotency answer (24 h), so a late retry of a placed order still finds it. */
const CHECKOUT_TTL_MS = 30 * DAY_MS;

export const cartRepo = {
  newLineId: () => db().collection(CARTS).doc().id,
  get: (id: string, tx?: Transaction) => readRecord(carts().doc(id), tx),
  /** The consumer's carts (at most `limit`), read in the transaction that changes one of them when given one. */
  async ofUser(userId: string, limit: number, tx?: Transaction): Promise<CartRecord[]> {
    const query = carts().where('userId', '==', userId).limit(limit);
    const snap = tx ? await tx.get(query) : await query.get();
    return snap.docs.map((d) => d.data()).sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
  },
  put(tx: Transaction, cart: CartRecord, ttlDays: number): void {
    const { id, ...data } = cart;
    tx.set(db().collection(CARTS).doc(id), { ...data, expireAt: timestampOf(cart.updatedAt + ttlDays * DAY_MS) });
  },
  remove(tx: Transaction, id: string): void {
    tx.delete(db().collection(CARTS).doc(id));
  },

  getCheckout: (orderId: string, tx?: Transaction) => readRecord(checkouts().doc(orderId), tx),
  putCheckout(tx: Transaction, record: CheckoutRecord): void {
    const { id, ...data } = record;
    tx.set(db().collection(CART_CHECKOUTS).doc(id), { ...data, expireAt: timestampOf(record.updatedAt + CHECKOUT_TTL_MS) });
  },
  removeCheckout(tx: Transaction, orderId: string): void {
    tx.delete(db().collection(CART_CHECKOUTS).doc(orderId));
  },
};
