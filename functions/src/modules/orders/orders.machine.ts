import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// The order's one transition table. A gateway-paid order waits AWAITING_PAYMENT for its payment; then the store
// confirms (or rejects) a PLACED order, prepares it and says it is ready; the dispatch gives it a courier (already
// while it is prepared, when the preparation time is nearly over), who picks it up and delivers it. The consumer
// cancels before the store confirmed, the store before the courier picked it up, an administrator until delivery;
// the confirmation timer cancels a PLACED order nobody confirmed, the payment's failure one awaiting payment. The
// store may say it handed the order to the courier (picked up from then, whatever the courier's app says). The
// courier gives an order up before pickup (or the pickup timer releases them): back to READY_FOR_PICKUP, or to
// PREPARING when the store has not said ready yet, and the search runs again.
export const ORDER_STATUSES = [
  'AWAITING_PAYMENT',
  'PLACED',
  'CONFIRMED',
  'REJECTED',
  'PREPARING',
  'READY_FOR_PICKUP',
  'COURIER_ASSIGNED',
  'PICKED_UP',
  'DELIVERED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_ACTIONS = [
  'pay',
  'payFail',
  'confirm',
  'reject',
  'preparing',
  'ready',
  'assign',
  'pickup',
  'handOver',
  'giveUp',
  'giveUpBeforeReady',
  'deliver',
  'cancel',
  'storeCancel',
  'adminCancel',
  'expire',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
export type OrderActor = 'CONSUMER' | 'STORE' | 'COURIER' | 'ADMIN' | 'SYSTEM';

const BEFORE_PICKUP = ['CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'COURIER_ASSIGNED'] as const;

export const orderMachine = defineMachine<OrderStatus, OrderAction, OrderActor>({
  entity: 'order',
  states: ORDER_STATUSES,
  moves: {
    pay: { from: 'AWAITING_PAYMENT', to: 'PLACED', by: 'SYSTEM' },
    payFail: { from: 'AWAITING_PAYMENT', to: 'CANCELLED', by: 'SYSTEM' },
    confirm: { from: 'PLACED', to: 'CONFIRMED', by: 'STORE' },
    reject: { from: 'PLACED', to: 'REJECTED', by: 'STORE' },
    preparing: { from: 'CONFIRMED', to: 'PREPARING', by: 'STORE' },
    ready: { from: 'PREPARING', to: 'READY_FOR_PICKUP', by: 'STORE' },
    assign: { from: ['PREPARING', 'READY_FOR_PICKUP'], to: 'COURIER_ASSIGNED', by: 'SYSTEM' },
    pickup: { from: 'COURIER_ASSIGNED', to: 'PICKED_UP', by: 'COURIER' },
    // The store says it gave the order to its courier: picked up, whether or not the courier said so.
    handOver: { from: 'COURIER_ASSIGNED', to: 'PICKED_UP', by: 'STORE' },
    giveUp: { from: 'COURIER_ASSIGNED', to: 'READY_FOR_PICKUP', by: ['COURIER', 'SYSTEM'] },
    giveUpBeforeReady: { from: 'COURIER_ASSIGNED', to: 'PREPARING', by: 'COURIER' },
    deliver: { from: 'PICKED_UP', to: 'DELIVERED', by: 'COURIER' },
    cancel: { from: ['AWAITING_PAYMENT', 'PLACED'], to: 'CANCELLED', by: 'CONSUMER' },
    storeCancel: { from: BEFORE_PICKUP, to: 'CANCELLED', by: 'STORE' },
    adminCancel: { from: ['AWAITING_PAYMENT', 'PLACED', ...BEFORE_PICKUP, 'PICKED_UP'], to: 'CANCELLED', by: 'ADMIN' },
    expire: { from: 'PLACED', to: 'CANCELLED', by: 'SYSTEM' },
  },
  codes: { transition: 'ORDER_TRANSITION', actor: 'ORDER_NOT_ALLOWED' },
});

/** Statuses nothing leaves. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['DELIVERED', 'CANCELLED', 'REJECTED'];
export const isFinal = (status: OrderStatus): boolean => FINAL_STATUSES.includes(status);
/** Called off: the money, the stock and the voucher go back. */
export const isCalledOff = (status: OrderStatus): boolean => status === 'CANCELLED' || status === 'REJECTED';
/** With a courier on it (claimed in the driver module until the order ends). */
export const WITH_COURIER: readonly OrderStatus[] = ['COURIER_ASSIGNED', 'PICKED_UP'];
