import type { Transaction } from 'firebase-admin/firestore';
import { NotFoundError } from '../../platform/errors/app-error';
import { inTransaction } from '../../platform/firebase/firebase';
import { distanceMeters, geohashOf, nearby, type LatLng } from '../../platform/geo/geo';
import type { Hub } from '../notifications';
import { DRIVER_EVENTS } from './driver.events';
import { dispatchKeyOf, isFresh, LOCATION_MIN_INTERVAL_MS, rideClassOf, type DriverLocation, type DriverProfile, type RideClass } from './driver.model';
import { driverRepo, locationsRepo } from './driver.repo';

// Where drivers are and which of them dispatch may give a ride to. Location updates come at most once a second per
// driver to Firestore: this instance remembers its last write per driver and answers faster ones without a write
// (coalesced: the next one carries the newer position), and the transaction checks again across instances.

const lastWrite = new Map<string, number>();
const LAST_WRITE_CAP = 20_000;

function emptyLocation(profile: DriverProfile, now: number): DriverLocation {
  return {
    userId: profile.userId,
    lat: null,
    lng: null,
    geohash: null,
    heading: null,
    speedKmh: null,
    status: profile.status ?? 'OFFLINE',
    capabilities: profile.capabilities ?? [],
    rideClass: rideClassOf(profile.vehicle ?? null),
    currentRideId: null,
    riderId: null,
    tripActive: false,
    tripDistanceM: 0,
    dispatchKey: null,
    locatedAt: null,
    updatedAt: now,
  };
}

const withKey = (loc: DriverLocation): DriverLocation => ({ ...loc, dispatchKey: dispatchKeyOf(loc) });

async function currentOrNew(tx: Transaction, userId: string, now: number): Promise<DriverLocation> {
  const [loc, profile] = await Promise.all([locationsRepo.get(userId, tx), driverRepo.get(userId)]);
  if (!profile) throw new NotFoundError('Driver profile not found');
  // Capabilities and vehicle are the profile's (an administrator may change them): copied on every write.
  const base = loc ?? emptyLocation(profile, now);
  return { ...base, capabilities: profile.capabilities ?? [], rideClass: rideClassOf(profile.vehicle ?? null) };
}

export interface LocationUpdate {
  lat: number;
  lng: number;
  heading?: number;
  speedKmh?: number;
}

export function createDispatchService(deps: { hub: Pick<Hub, 'dispatch'>; now?: () => number }) {
  const now = deps.now ?? Date.now;

  async function setStatus(userId: string, status: 'ONLINE' | 'OFFLINE') {
    const at = now();
    await inTransaction(async (tx) => {
      const loc = await currentOrNew(tx, userId, at);
      locationsRepo.set(tx, withKey({ ...loc, status, updatedAt: at }));
      tx.update(driverRepo.ref(userId), { status, updatedAt: at });
    });
  }

  /** A position report: written (≤ 1/s), or coalesced; while on a ride, the rider hears it as `ride:location`. */
  async function report(userId: string, update: LocationUpdate): Promise<{ accepted: true; coalesced: boolean; at: string }> {
    const at = now();
    if (at - (lastWrite.get(userId) ?? 0) < LOCATION_MIN_INTERVAL_MS) return { accepted: true, coalesced: true, at: new Date(at).toISOString() };
    const written = await inTransaction(async (tx) => {
      const loc = await currentOrNew(tx, userId, at);
      if (loc.locatedAt !== null && at - loc.locatedAt < LOCATION_MIN_INTERVAL_MS) return undefined;
      const point: LatLng = { lat: update.lat, lng: update.lng };
      const moved = loc.tripActive && loc.lat !== null && loc.lng !== null ? distanceMeters({ lat: loc.lat, lng: loc.lng }, point) : 0;
      const next = withKey({ ...loc, ...point, geohash: geohashOf(point), heading: update.heading ?? null, speedKmh: update.speedKmh ?? null, tripDistanceM: Math.round(loc.tripDistanceM + moved), locatedAt: at, updatedAt: at });
      locationsRepo.set(tx, next);
      return next;
    });
    if (lastWrite.size > LAST_WRITE_CAP) lastWrite.clear();
    lastWrite.set(userId, at);
    if (written?.currentRideId && written.riderId) {
      await deps.hub.dispatch(
        DRIVER_EVENTS.notice({
          event: 'ride:location',
          recipients: [{ userId: written.riderId, surface: 'CON' as const }],
          entityId: written.currentRideId,
          occurrence: String(at),
          title: 'Driver location',
          body: '',
          roomId: `ride_${written.currentRideId}`,
          realtimeData: { rideId: written.currentRideId, driverId: userId, lat: update.lat, lng: update.lng, heading: update.heading ?? null, speedKmh: update.speedKmh ?? null, at: new Date(at).toISOString() },
        }),
      );
    }
    return { accepted: true, coalesced: written === undefined, at: new Date(at).toISOString() };
  }

  return { setStatus, report };
}

