import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { distanceMeters, type LatLng } from '../../platform/kits/geo/geo';
import type { DriverLocation } from '../driver';
import { isFreshPosition, rideView, systemReason, type RideAction, type RideRecord } from './rides.model';
import { ridesRepo } from './rides.repo';
import { notOwnRide, type RideViewer, type RidesCore } from './rides.context';
import type { RideDispatch } from './rides.dispatch';
import type { RideLifecycle } from './rides.lifecycle';
import type { RidePricing } from './rides.pricing';
import type { RideSettlement } from './rides.settlement';

// The trip as its driver and rider move it: arrive, pick up, complete (geofenced on the driver's fresh position),
// the no-show, cancellations by either side or an administrator, and the rider's note.

interface TripParts {
  pricing: Pick<RidePricing, 'finalFare' | 'waitedFee'>;
  settlement: Pick<RideSettlement, 'settleAndRecord'>;
  lifecycle: Pick<RideLifecycle, 'move' | 'handOver' | 'visible'>;
  dispatch: Pick<RideDispatch, 'candidatesFor'>;
}

export function createRideTrip(
  { deps, now }: RidesCore,
  { pricing: { finalFare, waitedFee }, settlement: { settleAndRecord }, lifecycle: { move, handOver, visible }, dispatch: { candidatesFor } }: TripParts,
) {
  /** The driver's last position if fresh (isFreshPosition: two consecutive reports within RIDE_POSITION_FRESH_SEC). */
  function positionIfFresh(loc: DriverLocation | undefined, at: number): LatLng | undefined {
    if (!loc || loc.lat === null || loc.lng === null || !isFreshPosition(loc, at, deps.geofence.positionFreshSec)) return undefined;
    return { lat: loc.lat, lng: loc.lng };
  }

  function freshPosition(loc: DriverLocation | undefined, at: number): LatLng {
    const position = positionIfFresh(loc, at);
    if (!position) throw new ConflictError('No recent position of the driver: report the position, then retry').withCode('RIDE_POSITION_STALE');
    return position;
  }

  /** `arrived` counts only within RIDE_ARRIVE_RADIUS_M of the pickup (the driver's fresh position). */
  function atPickup(ride: RideRecord, loc: DriverLocation | undefined, at: number): void {
    const distanceM = Math.round(distanceMeters(freshPosition(loc, at), ride.pickup));
    if (distanceM > deps.geofence.arriveRadiusM)
      throw new ConflictError('The driver is not at the pickup', { distanceM, radiusM: deps.geofence.arriveRadiusM }).withCode('RIDE_NOT_AT_PICKUP');
  }

  /** `complete` counts near the drop-off (fresh position) or after a minimum share of the quoted distance was driven. */
  function atDropoff(ride: RideRecord, loc: DriverLocation | undefined, at: number): void {
    const neededM = Math.ceil((ride.quote.distanceM * deps.geofence.completeMinDrivenBp) / 10_000);
    const drivenM = ride.drivenM ?? 0;
    if (drivenM >= neededM) return;
    // Without a fresh position only the distance driven could have justified it.
    const position = positionIfFresh(loc, at);
    const distanceM = position ? Math.round(distanceMeters(position, ride.dropoff)) : null;
    if (distanceM !== null && distanceM <= deps.geofence.completeRadiusM) return;
    throw new ConflictError('The trip is not at its drop-off', { distanceM, radiusM: deps.geofence.completeRadiusM, drivenM, neededM }).withCode(
      'RIDE_NOT_AT_DROPOFF',
    );
  }

  async function arrive(driverId: string, id: string) {
    return rideView((await move(id, 'arrive', { userId: driverId, admin: false }, (_r, at) => ({ arrivedAt: at }), 'none', null, atPickup)).after);
  }

  async function pickup(driverId: string, id: string) {
    return rideView((await move(id, 'pickup', { userId: driverId, admin: false }, (_r, at) => ({ pickedUpAt: at }), 'startTrip')).after);
  }

  async function complete(driverId: string, id: string) {
    const { after } = await move(
      id,
      'complete',
      { userId: driverId, admin: false },
      (r, at) => ({ ...finalFare(r, at), completedAt: at, endedAt: at }),
      'release',
      null,
      atDropoff,
    );
    return rideView(await settleAndRecord(after));
  }

  /**
   * An administrator ends a started trip whose driver cannot (gone, locked): at the quoted fare, or priced on what
   * was driven (as the driver's completion would). The hold is captured for the driver as usual.
   */
  async function adminComplete(admin: RideViewer, id: string, input: { fare: 'QUOTE' | 'DRIVEN'; reason: string }) {
    const { after } = await move(
      id,
      'complete',
      { userId: admin.userId, admin: true },
      (r, at) => ({ ...(input.fare === 'QUOTE' ? { fare: r.quote.fare, drivenM: r.drivenM ?? 0 } : finalFare(r, at)), completedAt: at, endedAt: at }),
      'release',
      input.reason,
      (r) => notOwnRide(r, admin.userId),
    );
    return rideView(await settleAndRecord(after));
  }

  /**
   * The driver waited RIDE_CANCEL_WAIT_SEC at the pickup and the rider never came: the ride ends CANCELLED with the
   * late-cancel fee for the driver (not sent to another driver). The driver must still be at the pickup now.
   */
  async function noShow(driverId: string, id: string) {
    const { after } = await move(
      id,
      'noShow',
      { userId: driverId, admin: false },
      (r, at) => ({ cancelledBy: 'driver', ...systemReason('riderNoShow'), cancellationFee: waitedFee(r, at), endedAt: at }),
      'release',
      'no-show',
      (r, loc, at) => {
        const waitedSec = r.arrivedAt === null ? 0 : Math.floor((at - r.arrivedAt) / 1000);
        if (waitedSec < deps.cancelWaitSec)
          throw new ConflictError('Wait for the rider at the pickup first', { waitSec: deps.cancelWaitSec, waitedSec }).withCode('RIDE_NO_SHOW_EARLY');
        atPickup(r, loc, at);
      },
    );
    return rideView(await settleAndRecord(after));
  }

  /**
   * The rider cancels (a fee after the grace period or once the driver arrived), or the driver does: the ride goes back
   * to the search once, excluding them, then ends NO_DRIVER.
   */
  async function cancel(actor: RideViewer, id: string, reason: string | null) {
    const ride = await visible(id, actor);
    // A party holding rides.manage cannot end its own started trip as an administrator (abort, no charge).
    if (actor.admin && ride.status === 'IN_PROGRESS') notOwnRide(ride, actor.userId);
    if (ride.driverId === actor.userId && ride.riderId !== actor.userId) return driverCancel(actor, ride, reason);
    const byAdmin = actor.admin && ride.riderId !== actor.userId;
    // A started trip is cancelled by an administrator only (abort): nobody pays, the hold goes back.
    const action: RideAction = byAdmin && ride.status === 'IN_PROGRESS' ? 'abort' : 'cancel';
    const { after } = await move(
      id,
      action,
      actor,
      (r, at) => {
        // A change of mind within the grace period is no demand: it leaves the surge's count (pickupCell cleared).
        const inGrace = !byAdmin && at - r.createdAt <= deps.cancelGraceSec * 1000;
        return {
          cancelledBy: byAdmin ? 'admin' : 'rider',
          cancelReason: reason,
          cancelReasonCode: null,
          cancellationFee: byAdmin ? 0 : waitedFee(r, at),
          endedAt: at,
          ...(inGrace ? { pickupCell: null } : {}),
        };
      },
      'release',
      reason,
    );
    return rideView(await settleAndRecord(after));
  }

  /** The driver gives the ride up: it goes back to the search once (excluding them), else it ends NO_DRIVER. */
  async function driverCancel(actor: RideViewer, ride: RideRecord, reason: string | null) {
    const at = now();
    const excluded = [...ride.excludedDriverIds, ride.driverId!];
    let outcome: RideRecord | undefined;
    if (ride.reassignments === 0) {
      search: for await (const ring of candidatesFor(ride.pickup, ride.rideClass, excluded, at)) {
        for (const candidate of ring) if ((outcome = await handOver(ride, actor, candidate, excluded, reason, at))) break search;
      }
    }
    outcome ??= (await handOver(ride, actor, undefined, excluded, reason, at))!;
    return rideView(outcome.status === 'NO_DRIVER' ? await settleAndRecord(outcome) : outcome);
  }

  /** The rider's note for the driver (where to wait, what to look for) until the driver has picked them up. */
  async function updateNote(riderId: string, id: string, note: string | null) {
    const after = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.riderId !== riderId) throw new NotFoundError('No such ride');
      if (ride.status !== 'CONFIRMED' && ride.status !== 'ARRIVED')
        throw new ConflictError('The note can change only before the pickup', { status: ride.status }).withCode('RIDE_TRANSITION');
      const changed = { note, updatedAt: now() };
      ridesRepo.patch(tx, id, changed);
      return { ...ride, ...changed };
    });
    return rideView(after);
  }

  return { arrive, pickup, complete, adminComplete, noShow, cancel, updateNote };
}
