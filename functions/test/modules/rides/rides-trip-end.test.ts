import { createHash, randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { paymentCommands } from '../../../src/modules/payments';
import { onRideExpiry, onRideHoldCheck } from '../../../src/modules/rides/rides.tasks';
import { db } from '../../../src/platform/core/firebase/firebase';
import { vnd } from '../../../src/platform/kits/money/money';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { area, drive, onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { narrowedAdmin, startedTrip, walletRider } from '../../helpers/rides';
import { fareCapOf, fareOf } from '../../../src/modules/rides/rides.model';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from '../../../src/modules/driver/driver.collections';
import { RIDES } from '../../../src/modules/rides/rides.collections';
import { LEDGER_ACCOUNTS } from '../../../src/modules/wallet/wallet.collections';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';

beforeAll(requireEmulators);

// A trip that started can always end (issue 29, items 4, 8, 9, 18): timers on every active status, administrators'
// moves out of IN_PROGRESS, holds given back whenever a ride ends abnormally or a booking fails, and locked or
// de-roled drivers out of dispatch at once.

const config = testConfig({ PAYMENTS_MOCK: 'true' });
type Person = Tokens & { email: string };
type Here = ReturnType<typeof area>;
const key = () => randomUUID();
const trip = (here: Here, paymentMethod: 'CASH' | 'WALLET' = 'WALLET') => ({
  pickup: here.near(0),
  dropoff: here.near(3_000),
  vehicleType: 'MOTORBIKE',
  paymentMethod,
});
const book = (rider: Person, body: Record<string, unknown>, idempotencyKey: string | null = key()) =>
  call('POST', '/rides', { token: rider.accessToken, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });
const act = (who: Tokens, id: string, action: string, body?: unknown) =>
  call('POST', `/rides/${id}/${action}`, { token: who.accessToken, ...(body ? { body } : {}) });
const wallet = async (who: Tokens) => (await call('GET', '/wallet', { token: who.accessToken })).body as { balance: number; held: number };
const driverDoc = async (d: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(d.user.id).get()).data()!;
const capOf = (fare: number) => Math.ceil((fare * 1.2) / 1000) * 1000;

describe('timers on every active status', () => {
  it('a driver who vanishes mid-trip: the IN_PROGRESS timer completes the ride at the distance driven (WALLET captured), frees the driver; the rider books again', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await walletRider();
    const ride = await startedTrip(here, rider, driver, { paymentMethod: 'WALLET' });
    expect(await wallet(rider)).toMatchObject({ held: capOf(ride.quote.fare) });
    await drive(driver, here.near(1_000));
    // Not due yet: the task refuses (Cloud Tasks retries it later) and nothing changes.
    await expect(onRideExpiry({ rideId: ride.id }, config)).rejects.toThrow(/not due/);
    // Past max(RIDE_TRIP_TIMEOUT_MIN_SEC 1800, 3 × the quoted duration) since pickup, without a word from the driver.
    const limitSec = Math.max(1_800, 3 * ride.quote.durationSec);
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ pickedUpAt: Timestamp.fromMillis(Date.now() - (limitSec + 60) * 1000) });
    await onRideExpiry({ rideId: ride.id }, config);
    await onRideExpiry({ rideId: ride.id }, config); // delivered twice: nothing more
    const ended = (await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body;
    // Priced on the ~1 km driven and the quoted duration (the overrun is not the rider's), at most the cap.
    expect(ended).toMatchObject({ status: 'COMPLETED', paymentId: expect.any(String) });
    expect(ended.drivenM).toBeGreaterThan(950);
    expect(ended.fare).toBe(
      Math.min(fareOf('MOTORBIKE', ended.drivenM, ride.quote.durationSec, (ride.quote as { surgeBp?: number }).surgeBp ?? 10_000), fareCapOf(ride.quote.fare)),
    );
    expect(await wallet(rider)).toEqual(expect.objectContaining({ balance: 300_000 - ended.fare, held: 0 }));
    expect((await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${driver.user.id}`).get()).get('balance')).toBe(ended.fare - Math.round(ended.fare * 0.2));
    const events = (await call('GET', `/rides/${ride.id}/events`, { token: rider.accessToken })).body.items;
    expect(events.at(-1)).toMatchObject({ action: 'complete', by: 'system:rides', reason: 'The trip did not end in time: completed at the distance driven' });
    expect((await driverDoc(driver)).currentRideId).toBeNull();
    expect((await call('GET', '/rides/current', { token: rider.accessToken })).body.ride).toBeNull();
    const again = await book(rider, trip(here));
    // Free to book again: confirmed, or no driver near (the vanished one sends no positions).
    expect(['CONFIRMED', 'NO_DRIVER']).toContain(again.body.status);
    expect((await act(driver, ride.id, 'complete')).body.code).toBe('RIDE_TRANSITION');
  });

  it('a CASH trip read by its rider at the deadline completes (never free): the cash payment is recorded with the commission owed', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = await startedTrip(here, rider, driver);
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ pickedUpAt: Timestamp.fromMillis(Date.now() - (Math.max(1_800, 3 * ride.quote.durationSec) + 1) * 1000) });
    const read = (await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body;
    expect(read).toMatchObject({ status: 'COMPLETED', drivenM: 0, fare: fareOf('MOTORBIKE', 0, ride.quote.durationSec), paymentId: expect.any(String) });
    expect((await db().collection(PAYMENTS).doc(read.paymentId).get()).data()).toMatchObject({ method: 'CASH', amount: read.fare, payeeId: driver.user.id });
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });

  it('the driver’s complete after the deadline, before the timer ran, wins: the late expiry finds the ride COMPLETED and changes nothing', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await walletRider();
    const ride = await startedTrip(here, rider, driver, { paymentMethod: 'WALLET' });
    await drive(driver, here.near(3_000));
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ pickedUpAt: Timestamp.fromMillis(Date.now() - (Math.max(1_800, 3 * ride.quote.durationSec) + 60) * 1000) });
    const done = await act(driver, ride.id, 'complete');
    expect(done.body).toMatchObject({ status: 'COMPLETED' });
    await onRideExpiry({ rideId: ride.id }, config);
    const after = (await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body;
    expect(after).toMatchObject({ status: 'COMPLETED', fare: done.body.fare, completedAt: done.body.completedAt });
    const events = (await call('GET', `/rides/${ride.id}/events`, { token: rider.accessToken })).body.items.map(
      (e: { action: string; by: string }) => `${e.action}:${e.by === driver.user.id ? 'driver' : e.by}`,
    );
    expect(events.slice(-1)).toEqual(['complete:driver']);
    expect(await wallet(rider)).toMatchObject({ balance: 300_000 - done.body.fare, held: 0 });
  });

  it('an ARRIVED ride nobody boards ends on read after RIDE_ARRIVED_TIMEOUT_SEC (lazy check) with the late-cancel fee for the driver who waited', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(50));
    const rider = await walletRider();
    const ride = (await book(rider, trip(here))).body;
    expect((await act(driver, ride.id, 'arrived')).body.status).toBe('ARRIVED');
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ arrivedAt: Timestamp.fromMillis(Date.now() - 21 * 60_000) });
    expect((await call('GET', `/rides/${ride.id}`, { token: driver.accessToken })).body).toMatchObject({
      status: 'EXPIRED',
      cancelledBy: 'system',
      cancellationFee: 10_000,
      paymentId: expect.any(String),
    });
    expect(await wallet(rider)).toMatchObject({ balance: 290_000, held: 0 });
    expect((await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${driver.user.id}`).get()).get('balance')).toBe(8_000);
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });
});

