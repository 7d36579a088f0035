import { Timestamp } from 'firebase-admin/firestore';
import type { SeedContext } from '../../../src/platform/core/module/maintenance';
import { emptyLocation, liveLocationNotice } from '../../../src/modules/driver/driver.dispatch';
import { dispatchKeyOf, jobKeysOf, mayDrive, withKeys, type DriverLocation } from '../../../src/modules/driver/driver.model';
import { seedDrivers } from '../../../src/modules/driver/driver.seed';
import { contractProblems } from '../../helpers/contract';

const T = 1_900_000_000_000;
// The location document as the dispatch service starts it, then located: the real shape, not a copy of it.
const free: DriverLocation = {
  ...emptyLocation(
    {
      userId: 'd1',
      capabilities: ['RIDE', 'COURIER', 'DELIVERY'],
      vehicle: { type: 'MOTORBIKE', plate: '59X1-1', model: null, color: null, seats: 2 },
      status: 'ONLINE',
      lastLocation: null,
      approvedAt: T,
      createdAt: T,
      updatedAt: T,
    },
    T,
  ),
  lat: 10.77,
  lng: 106.7,
  geohash: 'w3gv2',
  locatedAt: T,
};

describe('availability: dispatchKey (rides) and jobKeys (jobs), never both busy', () => {
  it.each([
    ['free', {}, 'MOTORBIKE', ['COURIER', 'DELIVERY']],
    ['offline', { status: 'OFFLINE' }, null, []],
    ['not located', { geohash: null }, null, []],
    ['on a ride', { currentRideId: 'r1', riderId: 'u1' }, null, []],
    ['on a job', { currentJobId: 'o1', currentJobKind: 'ORDER' }, null, []],
    ['a courier only', { capabilities: ['COURIER', 'DELIVERY'] }, null, ['COURIER', 'DELIVERY']],
    ['parcels only, no vehicle class', { capabilities: ['DELIVERY'], rideClass: null }, null, ['DELIVERY']],
    ['rides only', { capabilities: ['RIDE'] }, 'MOTORBIKE', []],
    ['a document from before jobs (no job fields)', { currentJobId: undefined, jobKeys: undefined }, 'MOTORBIKE', ['COURIER', 'DELIVERY']],
  ] as const)('%s', (_what, change, rideKey, jobKeys) => {
    const loc = { ...free, ...change } as DriverLocation;
    expect([dispatchKeyOf(loc), jobKeysOf(loc)]).toEqual([rideKey, jobKeys]);
    expect(withKeys(loc)).toMatchObject({ dispatchKey: rideKey, jobKeys });
  });

  it('only an unlocked account holding DRIVER may drive', () => {
    expect(mayDrive({ roles: ['DRIVER'], disabled: false })).toBe(true);
    expect(mayDrive({ roles: ['DRIVER'], disabled: true })).toBe(false);
    expect(mayDrive({ roles: ['USER'] })).toBe(false);
    expect(mayDrive(undefined)).toBe(false);
  });
});

describe('the position as telemetry', () => {
  const update = { lat: 10.78, lng: 106.71, heading: 90 };

  it('to the rider of the current ride as ride:location', () => {
    expect(liveLocationNotice({ ...free, currentRideId: 'r1', riderId: 'rider' }, update, T)).toMatchObject({
      event: 'ride:location',
      recipients: [{ userId: 'rider', surface: 'CON' }],
      entityId: 'r1',
      realtimeData: { rideId: 'r1', driverId: 'd1', lat: 10.78, lng: 106.71, heading: 90, speedKmh: null, at: Timestamp.fromMillis(T) },
    });
  });

  it('to the customer of a shared job as courier:location; not before sharing; nothing for a free driver', () => {
    const onJob = { ...free, currentJobId: 'o1', currentJobKind: 'DELIVERY' as const, jobCustomerId: 'customer' };
    expect(liveLocationNotice(onJob, update, T)).toBeUndefined();
    expect(liveLocationNotice({ ...onJob, sharedWithId: 'customer' }, update, T)).toMatchObject({
      event: 'courier:location',
      recipients: [{ userId: 'customer', surface: 'CON' }],
      entityId: 'o1',
      occurrence: String(T),
      realtimeData: { jobId: 'o1', kind: 'DELIVERY', driverId: 'd1', lat: 10.78, lng: 106.71 },
    });
    expect(liveLocationNotice(free, update, T)).toBeUndefined();
  });
});

describe('the demo couriers', () => {
  it('every fifth demo driver is a courier only; every seeded position is a published DriverLocationDocument', async () => {
    const written: Record<string, Record<string, Record<string, unknown>>> = {};
    const drivers = Array.from({ length: 10 }, (_, i) => ({
      id: `seed-driver-${i + 1}`,
      lat: 10.77 + i / 1000,
      lng: 106.7,
      vehicle: { type: i % 3 === 2 ? 'CAR' : 'MOTORBIKE', plate: `59X1-${i}`, model: null, color: null, seats: i % 3 === 2 ? 4 : 2 },
    }));
    const ctx = {
      now: T,
      fixtures: { DEMO_DRIVERS: drivers },
      write: async (collection: string, docs: Record<string, Record<string, unknown>>) => void (written[collection] = docs),
      log: () => undefined,
    } as unknown as SeedContext;
    await seedDrivers(ctx);
    const locations = written.driver_locations;
    for (const [id, data] of Object.entries(locations)) expect({ [id]: contractProblems('DriverLocationDocument', data) }).toEqual({ [id]: [] });
    expect(locations['seed-driver-5']).toMatchObject({ capabilities: ['COURIER', 'DELIVERY'], dispatchKey: null, jobKeys: ['COURIER', 'DELIVERY'] });
    expect(locations['seed-driver-10']).toMatchObject({ capabilities: ['COURIER', 'DELIVERY'], dispatchKey: null, jobKeys: ['COURIER', 'DELIVERY'] });
    expect(locations['seed-driver-3']).toMatchObject({ dispatchKey: 'CAR', jobKeys: ['COURIER', 'DELIVERY'], currentJobId: null, sharedWithId: null });
    expect(written.driver_profiles['seed-driver-5']).toMatchObject({ capabilities: ['COURIER', 'DELIVERY'], status: 'ONLINE' });
    expect(Object.values(written.driver_profiles).filter((p) => (p.capabilities as string[]).includes('RIDE'))).toHaveLength(8);
  });
});
