import type { SeedContext } from '../../platform/core/module/maintenance';
import { storedFields } from '../../platform/kits/firestore/documents';
import { geohashOf } from '../../platform/kits/geo/geo';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.collections';
import { DEFAULT_CAPABILITIES, driverLocationDocument, rideClassOf, withKeys, type Capability, type DriverLocation, type Vehicle } from './driver.model';

interface DemoDriver {
  id: string;
  lat: number;
  lng: number;
  vehicle: Vehicle;
}

/**
 * Every fifth demo driver (seed-driver-05, 10, 15, 20, 25, 30: three around each city) is a courier only (COURIER
 * and DELIVERY): free for orders and parcels while the others are busy with rides. The others take all three.
 */
export const COURIER_ONLY: Capability[] = ['COURIER', 'DELIVERY'];
export const demoCapabilities = (index: number): Capability[] => ((index + 1) % 5 === 0 ? COURIER_ONLY : DEFAULT_CAPABILITIES);

// The demo drivers' profiles (a vehicle; RIDE, COURIER, DELIVERY or couriers only), ONLINE at a position in their
// city (emulator only). `npm start` keeps them fresh (scripts/demo-drivers.mjs); a driver not heard from for 10
// minutes is not offered rides or jobs.
export async function seedDrivers(ctx: SeedContext): Promise<void> {
  const { DEMO_DRIVERS: drivers } = ctx.fixtures as { DEMO_DRIVERS: DemoDriver[] };
  const now = ctx.now;
  await ctx.write(
    DRIVER_PROFILES,
    Object.fromEntries(
      drivers.map((d, i) => [
        d.id,
        {
          userId: d.id,
          capabilities: demoCapabilities(i),
          vehicle: d.vehicle,
          status: 'ONLINE',
          lastLocation: null,
          approvedAt: now,
          createdAt: now,
          updatedAt: now,
        },
      ]),
    ),
  );
  const location = (d: DemoDriver, i: number): DriverLocation => {
    const position = { lat: d.lat, lng: d.lng, geohash: geohashOf(d), heading: null, speedKmh: null, locatedAt: now, updatedAt: now };
    const profile = { userId: d.id, status: 'ONLINE' as const, capabilities: demoCapabilities(i), rideClass: rideClassOf(d.vehicle) };
    const free = { currentRideId: null, riderId: null, tripActive: false, tripDistanceM: 0, currentJobId: null, currentJobKind: null };
    return withKeys({ ...position, ...profile, ...free, jobCustomerId: null, sharedWithId: null, dispatchKey: null, jobKeys: [] });
  };
  await ctx.write(DRIVER_LOCATIONS, Object.fromEntries(drivers.map((d, i) => [d.id, storedFields(driverLocationDocument, location(d, i))])));
}