describe('administrators end a started trip', () => {
  it('cancel from IN_PROGRESS (rides.manage): no fee, hold released, driver freed; the rider cannot, a narrowed admin gets 404', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await walletRider();
    const [admin, narrowed] = [await adminTokens(), await narrowedAdmin([])];
    const ride = await startedTrip(here, rider, driver, { paymentMethod: 'WALLET' });
    expect((await act(rider, ride.id, 'cancel', {})).body.code).toBe('RIDE_TRANSITION');
    expect((await act(narrowed, ride.id, 'cancel', {})).status).toBe(404);
    const cancelled = await act(admin, ride.id, 'cancel', { reason: 'driver unreachable' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'admin', cancellationFee: 0, cancelReason: 'driver unreachable' });
    expect(await wallet(rider)).toMatchObject({ balance: 300_000, held: 0 });
    expect((await driverDoc(driver)).currentRideId).toBeNull();
    const events = (await call('GET', `/rides/${ride.id}/events`, { token: admin.accessToken })).body.items.map((e: { action: string }) => e.action);
    expect(events).toEqual(['assign', 'arrive', 'pickup', 'abort']);
    expect(['CONFIRMED', 'NO_DRIVER']).toContain((await book(rider, trip(here))).body.status);
  });

  it('a driver locked mid-trip: the admin completes at the quote (captured for the driver); the locked driver is never dispatched again', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await walletRider();
    const admin = await adminTokens();
    const ride = await startedTrip(here, rider, driver, { paymentMethod: 'WALLET' });
    expect((await call('DELETE', `/users/admin/${driver.user.id}`, { token: admin.accessToken })).status).toBe(200);
    expect((await act(driver, ride.id, 'complete')).status).toBe(401);
    const path = `/rides/admin/${ride.id}/complete`;
    for (const body of [{}, { fare: 'ALL', reason: 'x' }, { fare: 'QUOTE' }, { fare: 'QUOTE', reason: '' }])
      expect((await call('POST', path, { token: admin.accessToken, body })).status).toBe(400);
    expect((await call('POST', path, { token: rider.accessToken, body: { fare: 'QUOTE', reason: 'x' } })).status).toBe(403);
    expect((await call('POST', path, { token: (await narrowedAdmin([])).accessToken, body: { fare: 'QUOTE', reason: 'x' } })).body.code).toBe(
      'PERMISSION_REQUIRED',
    );
    const done = await call('POST', path, { token: admin.accessToken, body: { fare: 'QUOTE', reason: 'driver locked mid-trip' } });
    expect(done.body).toMatchObject({ status: 'COMPLETED', fare: ride.quote.fare, paymentId: expect.any(String) });
    expect(await wallet(rider)).toMatchObject({ balance: 300_000 - ride.quote.fare, held: 0 });
    expect((await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${driver.user.id}`).get()).get('balance')).toBe(
      ride.quote.fare - Math.round(ride.quote.fare * 0.2),
    );
    expect((await call('POST', path, { token: admin.accessToken, body: { fare: 'QUOTE', reason: 'again' } })).body.code).toBe('RIDE_TRANSITION');
    // The lock took the driver out of the pool (driverAccountChanged)…
    await waitFor(async () => ((await driverDoc(driver)).dispatchKey === null ? true : undefined), { what: 'the locked driver offline' });
    // …and should that trigger be late or lost (put back ONLINE and free here), dispatch still skips the locked account.
    await db().collection(DRIVER_LOCATIONS).doc(driver.user.id).update({ status: 'ONLINE', dispatchKey: 'MOTORBIKE' });
    expect((await book(rider, trip(here))).body.status).toBe('NO_DRIVER');
  });

  it('complete at the driven distance prices what was driven (CASH), at most the cap', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const admin = await adminTokens();
    const ride = await startedTrip(here, rider, driver);
    await drive(driver, here.near(1_000));
    const done = await call('POST', `/rides/admin/${ride.id}/complete`, { token: admin.accessToken, body: { fare: 'DRIVEN', reason: 'app crashed' } });
    expect(done.body).toMatchObject({ status: 'COMPLETED', drivenM: expect.any(Number) });
    expect(done.body.drivenM).toBeGreaterThan(950);
    expect(done.body.drivenM).toBeLessThan(1_050);
    expect(done.body.fare).toBeLessThanOrEqual(capOf(ride.quote.fare));
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });
});

describe('dispatch skips drivers who may not drive (item 8)', () => {
  it('a locked driver, one whose DRIVER role was removed, and one without the RIDE capability are not assigned at once', async () => {
    const admin = await adminTokens();
    for (const change of ['lock', 'role', 'capability'] as const) {
      const here = area();
      const driver = await onlineDriver(here.near(100));
      if (change === 'lock') await call('DELETE', `/users/admin/${driver.user.id}`, { token: admin.accessToken });
      if (change === 'role') await call('PATCH', `/users/admin/${driver.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
      if (change === 'capability')
        await db()
          .collection(DRIVER_PROFILES)
          .doc(driver.user.id)
          .update({ capabilities: ['DELIVERY'] });
      const rider = await registerVerified();
      const res = await book(rider, trip(here, 'CASH'));
      expect([change, res.body.status]).toEqual([change, 'NO_DRIVER']);
      expect((await driverDoc(driver)).currentRideId).toBeNull();
    }
  });
});

