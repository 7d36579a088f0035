import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import type { RideStatus } from '../../src/modules/rides';
import { db } from '../../src/platform/core/firebase/firebase';
import { RIDES } from '../../src/modules/rides/rides.collections';

// Rides as the rides module stores them, for the tests of what uses a ride as a payable (vouchers): its rider, status,
// quote and final fare. The ride flow itself is rides.test.ts's.
export async function seedRide(
  riderId: string,
  opts: { status?: RideStatus; quote?: number; fare?: number | null; pickupCell?: string; createdAt?: Timestamp } = {},
): Promise<string> {
  const id = `ride-${randomUUID().slice(0, 12)}`;
  const t = opts.createdAt ?? Timestamp.now();
  const at = { lat: 10.7769, lng: 106.7009 };
  await db()
    .collection(RIDES)
    .doc(id)
    .set({
      id,
      riderId,
      driverId: null,
      participants: [riderId],
      status: opts.status ?? 'CONFIRMED',
      rideClass: 'MOTORBIKE',
      pickup: at,
      dropoff: at,
      pickupCell: opts.pickupCell ?? 'w3gv',
      quote: { fare: opts.quote ?? 100_000, distanceM: 5_000, durationSec: 900, surgeBp: 10_000 },
      paymentMethod: 'CASH',
      holdPaymentId: null,
      paymentId: null,
      fare: opts.fare ?? null,
      drivenM: null,
      cancellationFee: 0,
      driver: null,
      etaToPickupSec: null,
      excludedDriverIds: [],
      reassignments: 0,
      note: null,
      cancelledBy: null,
      cancelReason: null,
      rating: null,
      createdAt: t,
      confirmedAt: t,
      arrivedAt: null,
      pickedUpAt: null,
      completedAt: null,
      endedAt: null,
      updatedAt: t,
    });
  return id;
}

/** The rides module moving a ride on (cancel, complete), as its state machine would have stored it. */
export const setRideStatus = (id: string, status: RideStatus, extra: Record<string, unknown> = {}) =>
  db()
    .collection(RIDES)
    .doc(id)
    .update({ status, updatedAt: Timestamp.now(), ...extra });
