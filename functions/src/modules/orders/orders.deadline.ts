import { defineDeadline, roundPhase } from '../../platform/kits/deadlines/deadlines';
import { assignmentOf, definePickupWindow } from '../driver';
import { ORDER_COURIER_RETRY_SEC } from './orders.config';
import { ORDER_CONFIRM_QUEUE, ORDER_COURIER_QUEUE, ORDER_PICKUP_QUEUE } from './orders.collections';
import { orderMachine, type OrderAction, type OrderStatus } from './orders.machine';
import { ORDER_SYSTEM_REASONS, type OrderRecord } from './orders.model';

export const CONFIRM_TIMEOUT_BY = 'system:order-confirm-timeout';

/** How long past `confirmBy` a PLACED order still counts as pending (instances' clocks differ a little). */
export const CONFIRM_CLOCK_GRACE_MS = 60_000;

// A PLACED order not confirmed by `confirmBy` is cancelled: its task at that time, or the lazy check of a later read
// or move. The cancellation gives the stock back in its transaction; money and voucher follow (orders.settlement).
export const confirmDeadline = defineDeadline({
  entity: 'order',
  queue: ORDER_CONFIRM_QUEUE,
  idField: 'orderId',
  taskId: (id) => `confirm-${id}`,
  dueAt: (r: OrderRecord) => (r.status === 'PLACED' ? r.confirmBy : null),
  expiry: {
    machine: orderMachine,
    action: 'expire',
    by: CONFIRM_TIMEOUT_BY,
    apply: (r, _to, at) => ({
      ...r,
      cancelledBy: 'SYSTEM' as const,
      cancelReason: ORDER_SYSTEM_REASONS.CONFIRM_TIMEOUT,
      cancelReasonCode: 'CONFIRM_TIMEOUT' as const,
      endedAt: at,
      updatedAt: at,
    }),
  },
});

// The courier search: due when the store says the order is ready, or earlier while it is prepared (the preparation
// time less the lead a courier needs to get there: `courierSearchFrom`), and again at `courierRetryAt` after a round
// found nobody (or a courier left). One task per order and round (`courierAttempt`): a round that finds nobody arms
// the next one (15 s, doubling to 2 minutes: the kit's rounds), and a task of an older round finds nothing to do, so
// one chain of searches runs per order.
export const courierDeadline = defineDeadline<OrderRecord, OrderStatus, OrderAction, 'orderId', { orderId: string; attempt?: string }>({
  entity: 'order courier search',
  queue: ORDER_COURIER_QUEUE,
  idField: 'orderId',
  payloadOf: (r) => ({ orderId: r.id, attempt: courierRound(r) }),
  taskId: (id, phase) => `courier-${id}-${(phase ?? 'ready').toLowerCase()}`,
  rounds: ORDER_COURIER_RETRY_SEC,
  dueAt: (r: OrderRecord) => {
    if (r.driverId !== null) return null;
    if (r.status === 'READY_FOR_PICKUP') return r.courierRetryAt ?? r.readyAt ?? r.updatedAt;
    if (r.status === 'PREPARING') return r.courierRetryAt ?? r.courierSearchFrom;
    return null;
  },
});

/** The search round an order is in (the phase of its task). */
export const courierRound = (r: Pick<OrderRecord, 'courierAttempt'>): string => roundPhase(r.courierAttempt);

export const PICKUP_TIMEOUT_BY = 'system:order-pickup-timeout';

// The pickup window: a COURIER_ASSIGNED order its courier has not picked up by `pickupBy` (set at the assignment when
// the order is ready, else when the store says ready) is released like a give-up: its task at that time (one per
// assignment), or the lazy check of a party's read. A pickup that comes first wins: the release finds it PICKED_UP.
export const pickupDeadline = definePickupWindow<OrderRecord, OrderStatus, OrderAction, 'orderId'>({
  entity: 'order pickup',
  queue: ORDER_PICKUP_QUEUE,
  idField: 'orderId',
  status: 'COURIER_ASSIGNED',
});

export { assignmentOf };
