import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { dispatchPool, jobPool, type JobKind } from '../../../src/modules/driver';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { USERS } from '../../../src/modules/users/users.model';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineCourier, onlineDriver, report, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { realtimeOf } from '../../helpers/notifications';

beforeAll(requireEmulators);

// Jobs (orders for COURIER, parcels for DELIVERY) on the driver's location document, beside rides: who is found,
// who is claimed, and that a driver is never on a ride and a job at once (a real POST /rides racing a claim).

type Here = ReturnType<typeof area>;
const ALL = ['RIDE', 'COURIER', 'DELIVERY'] as const;

const stored = async (driver: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(driver.user.id).get()).data()!;
const ids = (found: Array<{ userId: string }>) => found.map((d) => d.userId);

/** One claim in its own transaction, as the orders module makes it. */
const claim = (driver: Driver, job: { kind?: JobKind; jobId?: string; customerId?: string; capability?: 'COURIER' | 'DELIVERY' } = {}) =>
  inTransaction(async (tx) =>
    jobPool.txClaim(tx, await jobPool.txRead(tx, driver.user.id), {
      kind: job.kind ?? 'ORDER',
      jobId: job.jobId ?? `O-${randomUUID()}`,
      customerId: job.customerId ?? 'customer',
      capability: job.capability ?? 'COURIER',
      at: Date.now(),
    }),
  );
const share = (driver: Driver, jobId: string) =>
  inTransaction(async (tx) => jobPool.txShareWithCustomer(tx, await jobPool.txRead(tx, driver.user.id), jobId, Date.now()));
const release = (driver: Driver, jobId: string) =>
  inTransaction(async (tx) => jobPool.txRelease(tx, await jobPool.txRead(tx, driver.user.id), jobId, Date.now()));

