import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { RIDE_CLASSES, type RideClass } from '../routing';
import type { UserRecord } from '../users';

export { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.collections';

// Driver capability flags (spec): what an approved driver may be assigned.
export const CAPABILITIES = ['RIDE', 'COURIER', 'DELIVERY', 'SCHOOL_TRIP'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const DEFAULT_CAPABILITIES: Capability[] = ['RIDE', 'COURIER', 'DELIVERY'];
/** The capabilities jobs are dispatched by: COURIER (food and grocery orders), DELIVERY (parcels), SCHOOL_TRIP (school runs). */
export const JOB_CAPABILITIES = ['COURIER', 'DELIVERY', 'SCHOOL_TRIP'] as const;
export type JobCapability = (typeof JOB_CAPABILITIES)[number];
/** What a driver's job is: an order (orders module), a parcel delivery (parcel delivery module) or a school trip (schools module). */
export const JOB_KINDS = ['ORDER', 'DELIVERY', 'SCHOOL_TRIP'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const VEHICLE_TYPES = ['MOTORBIKE', 'CAR', 'VAN', 'BICYCLE'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export interface Vehicle {
  type: VehicleType;
  plate: string;
  model: string | null;
  color: string | null;
  seats: number | null;
}

// `driver_profiles/{userId}`: what ride matching reads.
export interface DriverProfile {
  userId: string;
  capabilities: Capability[];
  vehicle: Vehicle | null;
  status: 'ONLINE' | 'OFFLINE';
  lastLocation: { lat: number; lng: number; heading: number | null; speedKmh: number | null; at: number } | null;
  /** geohash of lastLocation (platform/kits/geo), for radius queries. */
  geohash?: string | null;
  approvedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The driver's current job, if any. */
export function currentJobOf(loc: Pick<DriverLocation, 'currentJobId' | 'currentJobKind'> | undefined): { kind: JobKind; id: string } | null {
  return loc?.currentJobId && loc.currentJobKind ? { kind: loc.currentJobKind, id: loc.currentJobId } : null;
}

export function profileView(p: DriverProfile, loc?: DriverLocation) {
  return {
    userId: p.userId,
    capabilities: p.capabilities ?? [],
    vehicle: p.vehicle ?? null,
    status: p.status ?? 'OFFLINE',
    lastLocation:
      loc && loc.lat !== null && loc.lng !== null && loc.locatedAt !== null
        ? { lat: loc.lat, lng: loc.lng, heading: loc.heading, speedKmh: loc.speedKmh, at: iso(loc.locatedAt) }
        : p.lastLocation
          ? { ...p.lastLocation, at: iso(p.lastLocation.at) }
          : null,
    currentRideId: loc?.currentRideId ?? null,
    currentJob: currentJobOf(loc),
    approvedAt: isoOrNull(p.approvedAt),
    updatedAt: iso(p.updatedAt),
  };
}

// `driver_locations/{userId}`: where a driver is and whether dispatch may give them a ride.
export { RIDE_CLASSES, type RideClass };
/** A driver not heard from for this long is not offered rides (treated as offline by the search). */
export const LOCATION_STALE_MS = 10 * 60_000;
/**
 * Position writes per driver: the first report of each clock second is written, later ones in the same second are
 * answered without a write (coalesced). Windows rather than "1,000 ms since the last write", so an app reporting
 * every second with a little jitter has every report written, and the document still sees at most one write a second.
 */
export const LOCATION_WINDOW_MS = 1_000;
export const sameLocationWindow = (a: number, b: number): boolean => Math.floor(a / LOCATION_WINDOW_MS) === Math.floor(b / LOCATION_WINDOW_MS);
/** A report at `at` is not written: the position was written in its window, or is newer (another instance's clock). */
export const positionCovers = (locatedAt: number | null, at: number): boolean => locatedAt !== null && (at < locatedAt || sameLocationWindow(at, locatedAt));

export const driverLocationDocument = lazySchema(() =>
  describe(
    z.object({
      userId: describe(z.string(), 'The driver (also the document id).'),
      lat: describe(z.nullable(z.number()), 'Latitude of the last position (null before the first report).'),
      lng: describe(z.nullable(z.number()), 'Longitude of the last position.'),
      geohash: describe(z.nullable(z.string()), 'Geohash of the position (radius queries).'),
      heading: describe(z.nullable(z.number()), 'Degrees from north, as reported.'),
      speedKmh: describe(z.nullable(z.number()), 'Speed as reported.'),
      status: describe(z.enum(['ONLINE', 'OFFLINE']), 'Whether the driver takes rides and jobs.'),
      capabilities: describe(z.array(z.enum(CAPABILITIES)), "The profile's capabilities (copied on every write)."),
      rideClass: describe(z.nullable(z.enum(RIDE_CLASSES)), "The ride class of the driver's vehicle."),
      currentRideId: describe(z.nullable(z.string()), 'The ride the driver is on.'),
      riderId: describe(z.nullable(z.string()), 'The rider of that ride: who else may read this document (firestore.rules).'),
      tripActive: describe(z.boolean(), 'Counting the distance driven (between pickup and drop-off of the current ride).'),
      tripDistanceM: describe(z.number(), 'Metres driven on the current trip so far.'),
      tripStartedAt: describe(
        z.optional(nullableTimestamp("when the trip's counting started (pickup).")),
        "Firestore Timestamp or null: when the trip's counting started (pickup); the distance driven never exceeds what the speed limit allows since.",
      ),
      tripAnchor: describe(
        z.optional(z.nullable(z.object({ lat: z.number(), lng: z.number() }))),
        'The last point counted into the trip: moves within the GPS drift of it are not distance driven.',
      ),
      prevLocatedAt: describe(
        z.optional(nullableTimestamp('the report before the current position.')),
        'Firestore Timestamp or null: the report before the current position (a position right after a long gap is not fresh yet).',
      ),
      dispatchKey: describe(
        z.nullable(z.enum(RIDE_CLASSES)),
        'The ride class this driver can take now (ONLINE, RIDE, located, free of rides and jobs), else null: the one field ride searches filter on.',
      ),
      jobKeys: describe(
        z.optional(z.array(z.enum(JOB_CAPABILITIES))),
        'The job capabilities this driver can be given a job by now (ONLINE, located, free of rides and jobs), else empty: the one field job searches filter on.',
      ),
      currentJobId: describe(z.optional(z.nullable(z.string())), 'The job (an order, a parcel delivery or a school trip) the driver is on.'),
      currentJobKind: describe(z.optional(z.nullable(z.enum(JOB_KINDS))), 'What that job is: ORDER, DELIVERY or SCHOOL_TRIP.'),
      jobCustomerId: describe(z.optional(z.nullable(z.string())), "The job's customer (not a reader until the job is shared with them)."),
      sharedWithId: describe(
        z.optional(z.nullable(z.string())),
        "The job's customer while the job is shared with them (from pickup until the job ends): who else may read this document (firestore.rules).",
      ),
      locatedAt: nullableTimestamp('when the position was last written (freshness), apart from status changes.'),
      updatedAt: timestamp('last change.'),
    }),
    "Where a driver is and whether dispatch may give them a ride or a job: read by the driver, by the rider of the driver's current ride and by the customer of the driver's current job while it is shared.",
  ),
);
export type DriverLocation = RecordOf<typeof driverLocationDocument>;

/** The ride class a vehicle serves: motorbikes, cars, and cars of 7 seats or more (and vans). */
export function rideClassOf(vehicle: Vehicle | null): RideClass | null {
  if (!vehicle) return null;
  if (vehicle.type === 'MOTORBIKE') return 'MOTORBIKE';
  if (vehicle.type === 'VAN' || (vehicle.type === 'CAR' && (vehicle.seats ?? 4) >= 7)) return 'CAR_7';
  if (vehicle.type === 'CAR') return 'CAR';
  return null;
}

type Availability = Pick<DriverLocation, 'status' | 'capabilities' | 'currentRideId' | 'currentJobId' | 'geohash'>;
/** ONLINE, located, and on neither a ride nor a job: a driver is never on both at once. */
const isFree = (loc: Availability): boolean => loc.status === 'ONLINE' && !loc.currentRideId && !loc.currentJobId && !!loc.geohash;

export function dispatchKeyOf(loc: Availability & Pick<DriverLocation, 'rideClass'>): RideClass | null {
  return isFree(loc) && loc.capabilities.includes('RIDE') && loc.rideClass ? loc.rideClass : null;
}

/** The job capabilities the driver may be given a job by now (what `jobKeys` stores). */
export function jobKeysOf(loc: Availability): JobCapability[] {
  return isFree(loc) ? JOB_CAPABILITIES.filter((c) => loc.capabilities.includes(c)) : [];
}

/** Both availability fields, recomputed: every write of a location document goes through this. */
export const withKeys = <L extends DriverLocation>(loc: L): L => ({ ...loc, dispatchKey: dispatchKeyOf(loc), jobKeys: jobKeysOf(loc) });

export function isFresh(loc: Pick<DriverLocation, 'locatedAt'>, now: number): boolean {
  return loc.locatedAt !== null && now - loc.locatedAt <= LOCATION_STALE_MS;
}

/** Whether the account may drive: not locked, and holding DRIVER. Partial: read as stored (nothing checked before). */
export function mayDrive(account: Partial<Pick<UserRecord, 'roles' | 'disabled'>> | undefined): boolean {
  return account !== undefined && account.disabled !== true && Array.isArray(account.roles) && account.roles.includes('DRIVER');
}
