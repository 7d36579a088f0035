import type { SeedContext } from '../../platform/core/module/maintenance';
import { storedFields } from '../../platform/kits/firestore/documents';
import { geohashOf } from '../../platform/kits/geo/geo';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.collections';
import { driverLocationDocument, rideClassOf, type Vehicle } from './driver.model';

interface DemoDriver {
  id: string;
  lat: number;
  lng: number;
  vehicle: Vehicle;
}

// The demo drivers' profiles (RIDE, a vehicle), ONLINE at a position in their city (emulator only). `npm start`
// keeps them fresh (scripts/demo-drivers.mjs); a driver not heard from for 10 minutes is not offered rides.
export async function seedDrivers(ctx: SeedContext): Promise<void> {
  const { DEMO_DRIVERS: drivers } = ctx.fixtures as { DEMO_DRIVERS: DemoDriver[] };
  const now = ctx.now;
  const capabilities = ['RIDE', 'COURIER', 'DELIVERY'];
  await ctx.write(
    DRIVER_PROFILES,
    Object.fromEntries(
      drivers.map((d) => [
        d.id,
        { userId: d.id, capabilities, vehicle: d.vehicle, status: 'ONLINE', lastLocation: null, approvedAt: now, createdAt: now, updatedAt: now },
      ]),
    ),
  );
  const location = (d: DemoDriver) => {
    const rideClass = rideClassOf(d.vehicle);
    const fields = { userId: d.id, lat: d.lat, lng: d.lng, geohash: geohashOf(d), heading: null, speedKmh: null, status: 'ONLINE', capabilities, rideClass };
    const trip = { currentRideId: null, riderId: null, tripActive: false, tripDistanceM: 0, dispatchKey: rideClass, locatedAt: now, updatedAt: now };
    return storedFields(driverLocationDocument, { ...fields, ...trip });
  };
  await ctx.write(DRIVER_LOCATIONS, Object.fromEntries(drivers.map((d) => [d.id, location(d)])));
}
