import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { ORDER_CONFIRM_QUEUE, ORDER_COURIER_QUEUE } from './orders.collections';
import { orderMachine } from './orders.machine';
import { ORDER_SYSTEM_REASONS, type OrderRecord } from './orders.model';

export const CONFIRM_TIMEOUT_BY = 'system:order-confirm-timeout';

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
// time less the lead a courier needs to get there: `courierSearchFrom`). One task per order and phase; the task asks
// for a retry while nobody is free, and finds nothing to do once a courier has it or the order ended.
export const courierDeadline = defineDeadline({
  entity: 'order courier search',
  queue: ORDER_COURIER_QUEUE,
  idField: 'orderId',
  taskId: (id, phase) => `courier-${id}-${(phase ?? 'ready').toLowerCase()}`,
  dueAt: (r: OrderRecord) => {
    if (r.driverId !== null) return null;
    if (r.status === 'READY_FOR_PICKUP') return r.readyAt ?? r.updatedAt;
    if (r.status === 'PREPARING') return r.courierSearchFrom;
    return null;
  },
});