/** A MOTORBIKE ride from `northM` north of the area's centre, 2 km further north. */
const book = (rider: Tokens, here: Here, northM = 0) =>
  call('POST', '/rides', {
    token: rider.accessToken,
    body: { pickup: here.near(northM), dropoff: here.near(northM + 2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' },
    headers: { 'idempotency-key': randomUUID() },
  });

const courierEvents = async (userId: string) => (await realtimeOf(userId)).filter((e) => e.type === 'courier:location');

describe('drivers for jobs', () => {
  it('finds only capable, free, fresh, ONLINE drivers within the radius, nearest first', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(100));
    const parcelsOnly = await onlineCourier(here.near(120), ['DELIVERY']);
    const rideOnly = await onlineDriver(here.near(140), { type: 'MOTORBIKE' }, 'Tài xế An', ['RIDE']);
    const offline = await onlineCourier(here.near(160));
    const stale = await onlineCourier(here.near(180));
    const onRide = await onlineDriver(here.near(1_500), { type: 'MOTORBIKE' }, 'Tài xế Bình', [...ALL]);
    const onJob = await onlineDriver(here.near(220), { type: 'MOTORBIKE' }, 'Tài xế Cường', [...ALL]);
    const far = await onlineCourier(here.near(3_000));
    expect((await call('PATCH', '/driver/me/status', { token: offline.accessToken, body: { status: 'OFFLINE' } })).status).toBe(200);
    await db()
      .collection(DRIVER_LOCATIONS)
      .doc(stale.user.id)
      .update({ locatedAt: Timestamp.fromMillis(Date.now() - 11 * 60_000) });
    // The rider's pickup is at onRide's spot (the nearest RIDE driver there): rideOnly is 1.4 km away.
    const rider = await registerVerified();
    const ride = await book(rider, here, 1_500);
    expect(ride.body).toMatchObject({ status: 'CONFIRMED', driverId: onRide.user.id });
    expect(await claim(onJob)).toEqual(expect.objectContaining({ lat: expect.any(Number) }));

    const now = Date.now();
    expect(ids(await jobPool.nearbyAvailable(here, 2_000, 'COURIER', 10, now))).toEqual([courier.user.id]);
    const parcels = await jobPool.nearbyAvailable(here, 2_000, 'DELIVERY', 10, now);
    expect(ids(parcels)).toEqual([courier.user.id, parcelsOnly.user.id]);
    expect(parcels[0]).toEqual({ userId: courier.user.id, lat: here.near(100).lat, lng: expect.any(Number), distanceM: expect.any(Number) });
    expect(Math.abs(parcels[0].distanceM - 100)).toBeLessThan(5);
    expect(ids(await jobPool.nearbyAvailable(here, 5_000, 'COURIER', 10, now))).toEqual([courier.user.id, far.user.id]);
    expect(ids(await jobPool.nearbyAvailable(here, 5_000, 'COURIER', 1, now))).toEqual([courier.user.id]);
    // Ride dispatch, the other way round: neither couriers without RIDE nor the driver on a job.
    expect(ids(await dispatchPool.nearbyAvailable(here, 2_000, 'MOTORBIKE', 10, now))).toEqual([rideOnly.user.id]);
    // Nor is a claim given to a driver on a ride, a RIDE-only one, a stale or an offline one.
    for (const busy of [onRide, rideOnly, stale, offline]) expect(await claim(busy)).toBeUndefined();
    expect(await claim(parcelsOnly, { capability: 'COURIER' })).toBeUndefined();
    expect(await claim(parcelsOnly, { kind: 'DELIVERY', capability: 'DELIVERY' })).toBeDefined();
  }, 90_000);

  it('a driver locked or without DRIVER is not claimed, even while their document still says ONLINE', async () => {
    const here = area();
    const locked = await onlineCourier(here.near(100));
    const demoted = await onlineCourier(here.near(200));
    await db().collection(USERS).doc(locked.user.id).update({ disabled: true });
    await db()
      .collection(USERS)
      .doc(demoted.user.id)
      .update({ roles: ['USER'] });
    expect(await claim(locked)).toBeUndefined();
    expect(await claim(demoted)).toBeUndefined();
    expect((await stored(locked)).currentJobId ?? null).toBeNull();
  }, 60_000);

  it('claiming the same job again answers the position and writes nothing; another job is refused; two racing jobs get one', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(100));
    const jobId = `O-${randomUUID()}`;
    const first = await claim(courier, { jobId, customerId: 'c1' });
    expect(first).toEqual({ lat: here.near(100).lat, lng: expect.any(Number) });
    const before = await db().collection(DRIVER_LOCATIONS).doc(courier.user.id).get();
    // Retried (and racing) claims of this one job: the same answer, the document untouched.
    expect(await Promise.all([claim(courier, { jobId, customerId: 'c1' }), claim(courier, { jobId, customerId: 'c1' })])).toEqual([first, first]);
    expect((await db().collection(DRIVER_LOCATIONS).doc(courier.user.id).get()).updateTime!.isEqual(before.updateTime!)).toBe(true);
    expect(await claim(courier)).toBeUndefined();
    expect(await claim(courier, { jobId, kind: 'DELIVERY', capability: 'DELIVERY' })).toBeUndefined(); // same id, another kind
    // Nobody carries their own order (a fresh courier, free, asked to deliver to themselves).
    const own = await onlineCourier(here.near(150));
    expect(await claim(own, { customerId: own.user.id })).toBeUndefined();
    expect(await jobPool.currentJob(courier.user.id)).toEqual({ kind: 'ORDER', id: jobId });
    expect((await call('GET', '/driver/me', { token: courier.accessToken })).body).toMatchObject({
      currentJob: { kind: 'ORDER', id: jobId },
      currentRideId: null,
    });

    await release(courier, jobId);
    expect(await jobPool.currentJob(courier.user.id)).toBeNull();
    const racing = await Promise.all([claim(courier, { jobId: 'O-a' }), claim(courier, { jobId: 'O-b', kind: 'DELIVERY', capability: 'DELIVERY' })]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    const won = racing[0] ? 'O-a' : 'O-b';
    expect(await stored(courier)).toMatchObject({ currentJobId: won, jobKeys: [], dispatchKey: null });
    // Releasing another job is a no-op.
    await release(courier, won === 'O-a' ? 'O-b' : 'O-a');
    expect((await stored(courier)).currentJobId).toBe(won);
  }, 60_000);
});

