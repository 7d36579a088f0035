import type { Timestamp, Transaction } from 'firebase-admin/firestore';
import { NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction, isFailedPrecondition, isNotFound } from '../../platform/core/firebase/firebase';
import { createBatchedWrites } from '../../platform/kits/firestore/batched-writes';
import { storedFields } from '../../platform/kits/firestore/documents';
import { distanceMeters, geohashOf, nearby, type LatLng } from '../../platform/kits/geo/geo';
import { nearbyPage } from '../../platform/kits/geo/nearby-page';
import type { Hub } from '../notifications';
import { DRIVER_EVENTS } from './driver.events';
import { timestampOf, iso } from '../../platform/kits/time/time';
import {
  dispatchKeyOf,
  driverLocationDocument,
  isFresh,
  jobKeysOf,
  mayDrive,
  withKeys,
  positionCovers,
  sameLocationWindow,
  rideClassOf,
  type DriverLocation,
  type DriverProfile,
  type RideClass,
} from './driver.model';
import { driverRepo, locationsRepo } from './driver.repo';
import { accounts } from '../users';
import { BoundedMap } from '../../platform/kits/memo/bounded-map';

// Where drivers are and which of them dispatch may give a ride to. Position reports (up to one a second per driver)
// are the hot path: no transaction and no read in the steady state. The instance remembers the last version of each
// driver's document it wrote or read, and writes the new position with that version as a precondition
// (`lastUpdateTime`); when another instance, a ride claim or a status change wrote in between, the write is refused,
// the document re-read and the report tried again on the fresh state. So the trip distance sums exact positions and
// a report never overwrites a claim, while a driver's second report within the second is answered without a write.

interface KnownVersion {
  loc: DriverLocation;
  version: Timestamp;
}
const known = new BoundedMap<string, KnownVersion>(20_000);
/** Reports of this instance being written now, by driver: a second one within the second is coalesced at once. */
const writing = new Map<string, number>();
const positions = createBatchedWrites();
const REPORT_ATTEMPTS = 3;

/** Drops what this instance remembers of a driver's document: a transaction is about to write it. */
export const forget = (userId: string): void => remember(userId, undefined);

function remember(userId: string, entry: KnownVersion | undefined): void {
  if (!entry) return void known.delete(userId);
  known.set(userId, entry);
}

async function readVersion(userId: string): Promise<KnownVersion | undefined> {
  const snap = await locationsRepo.ref(userId).get();
  const loc = snap.data();
  return loc && snap.updateTime ? { loc, version: snap.updateTime } : undefined;
}

/** A refused precondition (someone wrote since) or a vanished document: re-read and try again. */
function isStaleVersion(err: unknown): boolean {
  return isFailedPrecondition(err) || isNotFound(err);
}

/** A driver's location document before its first position (exported for the availability unit test). */
export function emptyLocation(profile: DriverProfile, now: number): DriverLocation {
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
    jobKeys: [],
    currentJobId: null,
    currentJobKind: null,
    jobCustomerId: null,
    sharedWithId: null,
    locatedAt: null,
    updatedAt: now,
  };
}

async function currentOrNew(tx: Transaction, userId: string, now: number): Promise<DriverLocation> {
  const [loc, profile] = await Promise.all([locationsRepo.get(userId, tx), driverRepo.get(userId)]);
  if (!profile) throw new NotFoundError('Driver profile not found');
  // Capabilities and vehicle are the profile's (an administrator may change them): copied on every write.
  const base = loc ?? emptyLocation(profile, now);
  return { ...base, capabilities: profile.capabilities ?? [], rideClass: rideClassOf(profile.vehicle ?? null) };
}

/** GPS jitter allowed on top of the speed limit between two positions (a fix a few seconds after another). */
export const JUMP_SLACK_M = 100;