describe('wallet holds of failed bookings (item 9) and bookings without a key (item 18)', () => {
  it('two bookings of one rider at once, without keys: one ride, the other 409 RIDE_ACTIVE, exactly one hold left', async () => {
    const here = area();
    await Promise.all([onlineDriver(here.near(100)), onlineDriver(here.near(150))]);
    const rider = await walletRider();
    const answers = await Promise.all([book(rider, trip(here), null), book(rider, trip(here), null)]);
    const won = answers.find((a) => a.status === 201);
    expect(won?.body.status).toBe('CONFIRMED');
    const lost = answers.find((a) => a !== won)!;
    // The loser either lost the race in the claim (RIDE_ACTIVE) or found nobody left (NO_DRIVER): no hold kept either way.
    expect(lost.status === 409 ? lost.body.code : lost.body.status).toMatch(/RIDE_ACTIVE|NO_DRIVER/);
    expect(await wallet(rider)).toMatchObject({ balance: 300_000 - capOf(won!.body.quote.fare), held: capOf(won!.body.quote.fare) });
    // A third tap without a key after the fact: refused, nothing held.
    expect((await book(rider, trip(here), null)).body.code).toBe('RIDE_ACTIVE');
    expect((await wallet(rider)).held).toBe(capOf(won!.body.quote.fare));
  });

  it('with an Idempotency-Key a retry returns the same ride (200), without one a second booking is refused', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const k = key();
    const first = await book(rider, trip(here, 'CASH'), k);
    expect(first.status).toBe(201);
    const retry = await book(rider, trip(here, 'CASH'), k);
    expect([200, 201]).toContain(retry.status);
    expect(retry.body.id).toBe(first.body.id);
    expect((await book(rider, trip(here, 'CASH'), null)).body.code).toBe('RIDE_ACTIVE');
  });

  it('a booking retried with its key after its first attempt failed and gave the hold back holds anew', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    const rider = await walletRider(100_000);
    const k = key();
    // The first attempt held, then failed (its hold released), as a double tap answered RIDE_ACTIVE does.
    const rideId = `R${createHash('sha256').update(`rides.create\u0000${rider.user.id}\u0000${k}`).digest('hex').slice(0, 24)}`;
    const first = await paymentCommands(config).hold({
      payerId: rider.user.id,
      amount: vnd(30_000),
      purpose: 'RIDE',
      ref: { type: 'RIDE', id: rideId },
      description: 'Ride (held until the trip ends)',
      idempotencyKey: rideId,
    });
    await paymentCommands(config).release(first.id, 'The booking failed');
    const ride = (await book(rider, trip(here), k)).body;
    expect(ride).toMatchObject({ id: rideId, status: 'CONFIRMED' });
    expect(ride.paymentId).not.toBe(first.id);
    expect(await wallet(rider)).toMatchObject({ held: capOf(ride.quote.fare) });
  });

  it('a hold whose booking never stored a ride is released by the hold check; a ride under way keeps its hold', async () => {
    const rider = await walletRider(100_000);
    const rideId = `R${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const hold = await paymentCommands(config).hold({
      payerId: rider.user.id,
      amount: vnd(40_000),
      purpose: 'RIDE',
      ref: { type: 'RIDE', id: rideId },
      description: 'Ride (held until the trip ends)',
      idempotencyKey: rideId,
    });
    expect(await wallet(rider)).toMatchObject({ balance: 60_000, held: 40_000 });
    // Early (a booking may still be storing its ride): refused, retried later; nothing released.
    await expect(onRideHoldCheck({ rideId, paymentId: hold.id }, config)).rejects.toThrow(/not due/);
    expect((await wallet(rider)).held).toBe(40_000);
    const due = (paymentId: string) =>
      db()
        .collection(PAYMENTS)
        .doc(paymentId)
        .update({ createdAt: Timestamp.fromMillis(Date.now() - 901_000) });
    await due(hold.id);
    await onRideHoldCheck({ rideId, paymentId: hold.id }, config);
    await onRideHoldCheck({ rideId, paymentId: hold.id }, config);
    expect(await wallet(rider)).toMatchObject({ balance: 100_000, held: 0 });

    const here = area();
    const driver = await onlineDriver(here.near(100));
    const ride = (await book(rider, trip(here))).body;
    expect(ride.driverId).toBe(driver.user.id);
    await due(ride.paymentId);
    await onRideHoldCheck({ rideId: ride.id, paymentId: ride.paymentId }, config);
    expect((await wallet(rider)).held).toBe(capOf(ride.quote.fare));
    // A second hold taken for the same ride (a retry that held anew) is not the ride's: the check gives it back.
    const stray = await paymentCommands(config).hold({
      payerId: rider.user.id,
      amount: vnd(5_000),
      purpose: 'RIDE',
      ref: { type: 'RIDE', id: ride.id },
      description: 'Ride (held until the trip ends)',
      idempotencyKey: `${ride.id}-stray`,
    });
    await due(stray.id);
    await onRideHoldCheck({ rideId: ride.id, paymentId: stray.id }, config);
    expect((await wallet(rider)).held).toBe(capOf(ride.quote.fare));
  });
});