describe('a courier raced between a ride and a delivery', () => {
  it('a ride booking (POST /rides) and a delivery claim for the one nearby driver: exactly one of them gets the driver', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(200), { type: 'MOTORBIKE' }, 'Tài xế Dũng', [...ALL]);
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const rider = await registerVerified();
      const jobId = `D-${randomUUID()}`;
      // The claim starts a little later each round, so it lands before, during and after the booking's own claim.
      const [booked, claimed] = await Promise.all([
        book(rider, here),
        new Promise((r) => setTimeout(r, round * 40)).then(() => claim(driver, { jobId, kind: 'DELIVERY', capability: 'DELIVERY' })),
      ]);
      const loc = await stored(driver);
      const rideWon = booked.body.status === 'CONFIRMED';
      expect([rideWon, claimed === undefined]).toEqual([rideWon, rideWon]);
      if (rideWon) {
        expect(booked.body.driverId).toBe(driver.user.id);
        expect(loc).toMatchObject({ currentRideId: booked.body.id, currentJobId: null, jobKeys: [], dispatchKey: null });
        expect((await call('POST', `/rides/${booked.body.id}/cancel`, { token: rider.accessToken, body: {} })).status).toBe(200);
      } else {
        expect(booked.body.status).toBe('NO_DRIVER');
        expect(loc).toMatchObject({ currentRideId: null, currentJobId: jobId, currentJobKind: 'DELIVERY', jobKeys: [], dispatchKey: null });
        await release(driver, jobId);
      }
      outcomes.push(rideWon ? 'ride' : 'delivery');
      // Released either way: available for both again.
      const now = Date.now();
      expect(await stored(driver)).toMatchObject({ currentRideId: null, currentJobId: null, dispatchKey: 'MOTORBIKE', jobKeys: ['COURIER', 'DELIVERY'] });
      expect(ids(await dispatchPool.nearbyAvailable(here, 1_000, 'MOTORBIKE', 5, now))).toEqual([driver.user.id]);
      expect(ids(await jobPool.nearbyAvailable(here, 1_000, 'DELIVERY', 5, now))).toEqual([driver.user.id]);
    }
    expect(outcomes).toHaveLength(6);
  }, 120_000);
});

describe("the customer's view of the courier", () => {
  it('the position reaches the customer (courier:location) only while the job is shared: not before pickup, not after release', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(300));
    const customer = await registerVerified();
    const jobId = `O-${randomUUID()}`;
    expect(await claim(courier, { jobId, customerId: customer.user.id })).toBeDefined();
    expect(await stored(courier)).toMatchObject({ jobCustomerId: customer.user.id, sharedWithId: null });
    await report(courier, here.near(280));
    expect(await courierEvents(customer.user.id)).toEqual([]);

    await share(courier, 'O-another'); // not this driver's job: nothing changes
    expect((await stored(courier)).sharedWithId).toBeNull();
    await share(courier, jobId); // picked up
    expect(await stored(courier)).toMatchObject({ sharedWithId: customer.user.id, currentJobId: jobId });
    await report(courier, here.near(260));
    const heard = await courierEvents(customer.user.id);
    expect(heard).toHaveLength(1);
    expect(heard[0].data).toMatchObject({ jobId, kind: 'ORDER', driverId: courier.user.id, lat: here.near(260).lat });
    expect(heard[0].payload).toMatchObject({ event: 'courier:location', entityId: jobId, surface: 'CON' });
    expect((await realtimeOf(customer.user.id)).filter((e) => e.type === 'ride:location')).toEqual([]);

    await release(courier, jobId); // delivered
    expect(await stored(courier)).toMatchObject({ currentJobId: null, jobCustomerId: null, sharedWithId: null, jobKeys: ['COURIER', 'DELIVERY'] });
    await report(courier, here.near(240));
    expect(await courierEvents(customer.user.id)).toHaveLength(1);
  }, 60_000);

  it('going OFFLINE keeps the job and its sharing (the delivery goes on), and takes the driver out of both pools', async () => {
    const here = area();
    const courier = await onlineDriver(here.near(100), { type: 'MOTORBIKE' }, 'Tài xế Giang', [...ALL]);
    const customer = await registerVerified();
    const jobId = `O-${randomUUID()}`;
    await claim(courier, { jobId, customerId: customer.user.id });
    await share(courier, jobId);
    expect((await call('PATCH', '/driver/me/status', { token: courier.accessToken, body: { status: 'OFFLINE' } })).status).toBe(200);
    expect(await stored(courier)).toMatchObject({ status: 'OFFLINE', currentJobId: jobId, sharedWithId: customer.user.id, jobKeys: [], dispatchKey: null });
    await release(courier, jobId);
    expect(await stored(courier)).toMatchObject({ status: 'OFFLINE', currentJobId: null, jobKeys: [], dispatchKey: null });
    expect((await call('PATCH', '/driver/me/status', { token: courier.accessToken, body: { status: 'ONLINE' } })).status).toBe(200);
    expect(await stored(courier)).toMatchObject({ jobKeys: ['COURIER', 'DELIVERY'], dispatchKey: 'MOTORBIKE' });
  }, 60_000);
});