/** Metres and seconds of a move the speed limit cannot explain, or undefined when it is plausible (or the first). */
export function implausibleJump(
  from: Pick<DriverLocation, 'lat' | 'lng' | 'locatedAt'>,
  to: LatLng,
  at: number,
  maxSpeedKmh: number,
): { distanceM: number; seconds: number } | undefined {
  if (from.lat === null || from.lng === null || from.locatedAt === null) return undefined;
  const seconds = Math.max(0, (at - from.locatedAt) / 1000);
  const distanceM = distanceMeters({ lat: from.lat, lng: from.lng }, to);
  return distanceM > (maxSpeedKmh / 3.6) * seconds + JUMP_SLACK_M ? { distanceM: Math.round(distanceM), seconds: Math.round(seconds) } : undefined;
}

/**
 * The trip's odometer after a report. Moves within JUMP_SLACK_M (GPS drift) of the last counted point are not
 * driven; and the total never exceeds the speed limit over the time since pickup plus the drift allowance once (a
 * per-report allowance would let faked back-and-forth jitter add ~155 m a second).
 */
export function tripStep(
  loc: Pick<DriverLocation, 'tripActive' | 'tripDistanceM' | 'tripStartedAt' | 'tripAnchor' | 'lat' | 'lng'>,
  point: LatLng,
  at: number,
  maxSpeedKmh?: number,
): { tripDistanceM: number; tripAnchor: LatLng | null } {
  if (!loc.tripActive) return { tripDistanceM: loc.tripDistanceM, tripAnchor: null };
  const anchor = loc.tripAnchor ?? (loc.lat !== null && loc.lng !== null ? { lat: loc.lat, lng: loc.lng } : null);
  if (!anchor) return { tripDistanceM: loc.tripDistanceM, tripAnchor: point };
  const moved = distanceMeters(anchor, point);
  if (moved <= JUMP_SLACK_M) return { tripDistanceM: loc.tripDistanceM, tripAnchor: anchor };
  const capM = maxSpeedKmh && loc.tripStartedAt != null ? (maxSpeedKmh / 3.6) * Math.max(0, (at - loc.tripStartedAt) / 1000) + JUMP_SLACK_M : Infinity;
  return { tripDistanceM: Math.round(Math.min(loc.tripDistanceM + moved, Math.max(loc.tripDistanceM, capM))), tripAnchor: point };
}

export interface LocationUpdate {
  lat: number;
  lng: number;
  heading?: number;
  speedKmh?: number;
}

/** The telemetry a written position sends: to the rider of the current ride, or to the customer a job is shared with. */
export function liveLocationNotice(written: DriverLocation, update: LocationUpdate, at: number) {
  const position = {
    driverId: written.userId,
    lat: update.lat,
    lng: update.lng,
    heading: update.heading ?? null,
    speedKmh: update.speedKmh ?? null,
    at: timestampOf(at),
  };
  if (written.currentRideId && written.riderId)
    return DRIVER_EVENTS.notice({
      event: 'ride:location',
      recipients: [{ userId: written.riderId, surface: 'CON' as const }],
      entityId: written.currentRideId,
      occurrence: String(at),
      roomId: `ride_${written.currentRideId}`,
      realtimeData: { rideId: written.currentRideId, ...position },
    });
  if (written.currentJobId && written.currentJobKind && written.sharedWithId)
    return DRIVER_EVENTS.notice({
      event: 'courier:location',
      recipients: [{ userId: written.sharedWithId, surface: 'CON' as const }],
      entityId: written.currentJobId,
      occurrence: String(at),
      realtimeData: { jobId: written.currentJobId, kind: written.currentJobKind, ...position },
    });
  return undefined;
}

