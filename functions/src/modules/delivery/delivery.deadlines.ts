import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { DELIVERY_DISPATCH_QUEUE, DELIVERY_NO_DRIVER_QUEUE } from './delivery.collections';
import { deliveryMachine, type DeliveryAction, type DeliveryStatus } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';

export const NO_DRIVER_BY = 'system:delivery-dispatch';

/**
 * A parcel nobody took by `assignBy` ends NO_DRIVER: its task at that time (armed before the parcel is stored, with
 * the wallet hold made for it), or the lazy check of a read or a move.
 */
export const noDriverDeadline = defineDeadline<DeliveryRecord, DeliveryStatus, DeliveryAction, 'deliveryId', { deliveryId: string; holdPaymentId?: string }>({
  queue: DELIVERY_NO_DRIVER_QUEUE,
  idField: 'deliveryId',
  payloadOf: (d) => ({ deliveryId: d.id, ...(d.payment.holdPaymentId ? { holdPaymentId: d.payment.holdPaymentId } : {}) }),
  taskId: (id) => `nodriver-${id}`,
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
