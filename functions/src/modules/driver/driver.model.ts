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

export function profileView(p: DriverProfile) {
  return {
    userId: p.userId,
    capabilities: p.capabilities ?? [],
    vehicle: p.vehicle ?? null,
    status: p.status ?? 'OFFLINE',
    lastLocation: p.lastLocation ? { ...p.lastLocation, at: iso(p.lastLocation.at) } : null,
    approvedAt: isoOrNull(p.approvedAt),
    updatedAt: iso(p.updatedAt),
  };
}
