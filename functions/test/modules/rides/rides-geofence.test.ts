import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, drive, onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { completedTrip, startedTrip } from '../../helpers/rides';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { RIDES } from '../../../src/modules/rides/rides.collections';

beforeAll(requireEmulators);

// What the driver says is checked against what the server knows (issue 29, item 5): `arrived` near the pickup,
// `complete` near the drop-off or after most of the trip, the cancellation fee only after a wait at the pickup,
// positions no vehicle could reach refused, and the rider's dispute of a completed trip in the admin queue.

const key = () => randomUUID();
type Here = ReturnType<typeof area>;
const book = (rider: Tokens, here: Here, paymentMethod = 'CASH') =>
  call('POST', '/rides', {
    token: rider.accessToken,
    body: { pickup: here.near(0), dropoff: here.near(3_000), vehicleType: 'MOTORBIKE', paymentMethod },
    headers: { 'idempotency-key': key() },
  });
const act = (who: Tokens, id: string, action: string, body?: unknown) =>
  call('POST', `/rides/${id}/${action}`, { token: who.accessToken, ...(body ? { body } : {}) });
const report = (driver: Driver, at: { lat: number; lng: number }) => call('POST', '/driver/me/location', { token: driver.accessToken, body: at });
const located = async (d: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(d.user.id).get()).data()!;

describe('arrived', () => {
  it('only within RIDE_ARRIVE_RADIUS_M of the pickup by a fresh position; stale or far is refused with a code', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(1_500));
    const rider = await registerVerified();
    const ride = (await book(rider, here)).body;
    const far = await act(driver, ride.id, 'arrived');
    expect([far.status, far.body.code]).toEqual([409, 'RIDE_NOT_AT_PICKUP']);
    expect(far.body.details.distanceM).toBeGreaterThan(1_450);
    await drive(driver, here.near(150));
    await db()
      .collection(DRIVER_LOCATIONS)
      .doc(driver.user.id)
      .update({ locatedAt: Timestamp.fromMillis(Date.now() - 5 * 60_000) });
    expect((await act(driver, ride.id, 'arrived')).body.code).toBe('RIDE_POSITION_STALE');
    await drive(driver, here.near(150));
    expect((await act(driver, ride.id, 'arrived')).body).toMatchObject({ status: 'ARRIVED', arrivedAt: expect.any(String) });
  });
});

describe('complete', () => {
  it('refused far from the drop-off with little driven; allowed once most of the quoted distance was driven', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const ride = await startedTrip(here, await registerVerified(), driver);
    const atOnce = await act(driver, ride.id, 'complete');
    expect([atOnce.status, atOnce.body.code]).toEqual([409, 'RIDE_NOT_AT_DROPOFF']);
    expect(atOnce.body.details).toMatchObject({ drivenM: 0, neededM: Math.ceil(ride.quote.distanceM / 2) });
    await drive(driver, here.near(1_000));
    expect((await act(driver, ride.id, 'complete')).body.code).toBe('RIDE_NOT_AT_DROPOFF');
    // Half the quoted distance (the estimator's road ≈ 1.35 × 3 km) driven, 1 km short of the drop-off: done.
    await drive(driver, here.near(2_100));
    const done = await act(driver, ride.id, 'complete');
    expect(done.body).toMatchObject({ status: 'COMPLETED' });
    expect(done.body.drivenM).toBeGreaterThanOrEqual(ride.quote.distanceM / 2);
  });
});

