import { iso, isoOrNull } from '../../platform/kits/time/time';
import { deliveryMachine, type DeliveryActor } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';
import type { HandoverProof } from './delivery.ports';

/** Who reads a parcel: its sender, its driver, or an administrator (delivery.manage). */
export type DeliveryAudience = 'SENDER' | 'DRIVER' | 'ADMIN';

const proofView = (p: HandoverProof | null) => (p ? { method: p.method, photo: p.photo, at: iso(p.at) } : null);

/**
 * A parcel as its reader sees it. Only the sender reads the hand-over codes (the pickup code until pickup, the
 * drop-off code, which they pass on to the recipient, until delivery) and the rating; the driver never does.
 */
export function deliveryView(d: DeliveryRecord, audience: DeliveryAudience) {
  const sender = audience === 'SENDER';
  const roles: DeliveryActor[] = [audience];
  return {
    id: d.id,
    status: d.status,
    senderId: d.senderId,
    driverId: d.driverId,
    driver: d.driver,
    pickup: d.pickup,
    dropoff: d.dropoff,
    parcel: d.parcel,
    note: d.note,
    distanceM: d.distanceM,
    currency: 'VND' as const,
    feeVnd: d.feeVnd,
    codAmount: d.codVnd,
    paymentMethod: d.payment.method,
    cancellationFeeVnd: d.cancellationFeeVnd,
    codes: sender
      ? {
          pickup: d.status === 'CREATED' || d.status === 'DRIVER_ASSIGNED' ? d.codes.pickup.code : null,
          dropoff: d.status === 'CREATED' || d.status === 'DRIVER_ASSIGNED' || d.status === 'PICKED_UP' ? d.codes.dropoff.code : null,
        }
      : null,
    pickupProof: proofView(d.pickupProof),
    deliveryProof: proofView(d.deliveryProof),
    cancelledBy: d.cancelledBy,
    cancelReason: d.cancelReason,
    rating: sender || audience === 'ADMIN' ? (d.rating ? { stars: d.rating.stars, comment: d.rating.comment, at: iso(d.rating.at) } : null) : null,
    actions: deliveryMachine.allowed(d.status, roles),
    assignBy: d.status === 'CREATED' ? iso(d.assignBy) : null,
    createdAt: iso(d.createdAt),
    assignedAt: isoOrNull(d.assignedAt),
    pickedUpAt: isoOrNull(d.pickedUpAt),
    deliveredAt: isoOrNull(d.deliveredAt),
    endedAt: isoOrNull(d.endedAt),
    updatedAt: iso(d.updatedAt),
  };
}

export type DeliveryView = ReturnType<typeof deliveryView>;