/** What rides reads and changes of drivers, each in the caller's transaction where it says so. */
export const dispatchPool = {
  /** Available drivers of a class (ONLINE, RIDE, free, heard from in the last 10 minutes) within `radiusM`, nearest first. */
  async nearbyAvailable(center: LatLng, radiusM: number, rideClass: RideClass, limit: number, at: number) {
    const found = await nearby(
      center,
      radiusM,
      limit,
      async (start, end) => (await locationsRepo.availableInRange(rideClass, start, end)).filter((l) => isFresh(l, at)),
      (l) => ({ lat: l.lat!, lng: l.lng! }),
    );
    return found.map(({ item, distanceM }) => ({ userId: item.userId, lat: item.lat!, lng: item.lng!, distanceM: Math.round(distanceM) }));
  },

  /**
   * Gives the driver a ride if they are still available (re-read in the transaction): the caller's reads come
   * first; this reads the driver, then writes the claim. Undefined when the driver was taken, went offline or stale.
   */
  async txClaim(tx: Transaction, driverId: string, ride: { rideId: string; riderId: string; rideClass: RideClass; at: number }) {
    const loc = await locationsRepo.get(driverId, tx);
    if (!loc || dispatchKeyOf(loc) !== ride.rideClass || !isFresh(loc, ride.at)) return undefined;
    locationsRepo.set(tx, { ...loc, currentRideId: ride.rideId, riderId: ride.riderId, tripActive: false, tripDistanceM: 0, dispatchKey: null, updatedAt: ride.at });
    return { lat: loc.lat!, lng: loc.lng! };
  },

  /** Reads the driver's document (for a later write in the same transaction). */
  txRead: (tx: Transaction, driverId: string) => locationsRepo.get(driverId, tx),

  /** Frees the driver of this ride (a no-op if they already moved on); pass what `txRead` returned. */
  txRelease(tx: Transaction, loc: DriverLocation | undefined, rideId: string, at: number): void {
    if (!loc || loc.currentRideId !== rideId) return;
    locationsRepo.set(tx, withKey({ ...loc, currentRideId: null, riderId: null, tripActive: false, updatedAt: at }));
  },

  /** Starts counting the distance driven (pickup); pass what `txRead` returned. */
  txStartTrip(tx: Transaction, loc: DriverLocation | undefined, rideId: string, at: number): void {
    if (!loc || loc.currentRideId !== rideId) return;
    locationsRepo.set(tx, { ...loc, tripActive: true, tripDistanceM: 0, updatedAt: at });
  },

  /** Free drivers of a class in a geohash cell (the supply side of surge pricing). */
  countAvailableInCell: (rideClass: RideClass, cell: string) => locationsRepo.countAvailableInCell(rideClass, cell),

  location: (driverId: string) => locationsRepo.get(driverId),
  profile: (driverId: string) => driverRepo.get(driverId),
};
