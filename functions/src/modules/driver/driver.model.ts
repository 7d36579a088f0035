import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { RIDE_CLASSES, type RideClass } from '../routing';

export { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.collections';

// Driver capability flags (spec): what an approved driver may be assigned.
export const CAPABILITIES = ['RIDE', 'COURIER', 'DELIVERY', 'SCHOOL_TRIP'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const DEFAULT_CAPABILITIES: Capability[] = ['RIDE', 'COURIER', 'DELIVERY'];

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
      status: describe(z.enum(['ONLINE', 'OFFLINE']), 'Whether the driver takes rides.'),
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
        'The ride class this driver can take now (ONLINE, RIDE, located, free), else null: the one field searches filter on.',
      ),
      locatedAt: nullableTimestamp('when the position was last written (freshness), apart from status changes.'),
      updatedAt: timestamp('last change.'),
    }),
    "Where a driver is and whether dispatch may give them a ride: read by the driver and by the rider of the driver's current ride.",
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

export function dispatchKeyOf(loc: Pick<DriverLocation, 'status' | 'capabilities' | 'rideClass' | 'currentRideId' | 'geohash'>): RideClass | null {
  return loc.status === 'ONLINE' && loc.capabilities.includes('RIDE') && loc.rideClass && !loc.currentRideId && loc.geohash ? loc.rideClass : null;
}

export function isFresh(loc: Pick<DriverLocation, 'locatedAt'>, now: number): boolean {
  return loc.locatedAt !== null && now - loc.locatedAt <= LOCATION_STALE_MS;
}
