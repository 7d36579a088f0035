// Public face of the orders module: what checkout writes and shows (cart/checkout places orders in its own
// transaction), the statuses, and the names other modules may show or link.
import type { Transaction } from 'firebase-admin/firestore';
import type { AppConfig } from '../../platform/core/config';
import { ownRecord, type OwnRecords } from '../../platform/core/module/own-records';
import type { OrderDraft } from './orders.place';

export { ORDERS } from './orders.collections';
export { ORDER_STATUSES, type OrderStatus } from './orders.machine';
export type { OrderPaymentMethod } from './orders.model';
export type { OrderDraft, OrderLineRequest } from './orders.place';
/** Reorder's read: the store and lines of one of the consumer's orders (any status); undefined when not theirs or none. */
export const orderLinesFor = (orderId: string, consumerId: string) =>
  (require('./orders.place') as typeof import('./orders.place')).orderLinesFor(orderId, consumerId);
export type { PricedLine, SellerKind, SellerRef } from './orders.ports';

const service = (config: Readonly<AppConfig>) => (require('./orders.wiring') as typeof import('./orders.wiring')).ordersServiceFor(config);

export function orderCommands(config: Readonly<AppConfig>) {
  return {
    /**
     * In the caller's transaction, before any of its writes: the store read again (409 ORDER_SELLER_CLOSED when it is
     * paused, closed, archived or hidden) and the consumer's unconfirmed orders counted (409 ORDER_TOO_MANY_PENDING at
     * ORDERS_MAX_PENDING_PER_CONSUMER; PLACED orders past their `confirmBy` do not count). Checkout calls it in the transaction that places the order.
     */
    txCheckPlacing: (tx: Transaction, draft: Pick<OrderDraft, 'consumerId' | 'seller'>): Promise<void> => service(config).txCheckPlacing(tx, draft),
    /**
     * In the caller's transaction, after all its reads (txCheckPlacing's too): reads nothing, writes the order (PLACED,
     * or AWAITING_PAYMENT for a GATEWAY payment) with its first history event and its delivery code. The caller
     * guarantees the id is new. Answers the order as its consumer reads it (GET /orders/{id}) once the transaction
     * commits, built from what it wrote; undefined when that needs a read (a prescription's image address: use `view`).
     */
    txPlace: (tx: Transaction, draft: OrderDraft): unknown => {
      const s = service(config);
      return s.placedView(s.txPlace(tx, draft));
    },
    /** The order as checkout shows it after placing (GET /orders/:id for its consumer); undefined if none. */
    view: (orderId: string, viewerId: string): Promise<unknown | undefined> => service(config).consumerView(orderId, viewerId),
    /** In the caller's transaction: whether an order with this id exists (checkout's idempotent replay). */
    txExists: (tx: Transaction, orderId: string): Promise<boolean> => service(config).txExists(tx, orderId),
  };
}

export type ConsumerOrderView = Awaited<ReturnType<ReturnType<typeof service>['get']>>;

/** The user's own orders as their consumer app reads them (GET /orders, GET /orders/{id}); another's reads as absent. */
export function ordersOfConsumer(config: Readonly<AppConfig>): OwnRecords<ConsumerOrderView> {
  const viewer = (userId: string) => ({ userId, admin: false });
  return {
    recent: async (userId, limit) => (await service(config).mine(viewer(userId), undefined, { limit })).items as ConsumerOrderView[],
    get: async (userId, id) => {
      const order = await ownRecord(id, () => service(config).get(viewer(userId), id));
      // The consumer's own: its store and courier may read it too, but it is not theirs.
      return order?.consumerId === userId ? order : undefined;
    },
  };
}
