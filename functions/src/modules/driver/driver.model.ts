import { iso, isoOrNull } from '../../platform/time';
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
export const DRIVER_PROFILES = 'driver_profiles';
export interface DriverProfile {
  userId: string;
  capabilities: Capability[];
  vehicle: Vehicle | null;
  status: 'ONLINE' | 'OFFLINE';
  lastLocation: { lat: number; lng: number; heading: number | null; speedKmh: number | null; at: number } | null;
  /** geohash of lastLocation (platform/geo), for radius queries. */
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

// `driver_locations/{userId}`: where a driver is and whether dispatch may give them a ride. Its own document (not
// the profile): written up to once a second per driver, read by every ride search.
export const DRIVER_LOCATIONS = 'driver_locations';
export const RIDE_CLASSES = ['MOTORBIKE', 'CAR', 'CAR_7'] as const;
export type RideClass = (typeof RIDE_CLASSES)[number];
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

export interface DriverLocation {
  userId: string;
  lat: number | null;
  lng: number | null;
  geohash: string | null;
  heading: number | null;
  speedKmh: number | null;
  status: 'ONLINE' | 'OFFLINE';
  capabilities: Capability[];
  rideClass: RideClass | null;
  currentRideId: string | null;
  riderId: string | null;
  /** Counting the distance driven (between pickup and drop-off of the current ride). */
  tripActive: boolean;
  tripDistanceM: number;
  /** When the trip's counting started (pickup): the distance driven never exceeds what the speed limit allows since. */
  tripStartedAt?: number | null;
  /** The last point counted into the trip: moves within the GPS drift of it are not distance driven. */
  tripAnchor?: { lat: number; lng: number } | null;
  /** The report before the current position (locatedAt): a position right after a long gap is not fresh yet. */
  prevLocatedAt?: number | null;
  /** The ride class this driver can take now (ONLINE, RIDE, located, free), else null: the one field searches filter on. */
  dispatchKey: RideClass | null;
  /** When the position was last written (freshness), apart from status changes. */
  locatedAt: number | null;
  updatedAt: number;
}

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