/** `maxSpeedKmh` (DRIVER_MAX_SPEED_KMH): a report farther from the last position than that speed explains is refused. */
export function createDispatchService(deps: { hub: Pick<Hub, 'dispatch'>; maxSpeedKmh?: number; now?: () => number }) {
  const now = deps.now ?? Date.now;

  async function setStatus(userId: string, status: 'ONLINE' | 'OFFLINE') {
    const at = now();
    await inTransaction(async (tx) => {
      const loc = await currentOrNew(tx, userId, at);
      locationsRepo.set(tx, withKeys({ ...loc, status, updatedAt: at }));
      tx.update(driverRepo.ref(userId), { status, updatedAt: at });
    });
    remember(userId, undefined);
  }

  /**
   * Takes a driver out of the pool at once (account locked, DRIVER role removed): OFFLINE on the profile and the
   * position, so neither dispatch, the drivers map nor surge counts them. False when they were not ONLINE, or when
   * the account may drive again by now (a late redelivery of the change must not take a driver let back in offline).
   */
  async function takeOffline(userId: string): Promise<boolean> {
    const at = now();
    const changed = await inTransaction(async (tx) => {
      const [loc, account] = await Promise.all([locationsRepo.get(userId, tx), accounts.get(userId, tx)]);
      if (!loc || loc.status !== 'ONLINE' || mayDrive(account)) return false;
      locationsRepo.set(tx, withKeys({ ...loc, status: 'OFFLINE', updatedAt: at }));
      tx.update(driverRepo.ref(userId), { status: 'OFFLINE', updatedAt: at });
      return true;
    });
    if (changed) remember(userId, undefined);
    return changed;
  }

  /** The position fields of a report on top of `loc` (distance driven counted while a trip is on). */
  function positionPatch(loc: DriverLocation, update: LocationUpdate, at: number) {
    const point: LatLng = { lat: update.lat, lng: update.lng };
    const trip = tripStep(loc, point, at, deps.maxSpeedKmh);
    const geohash = geohashOf(point);
    return {
      ...point,
      geohash,
      heading: update.heading ?? null,
      speedKmh: update.speedKmh ?? null,
      tripDistanceM: trip.tripDistanceM,
      tripAnchor: trip.tripAnchor,
      dispatchKey: dispatchKeyOf({ ...loc, geohash }),
      jobKeys: jobKeysOf({ ...loc, geohash }),
      prevLocatedAt: loc.locatedAt,
      locatedAt: at,
      updatedAt: at,
    } satisfies Partial<DriverLocation>;
  }

  /** The first report of a driver without a location document: created in a transaction with the profile's fields. */
  async function firstReport(userId: string, update: LocationUpdate, at: number): Promise<DriverLocation | undefined> {
    return inTransaction(async (tx) => {
      const loc = await currentOrNew(tx, userId, at);
      if (positionCovers(loc.locatedAt, at)) return undefined;
      const next = { ...loc, ...positionPatch(loc, update, at) };
      locationsRepo.set(tx, next);
      return next;
    });
  }

  /** Writes the report unless the driver's position is less than a second old; undefined when coalesced. */
  async function writePosition(userId: string, update: LocationUpdate, at: number): Promise<DriverLocation | undefined> {
    for (let attempt = 0; attempt < REPORT_ATTEMPTS; attempt++) {
      const cached = known.get(userId);
      const state = cached ?? (await readVersion(userId));
      if (!state) return firstReport(userId, update, at);
      if (positionCovers(state.loc.locatedAt, at)) {
        remember(userId, state);
        return undefined;
      }
      const jump = deps.maxSpeedKmh ? implausibleJump(state.loc, update, at, deps.maxSpeedKmh) : undefined;
      if (jump && cached) {
        // Judged against what this instance remembers: another instance may have stored a nearer position since.
        remember(userId, undefined);
        continue;
      }
      if (jump) throw new UnprocessableError('The position is too far from the last one for the time between them', jump).withCode('DRIVER_POSITION_JUMP');
      const patch = positionPatch(state.loc, update, at);
      try {
        const result = await positions.update(locationsRepo.ref(userId), storedFields(driverLocationDocument, patch), { lastUpdateTime: state.version });
        const written = { ...state.loc, ...patch };
        remember(userId, { loc: written, version: result.writeTime });
        return written;
      } catch (err) {
        if (!isStaleVersion(err)) throw err;
        remember(userId, undefined);
      }
    }
    // Still refused after re-reading (a driver reporting from several devices at once): the next report carries on.
    return undefined;
  }

  /**
   * A position report: written (≤ 1/s), or coalesced; while on a ride, the rider hears it as `ride:location`; while on
   * a job shared with its customer, the customer hears it as `courier:location`.
   */
  async function report(userId: string, update: LocationUpdate): Promise<{ accepted: true; coalesced: boolean; at: string }> {
    const at = now();
    const answer = (coalesced: boolean) => ({ accepted: true as const, coalesced, at: iso(at) });
    const inFlight = writing.get(userId);
    if (inFlight !== undefined && sameLocationWindow(at, inFlight)) return answer(true);
    writing.set(userId, at);
    let written: DriverLocation | undefined;
    try {
      written = await writePosition(userId, update, at);
    } finally {
      if (writing.get(userId) === at) writing.delete(userId);
    }
    if (!written) return answer(true);
    const notice = liveLocationNotice(written, update, at);
    if (notice) await deps.hub.dispatch(notice);
    return answer(false);
  }

  return { setStatus, takeOffline, report };
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
   * The same drivers for the rider's map, nearest first, reading at most `budget` positions (the geo kit's paging by
   * distance): a crowded area costs the budget, not every driver within the radius.
   */
  async nearbyOnMap(center: LatLng, radiusM: number, rideClass: RideClass, limit: number, at: number, budget: number) {
    const found = await nearbyPage({
      center,
      radiusM,
      limit,
      budget,
      read: async (start, end, max) =>
        (await locationsRepo.availableInRange(rideClass, start, end, max)) as Array<DriverLocation & { id: string; geohash: string }>,
      pointOf: (l) => ({ lat: l.lat!, lng: l.lng! }),
      keep: (l) => isFresh(l, at),
    });
    return found.items.map(({ item, distanceM }) => ({ lat: item.lat!, lng: item.lng!, distanceM: Math.round(distanceM) }));
  },

  /**
   * Gives the driver a ride if they are still available: pass what `txRead` returned for them (read in this
   * transaction, beside the caller's other reads). Undefined when the driver was taken, went offline or is stale.
   */
  txClaim(tx: Transaction, loc: DriverLocation | undefined, ride: { rideId: string; riderId: string; rideClass: RideClass; at: number }) {
    if (!loc || dispatchKeyOf(loc) !== ride.rideClass || !isFresh(loc, ride.at)) return undefined;
    remember(loc.userId, undefined);
    locationsRepo.set(tx, {
      ...loc,
      currentRideId: ride.rideId,
      riderId: ride.riderId,
      tripActive: false,
      tripDistanceM: 0,
      dispatchKey: null,
      jobKeys: [],
      updatedAt: ride.at,
    });
    return { lat: loc.lat!, lng: loc.lng! };
  },

  /** Reads the driver's document (for a later write in the same transaction). */
  txRead: (tx: Transaction, driverId: string) => locationsRepo.get(driverId, tx),

  /** Frees the driver of this ride (a no-op if they already moved on); pass what `txRead` returned. */
  txRelease(tx: Transaction, loc: DriverLocation | undefined, rideId: string, at: number): void {
    if (!loc || loc.currentRideId !== rideId) return;
    remember(loc.userId, undefined);
    locationsRepo.set(tx, withKeys({ ...loc, currentRideId: null, riderId: null, tripActive: false, updatedAt: at }));
  },

  /** Starts counting the distance driven (pickup); pass what `txRead` returned. */
  txStartTrip(tx: Transaction, loc: DriverLocation | undefined, rideId: string, at: number): void {
    if (!loc || loc.currentRideId !== rideId) return;
    remember(loc.userId, undefined);
    locationsRepo.set(tx, {
      ...loc,
      tripActive: true,
      tripDistanceM: 0,
      tripStartedAt: at,
      tripAnchor: loc.lat !== null && loc.lng !== null ? { lat: loc.lat, lng: loc.lng } : null,
      updatedAt: at,
    });
  },

  /** Free drivers of a class in a geohash cell (the supply side of surge pricing). */
  countAvailableInCell: (rideClass: RideClass, cell: string) => locationsRepo.countAvailableInCell(rideClass, cell),

  /** Drivers of a class ONLINE and free now, anywhere (a dashboard figure; freshness not checked). */
  countAvailable: (rideClass: RideClass) => locationsRepo.countAvailable(rideClass),

  location: (driverId: string) => locationsRepo.get(driverId),
  profile: (driverId: string) => driverRepo.get(driverId),
};
