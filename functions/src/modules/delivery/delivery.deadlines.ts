import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { assignmentOf, definePickupWindow } from '../driver';
import { DELIVERY_DISPATCH_QUEUE, DELIVERY_NO_DRIVER_QUEUE, DELIVERY_PICKUP_QUEUE } from './delivery.collections';
import { deliveryMachine, type DeliveryAction, type DeliveryStatus } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';

export const NO_DRIVER_BY = 'system:delivery-dispatch';

/**
 * A parcel nobody took by `assignBy` ends NO_DRIVER: its task at that time (armed before the parcel is stored, with
 * the wallet hold made for it; armed again, phase `r{n}`, with the new window each time a driver leaves it), or the
 * lazy check of a read or a move.
 */
export const noDriverDeadline = defineDeadline<DeliveryRecord, DeliveryStatus, DeliveryAction, 'deliveryId', { deliveryId: string; holdPaymentId?: string }>({
  queue: DELIVERY_NO_DRIVER_QUEUE,
  idField: 'deliveryId',
  payloadOf: (d) => ({ deliveryId: d.id, ...(d.payment.holdPaymentId ? { holdPaymentId: d.payment.holdPaymentId } : {}) }),
  taskId: (id, phase) => (phase ? `nodriver-${id}-${phase}` : `nodriver-${id}`),
  dueAt: (d) => (d.status === 'CREATED' ? d.assignBy : null),
  expiry: {
    machine: deliveryMachine,
    action: 'expire',
    by: NO_DRIVER_BY,
    apply: (d, to, at) => ({ ...d, status: to, nextDispatchAt: null, endedAt: at, updatedAt: at }),
  },
  entity: 'delivery',
});

/** The next search for a driver of a parcel still CREATED (one task per attempt: the phase is the attempt's number). */
export const dispatchDeadline = defineDeadline<DeliveryRecord, DeliveryStatus, DeliveryAction, 'deliveryId'>({
  queue: DELIVERY_DISPATCH_QUEUE,
  idField: 'deliveryId',
  taskId: (id, phase) => `dispatch-${id}-${phase ?? '1'}`,
  dueAt: (d) => (d.status === 'CREATED' ? d.nextDispatchAt : null),
  entity: 'delivery',
});

export const PICKUP_TIMEOUT_BY = 'system:delivery-pickup-timeout';

/**
 * The pickup window: a parcel its driver has not picked up by `pickupBy` (DELIVERY_PICKUP_WINDOW_MIN after the
 * assignment) is released like a give-up: its task (one per assignment), or the lazy check of a read. A pickup that
 * comes first wins: the release then finds it PICKED_UP.
 */
export const pickupDeadline = definePickupWindow<DeliveryRecord, DeliveryStatus, DeliveryAction, 'deliveryId'>({
  entity: 'delivery pickup',
  queue: DELIVERY_PICKUP_QUEUE,
  idField: 'deliveryId',
  status: 'DRIVER_ASSIGNED',
});

export { assignmentOf };