describe('the cancellation fee', () => {
  it('is not charged past the grace period while the driver is on the way, nor right after arrival; only after the wait', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const onTheWay = (await book(rider, here)).body;
    await db()
      .collection(RIDES)
      .doc(onTheWay.id)
      .update({ confirmedAt: Timestamp.fromMillis(Date.now() - 10 * 60_000), createdAt: Timestamp.fromMillis(Date.now() - 10 * 60_000) });
    expect((await act(rider, onTheWay.id, 'cancel', {})).body).toMatchObject({ status: 'CANCELLED', cancellationFee: 0 });
    const justArrived = (await book(rider, here)).body;
    await act(driver, justArrived.id, 'arrived');
    expect((await act(rider, justArrived.id, 'cancel', {})).body).toMatchObject({ status: 'CANCELLED', cancellationFee: 0 });
    const waited = (await book(rider, here)).body;
    await act(driver, waited.id, 'arrived');
    await db()
      .collection(RIDES)
      .doc(waited.id)
      .update({ arrivedAt: Timestamp.fromMillis(Date.now() - 121_000) });
    expect((await act(rider, waited.id, 'cancel', {})).body).toMatchObject({ status: 'CANCELLED', cancellationFee: 10_000 });
  });
});

describe('position reports', () => {
  it('a jump no vehicle could make is refused with 422 DRIVER_POSITION_JUMP and nothing written', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(0));
    await new Promise((r) => setTimeout(r, 1_100)); // the next clock second, so the report is not coalesced
    const jump = await report(driver, here.near(5_000));
    expect([jump.status, jump.body.code]).toEqual([422, 'DRIVER_POSITION_JUMP']);
    expect(jump.body.details.distanceM).toBeGreaterThan(4_900);
    expect((await located(driver)).lat).toBeCloseTo(here.near(0).lat, 9);
    // A short move in the same time is fine (GPS jitter and city speeds).
    const step = await report(driver, here.near(60));
    expect([step.status, step.body.coalesced]).toEqual([200, false]);
    expect((await located(driver)).lat).toBeCloseTo(here.near(60).lat, 9);
  });
});

describe('disputes', () => {
  it('the rider disputes a completed trip once; it lands in the rides.manage queue; others and late ones refused', async () => {
    const here = area();
    const { driver, rider, ride } = await completedTrip(here);
    const stranger = await registerVerified();
    const dispute = (who: Tokens, body: unknown = { reason: 'FARE', message: 'Đi vòng' }) =>
      call('POST', `/rides/${ride.id}/dispute`, { token: who.accessToken, body });
    for (const body of [{}, { reason: 'MONEY' }, { reason: 'FARE', message: 'x'.repeat(1_001) }]) expect((await dispute(rider, body)).status).toBe(400);
    expect((await dispute(stranger)).status).toBe(404);
    expect((await dispute(driver)).status).toBe(403); // drivers have no CON hat
    const made = await dispute(rider);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: ride.id,
      rideId: ride.id,
      riderId: rider.user.id,
      driverId: driver.user.id,
      reason: 'FARE',
      message: 'Đi vòng',
      status: 'OPEN',
    });
    const again = await dispute(rider);
    expect([again.status, again.body.code, again.body.details.disputeId]).toEqual([409, 'RIDE_DISPUTE_EXISTS', ride.id]);

    const admin = await adminTokens();
    const queue = (await call('GET', '/rides/admin/disputes?limit=50', { token: admin.accessToken })).body.items;
    expect(queue).toContainEqual(expect.objectContaining({ rideId: ride.id, reason: 'FARE' }));
    expect((await call('GET', '/rides/admin/disputes', { token: rider.accessToken })).status).toBe(403);

    const active = (await book(rider, here)).body;
    expect((await call('POST', `/rides/${active.id}/dispute`, { token: rider.accessToken, body: { reason: 'OTHER' } })).body.code).toBe('RIDE_DISPUTE_WINDOW');
    const old = await completedTrip(area());
    await db()
      .collection(RIDES)
      .doc(old.ride.id)
      .update({ endedAt: Timestamp.fromMillis(Date.now() - 8 * 86_400_000) });
    expect((await call('POST', `/rides/${old.ride.id}/dispute`, { token: old.rider.accessToken, body: { reason: 'ROUTE' } })).body.code).toBe(
      'RIDE_DISPUTE_WINDOW',
    );
  });
});
