import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { RIDE_SYSTEM_REASONS, signQuote } from '../../../src/modules/rides/rides.model';
import { onSosCreated } from '../../../src/modules/rides/rides.triggers';
import type { DispatchInput } from '../../../src/modules/notifications/hub';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { testConfig } from '../../helpers/config';
import { quoteKeyOf } from '../../../src/modules/rides/rides.service';
import { db } from '../../../src/platform/core/firebase/firebase';
import { geohashOf } from '../../../src/platform/kits/geo/geo';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { expectAllPublished, expectPublished } from '../../helpers/contract';
import { area, drive, onlineDriver, type Driver } from '../../helpers/drivers';
import { localSecret, requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { seedRide } from '../../helpers/payables';
import { deleteAll } from '../../helpers/cleanup';
import { newUserRecord, USERS } from '../../../src/modules/users/users.model';
import { INBOX, REALTIME } from '../../../src/modules/notifications/notifications.collections';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { RIDES } from '../../../src/modules/rides/rides.collections';
import { LEDGER_ACCOUNTS, LEDGER_TRANSFERS } from '../../../src/modules/wallet/wallet.collections';
import { EVENTS } from '../../../src/platform/kits/state-machine/state-machine';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';

beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const key = () => randomUUID();
const book = (rider: Person, body: Record<string, unknown>, idempotencyKey = key()) =>
  call('POST', '/rides', { token: rider.accessToken, body, headers: { 'idempotency-key': idempotencyKey } });
const act = (who: Person, id: string, action: string, body?: unknown) =>
  call('POST', `/rides/${id}/${action}`, { token: who.accessToken, ...(body ? { body } : {}) });
const inbox = async (userId: string, entityId: string) =>
  (await db().collection(INBOX).where('recipientId', '==', userId).where('entityId', '==', entityId).get()).docs.map((d) => d.data());
const driverDoc = async (d: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(d.user.id).get()).data()!;

describe('quotes', () => {
  it('prices every vehicle type with a signed quote; a quote for another rider, altered or expired is refused', async () => {
    const here = area();
    const rider = await registerVerified();
    const res = await call('POST', '/rides/quote', { token: rider.accessToken, body: { pickup: here.near(0), dropoff: here.near(3_000, 2_000) } });
    expect(res.status).toBe(200);
    expect(res.body.quotes.map((q: { vehicleType: string }) => q.vehicleType)).toEqual(['MOTORBIKE', 'CAR', 'CAR_7']);
    const [bike, car] = res.body.quotes;
    expect(bike).toMatchObject({ currency: 'VND', surge: 1, distanceM: expect.any(Number) });
    expect(bike.distanceM).toBeGreaterThan(3_600 * 1.3);
    expect(car.fare).toBeGreaterThan(bike.fare);
    expect(bike.fare % 1000).toBe(0);
    const body = { pickup: here.near(0), dropoff: here.near(3_000, 2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' };
    const other = await registerVerified();
    expect((await book(other, { ...body, quoteId: bike.quoteId })).body.code).toBe('RIDE_QUOTE_INVALID');
    const [payload, signature] = bike.quoteId.split('.');
    const cheaper = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), fare: 1_000 })).toString('base64url');
    expect((await book(rider, { ...body, quoteId: `${cheaper}.${signature}` })).body.code).toBe('RIDE_QUOTE_INVALID');
    expect((await book(rider, { ...body, vehicleType: 'CAR', quoteId: bike.quoteId })).body.code).toBe('RIDE_QUOTE_INVALID');
    const expired = signQuote(
      {
        riderId: rider.user.id,
        rideClass: 'MOTORBIKE',
        pickup: body.pickup,
        dropoff: body.dropoff,
        fare: 20_000,
        distanceM: 5_000,
        durationSec: 600,
        surgeBp: 10_000,
        expiresAt: Date.now() - 1,
      },
      quoteKeyOf(localSecret('JWT_SECRET')),
    );
    expect((await book(rider, { ...body, quoteId: expired })).body.code).toBe('RIDE_QUOTE_EXPIRED');
    expect((await call('POST', '/rides/quote', { token: rider.accessToken, body: { pickup: { lat: 91, lng: 0 }, dropoff: here.near(10) } })).status).toBe(400);
    expect((await call('POST', '/rides/quote', { token: rider.accessToken, body: { pickup: here.near(0), dropoff: here.near(0) } })).status).toBe(400);
  });
  it('surges where requests outnumber free drivers in the pickup cell, up to 2×, and prices the fare with it', async () => {
    const here = area();
    const [calm, busy] = [await registerVerified(), await registerVerified()];
    const trip = { pickup: here.near(0), dropoff: here.near(3_000, 2_000), vehicleType: 'MOTORBIKE' };
    const calmQuote = (await call('POST', '/rides/quote', { token: calm.accessToken, body: trip })).body.quotes[0];
    // Another spot whose cell had twelve requests in the last ten minutes and has no free driver.
    const crowded = area();
    const cell = geohashOf(crowded.near(0)).slice(0, 5);
    const recent = Timestamp.fromMillis(Date.now() - 60_000);
    // Whole rides as the module stores them (the admin ride list shows them), only created within the surge's window.
    await Promise.all(Array.from({ length: 12 }, (_, i) => seedRide(`r-${i}`, { status: 'NO_DRIVER', pickupCell: cell, createdAt: recent })));
    const surged = (
      await call('POST', '/rides/quote', { token: busy.accessToken, body: { ...trip, pickup: crowded.near(0), dropoff: crowded.near(3_000, 2_000) } })
    ).body.quotes[0];
    expect(calmQuote.surge).toBe(1);
    expect(surged.surge).toBe(2);
    expect(surged.fare).toBeGreaterThanOrEqual(calmQuote.fare * 2 - 1_000);
  });
});

describe('a cash ride from booking to rating', () => {
  it('assigns the nearest free driver, follows the trip, prices what was driven, notifies both, and takes one rating', async () => {
    const here = area();
    const [far, near] = [await onlineDriver(here.near(1_500)), await onlineDriver(here.near(300), { type: 'MOTORBIKE' }, 'Anh Tuấn')];
    const rider = await registerVerified({ name: 'Chị Mai' });
    const quote = (
      await call('POST', '/rides/quote', { token: rider.accessToken, body: { pickup: here.near(0), dropoff: here.near(4_000), vehicleType: 'MOTORBIKE' } })
    ).body.quotes[0];
    const booked = await book(rider, {
      pickup: { ...here.near(0), address: '12 Lê Lợi' },
      dropoff: here.near(4_000),
      vehicleType: 'MOTORBIKE',
      paymentMethod: 'CASH',
      quoteId: quote.quoteId,
      note: 'Cổng số 2',
    });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      status: 'CONFIRMED',
      driverId: near.user.id,
      driver: { name: 'Anh Tuấn', vehicle: { type: 'MOTORBIKE' } },
      quote: { fare: quote.fare },
      etaToPickupSec: expect.any(Number),
    });
    const id = booked.body.id;
    expect((await driverDoc(near)).currentRideId).toBe(id);
    expect((await driverDoc(far)).currentRideId).toBeNull();
    expect((await call('GET', '/rides/current', { token: rider.accessToken })).body.ride.id).toBe(id);
    expect((await call('GET', '/driver/rides/current', { token: near.accessToken })).body.ride.id).toBe(id);
    expect((await act(rider, id, 'arrived')).status).toBe(403);
    expect((await act(far, id, 'arrived')).status).toBe(404);
    expect((await act(near, id, 'pickup')).body.code).toBe('RIDE_TRANSITION');
    // 300 m from the pickup is not there yet (RIDE_ARRIVE_RADIUS_M 200).
    expect((await act(near, id, 'arrived')).body.code).toBe('RIDE_NOT_AT_PICKUP');
    await drive(near, here.near(0));
    expect((await act(near, id, 'arrived')).body.status).toBe('ARRIVED');
    expect((await act(near, id, 'pickup')).body.status).toBe('IN_PROGRESS');
    await drive(near, here.near(1_000));
    await drive(near, here.near(2_500));
    await drive(near, here.near(4_000));
    const done = await act(near, id, 'complete');
    expect(done.body).toMatchObject({ status: 'COMPLETED', paymentId: expect.any(String) });
    // Counted from the pickup to the drop-off: 4 km.
    expect(done.body.drivenM).toBeGreaterThan(3_950);
    expect(done.body.drivenM).toBeLessThan(4_050);
    expect(done.body.fare).toBeGreaterThan(0);
    expect(done.body.fare).toBeLessThanOrEqual(Math.ceil((quote.fare * 1.2) / 1000) * 1000);
    expect((await act(near, id, 'complete')).body.code).toBe('RIDE_TRANSITION');
    expect((await driverDoc(near)).currentRideId).toBeNull();
    // Cash: the driver owes the platform its commission from earnings.
    const earnings = (await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${near.user.id}`).get()).get('balance');
    expect(earnings).toBe(-Math.round(done.body.fare * 0.2));
    expect((await act(rider, id, 'rating', { stars: 5, comment: 'Chạy êm' })).body.rating).toEqual({ stars: 5, comment: 'Chạy êm' });
    expect((await act(rider, id, 'rating', { stars: 1 })).body.code).toBe('RIDE_ALREADY_RATED');
    expect((await act(near, id, 'rating', { stars: 5 })).status).toBe(404);
    const history = (await call('GET', '/driver/rides', { token: near.accessToken })).body.items;
    expect(history[0]).toMatchObject({ id, earnings: done.body.fare - Math.round(done.body.fare * 0.2) });
    const events = (await db().collection(`${RIDES}/${id}/${EVENTS}`).orderBy('at').get()).docs.map((d) => `${d.get('from')}>${d.get('to')}`);
    expect(events).toEqual(['NEW>CONFIRMED', 'CONFIRMED>ARRIVED', 'ARRIVED>IN_PROGRESS', 'IN_PROGRESS>COMPLETED']);
    const riderNotices = await waitFor(
      async () => {
        const items = await inbox(rider.user.id, id);
        return items.length >= 4 ? items : undefined;
      },
      { timeoutMs: 60_000, what: 'the rider notices' },
    );
    expect(riderNotices.map((n) => n.event).sort()).toEqual(['ride.arrived', 'ride.completed', 'ride.matched', 'ride.pickup']);
    expect(riderNotices.find((n) => n.event === 'ride.matched')).toMatchObject({
      kind: 'RIDE',
      data: { sfx: 'ride_driver_assigned', deepLink: { tab: 'MapTab', screen: 'RideDetail' } },
    });
    const driverNotices = await waitFor(
      async () => {
        const items = await inbox(near.user.id, id);
        return items.length >= 2 ? items : undefined;
      },
      { timeoutMs: 60_000, what: 'the driver notices' },
    );
    expect(driverNotices.map((n) => n.event).sort()).toEqual(['ride.completed', 'ride.matched']);
    // What rider and driver listen to parses with the published schemas (openapi/firestore.schema.json).
    const stored = await expectPublished('RideDocument', `${RIDES}/${id}`);
    expect(stored.completedAt.toMillis()).toBe(Date.parse(done.body.completedAt));
    await expectPublished('DriverLocationDocument', `${DRIVER_LOCATIONS}/${near.user.id}`);
    await expectAllPublished('InboxItemDocument', db().collection(INBOX).where('recipientId', '==', rider.user.id).where('entityId', '==', id));
    const statuses = await expectAllPublished(
      'RealtimeEventDocument',
      db().collection(REALTIME).where('recipientId', '==', rider.user.id).where('payload.entityId', '==', id),
    );
    expect(statuses.map((e) => e.type)).toContain('ride:status');
  }, 150_000);
});

describe('wallet rides', () => {
  it('holds the quote cap, captures the final fare for the driver (minus commission) and gives the rest back', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(200));
    const rider = await registerVerified();
    await call('POST', '/wallet/topups', { token: rider.accessToken, body: { amount: 300_000, provider: 'MOCK' }, headers: { 'idempotency-key': key() } });
    const booked = await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET' });
    expect(booked.body.status).toBe('CONFIRMED');
    const cap = Math.ceil((booked.body.quote.fare * 1.2) / 1000) * 1000;
    expect((await call('GET', '/wallet', { token: rider.accessToken })).body).toMatchObject({ balance: 300_000 - cap, held: cap });
    await drive(driver, here.near(0));
    await act(driver, booked.body.id, 'arrived');
    await act(driver, booked.body.id, 'pickup');
    await drive(driver, here.near(2_000));
    const done = await act(driver, booked.body.id, 'complete');
    expect(done.body.fare).toBeGreaterThan(0);
    expect(done.body.fare).toBeLessThanOrEqual(cap);
    expect((await call('GET', '/wallet', { token: rider.accessToken })).body).toMatchObject({ balance: 300_000 - done.body.fare, held: 0 });
    const earnings = (await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${driver.user.id}`).get()).get('balance');
    expect(earnings).toBe(done.body.fare - Math.round(done.body.fare * 0.2));
    const payment = (await call('GET', `/payments/${done.body.paymentId}`, { token: rider.accessToken })).body;
    expect(payment).toMatchObject({ status: 'SUCCEEDED', purpose: 'RIDE', capturedAmount: done.body.fare });
    // The wallet documents the rider listens to: the payment, the accounts and the transfers (hold, capture, release).
    await expectPublished('PaymentDocument', `${PAYMENTS}/${done.body.paymentId}`);
    await expectPublished('LedgerAccountDocument', `${LEDGER_ACCOUNTS}/wallet_${rider.user.id}`);
    await expectPublished('LedgerAccountDocument', `${LEDGER_ACCOUNTS}/held_${rider.user.id}`);
    const transfers = await expectAllPublished('LedgerTransferDocument', db().collection(LEDGER_TRANSFERS).where('owners', 'array-contains', rider.user.id));
    expect(transfers.map((t) => t.kind)).toEqual(expect.arrayContaining(['TOPUP', 'HOLD', 'CAPTURE']));
  });

  it('complete sent twice at once (a retry racing the first): one completion, one capture, the rider charged once', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(200));
    const rider = await registerVerified();
    await call('POST', '/wallet/topups', { token: rider.accessToken, body: { amount: 200_000, provider: 'MOCK' }, headers: { 'idempotency-key': key() } });
    const booked = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET' })).body;
    await drive(driver, here.near(0));
    await act(driver, booked.id, 'arrived');
    await act(driver, booked.id, 'pickup');
    await drive(driver, here.near(2_000));
    const answers = await Promise.all([act(driver, booked.id, 'complete'), act(driver, booked.id, 'complete')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const done = answers.find((a) => a.status === 200)!.body;
    expect((await call('GET', '/wallet', { token: rider.accessToken })).body).toMatchObject({ balance: 200_000 - done.fare, held: 0 });
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });

  it('a wallet that does not cover the cap is refused before any driver is taken', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(200));
    const rider = await registerVerified();
    const res = await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET' });
    expect(res.body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });
});

describe('dispatch', () => {
  it('20 riders at once near 5 free drivers: exactly 5 CONFIRMED with distinct drivers, 15 NO_DRIVER, no driver with two rides', async () => {
    const here = area();
    const drivers = await Promise.all([0, 1, 2, 3, 4].map((i) => onlineDriver(here.near(100 + i * 150, i * 50))));
    const riders = await Promise.all(Array.from({ length: 20 }, () => registerVerified()));
    const results = await Promise.all(
      riders.map((r, i) => book(r, { pickup: here.near(i * 20), dropoff: here.near(3_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })),
    );
    const confirmed = results.filter((r) => r.status === 201 && r.body.status === 'CONFIRMED');
    expect(confirmed).toHaveLength(5);
    expect(results.filter((r) => r.status === 200 && r.body.status === 'NO_DRIVER')).toHaveLength(15);
    expect(new Set(confirmed.map((r) => r.body.driverId)).size).toBe(5);
    const held = await Promise.all(drivers.map(driverDoc));
    expect(held.map((d) => d.currentRideId).sort()).toEqual(confirmed.map((r) => r.body.id).sort());
  }, 120_000);

  it('skips a driver who went offline, one not heard from for 10 minutes, and one of another vehicle type; no driver → 200 NO_DRIVER', async () => {
    const here = area();
    const offline = await onlineDriver(here.near(100));
    await call('PATCH', '/driver/me/status', { token: offline.accessToken, body: { status: 'OFFLINE' } });
    const stale = await onlineDriver(here.near(150));
    await db()
      .collection(DRIVER_LOCATIONS)
      .doc(stale.user.id)
      .update({ locatedAt: Timestamp.fromMillis(Date.now() - 11 * 60_000) });
    const car = await onlineDriver(here.near(200), { type: 'CAR' });
    const rider = await registerVerified();
    const res = await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' });
    expect(res).toMatchObject({ status: 200, body: { status: 'NO_DRIVER', driverId: null } });
    const byCar = await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'CAR', paymentMethod: 'CASH' });
    expect(byCar).toMatchObject({ status: 201, body: { status: 'CONFIRMED', driverId: car.user.id } });
    expect((await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'CAR', paymentMethod: 'CASH' })).body.code).toBe('RIDE_ACTIVE');
  });

  it('widens the search once: a driver 4 km away is found (radius 3 km, then 6 km), one 7 km away is not', async () => {
    const here = area();
    const rider = await registerVerified();
    await onlineDriver(here.near(7_000));
    expect((await book(rider, { pickup: here.near(0), dropoff: here.near(-2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body.status).toBe(
      'NO_DRIVER',
    );
    const fourKm = await onlineDriver(here.near(-4_000));
    expect((await book(rider, { pickup: here.near(0), dropoff: here.near(-2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body.driverId).toBe(
      fourKm.user.id,
    );
  });

  it('a retried booking (same key) is the same ride, even in parallel', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    await onlineDriver(here.near(200));
    const rider = await registerVerified();
    const k = key();
    const body = { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' };
    const [a, b] = await Promise.all([book(rider, body, k), book(rider, body, k)]);
    const ok = [a, b].filter((r) => r.status === 201 || r.status === 200);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect([a, b].every((r) => r.status < 300 || r.body.code === 'IDEMPOTENCY_IN_PROGRESS')).toBe(true);
    expect((await book(rider, body, k)).body.id).toBe(ok[0].body.id);
  });
});

describe('cancellations and races', () => {
  it('rider cancels while the driver marks ARRIVED: either order ends CANCELLED with a consistent fee, the driver freed', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    const [cancelled, arrived] = await Promise.all([act(rider, ride.id, 'cancel', { reason: 'changed plans' }), act(driver, ride.id, 'arrived')]);
    // The cancellation always lands (CONFIRMED and ARRIVED both allow it); the arrival only if it came first.
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'rider' });
    // No fee either way: the driver had not waited RIDE_CANCEL_WAIT_SEC at the pickup.
    expect(cancelled.body.cancellationFee).toBe(0);
    if (arrived.status !== 200) expect([arrived.status, arrived.body.code]).toEqual([409, 'RIDE_TRANSITION']);
    const events = (await db().collection(`${RIDES}/${ride.id}/${EVENTS}`).orderBy('at').get()).docs.map((d) => d.get('to'));
    expect(events).toEqual(arrived.status === 200 ? ['CONFIRMED', 'ARRIVED', 'CANCELLED'] : ['CONFIRMED', 'CANCELLED']);
    expect((await driverDoc(driver)).currentRideId).toBeNull();
  });

  it('a driver who cancels sends the ride to another driver once; the second driver cancelling ends it NO_DRIVER', async () => {
    const here = area();
    const [first, second] = [await onlineDriver(here.near(100)), await onlineDriver(here.near(400))];
    const rider = await registerVerified();
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    expect(ride.driverId).toBe(first.user.id);
    const moved = await act(first, ride.id, 'cancel', { reason: 'flat tyre' });
    expect(moved.body).toMatchObject({ status: 'CONFIRMED', driverId: second.user.id });
    expect((await driverDoc(first)).currentRideId).toBeNull();
    expect((await call('GET', `/rides/${ride.id}`, { token: first.accessToken })).status).toBe(404);
    const ended = await act(second, ride.id, 'cancel', {});
    expect(ended.body).toMatchObject({ status: 'NO_DRIVER', cancelledBy: 'driver' });
    expect((await driverDoc(second)).currentRideId).toBeNull();
    expect((await call('GET', '/rides/current', { token: rider.accessToken })).body.ride).toBeNull();
  });

  it('a rider cancelling after the driver waited at the pickup pays the driver the fee and gets the rest back', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    await call('POST', '/wallet/topups', { token: rider.accessToken, body: { amount: 200_000, provider: 'MOCK' }, headers: { 'idempotency-key': key() } });
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET' })).body;
    expect((await act(driver, ride.id, 'arrived')).body.status).toBe('ARRIVED');
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ arrivedAt: Timestamp.fromMillis(Date.now() - 5 * 60_000) });
    // The rider's reason copies the service's no-show text word for word: it stays the rider's words (the driver
    // reads Vietnamese, so a translation would show).
    expect((await call('PATCH', '/users/me', { token: driver.accessToken, body: { locale: 'vi' } })).status).toBe(200);
    const cancelled = await act(rider, ride.id, 'cancel', { reason: RIDE_SYSTEM_REASONS.riderNoShow });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancellationFee: 10_000, cancelledBy: 'rider', cancelReason: RIDE_SYSTEM_REASONS.riderNoShow });
    expect((await db().collection(RIDES).doc(ride.id).get()).get('cancelReasonCode')).toBeNull();
    const notice = await waitFor(async () => (await inbox(driver.user.id, ride.id)).find((n) => n.event === 'ride.cancelled'), {
      what: "the driver's cancel notice",
    });
    expect(notice.body).toBe(RIDE_SYSTEM_REASONS.riderNoShow); // as written, not 'Khách không đến điểm đón'
    expect((await call('GET', '/wallet', { token: rider.accessToken })).body).toMatchObject({ balance: 190_000, held: 0 });
    expect((await db().collection(LEDGER_ACCOUNTS).doc(`earnings_${driver.user.id}`).get()).get('balance')).toBe(8_000);
  });

  it('a CONFIRMED ride whose driver never arrives expires after 30 minutes (read lazily), freeing the driver', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ confirmedAt: Timestamp.fromMillis(Date.now() - 31 * 60_000) });
    expect((await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body.status).toBe('EXPIRED');
    expect((await driverDoc(driver)).currentRideId).toBeNull();
    expect((await act(driver, ride.id, 'arrived')).body.code).toBe('RIDE_TRANSITION');
  });
});

describe('live location', () => {
  it("the rider reads the driver's position, and hears ride:location events while the ride is active", async () => {
    const here = area();
    const driver = await onlineDriver(here.near(500));
    const rider = await registerVerified();
    const stranger = await registerVerified();
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    await drive(driver, here.near(250));
    const seen = await call('GET', `/rides/${ride.id}/driver-location`, { token: rider.accessToken });
    expect(seen.body).toMatchObject({ driverId: driver.user.id, location: { lat: expect.closeTo(here.near(250).lat, 6) } });
    expect(seen.body.distanceToPickupM).toBeGreaterThan(200);
    expect((await call('GET', `/rides/${ride.id}/driver-location`, { token: stranger.accessToken })).status).toBe(404);
    const events = await waitFor(
      async () => {
        const docs = (await db().collection(REALTIME).where('recipientId', '==', rider.user.id).where('type', '==', 'ride:location').get()).docs;
        return docs.length > 0 ? docs.map((d) => d.data()) : undefined;
      },
      { what: 'ride:location' },
    );
    expect(events[0].data).toMatchObject({ rideId: ride.id, driverId: driver.user.id });
    expect(await inbox(rider.user.id, ride.id)).not.toContainEqual(expect.objectContaining({ event: 'ride:location' }));
  });
});

describe('routing', () => {
  it('answers ETA and route (with a polyline) from the estimator; bad points are 400; anonymous 401', async () => {
    const rider = await registerVerified();
    const body = { from: { lat: 10.7769, lng: 106.7009 }, to: { lat: 10.8231, lng: 106.6297 }, vehicleType: 'CAR' };
    const eta = await call('POST', '/routing/eta', { token: rider.accessToken, body });
    expect(eta.body).toEqual({ distanceM: expect.any(Number), durationSec: expect.any(Number), provider: 'estimator' });
    const route = await call('POST', '/routing/route', { token: rider.accessToken, body });
    expect(route.body).toMatchObject({ distanceM: eta.body.distanceM, polyline: expect.any(String), provider: 'estimator' });
    expect((await call('POST', '/routing/eta', { token: rider.accessToken, body: { ...body, from: { lat: 'x', lng: 1 } } })).status).toBe(400);
    expect((await call('POST', '/routing/eta', { token: rider.accessToken, body: { ...body, vehicleType: 'TRUCK' } })).status).toBe(400);
    expect((await call('POST', '/routing/eta', { body })).status).toBe(401);
  });
});

describe('around the trip', () => {
  it('fares, free drivers on the map, the timeline, a tip, the driver rating, and the admin list', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(300));
    const rider = await registerVerified();
    const fares = (await call('GET', '/rides/fares', { token: rider.accessToken })).body;
    expect(fares.fares.map((f: { vehicleType: string }) => f.vehicleType)).toEqual(['MOTORBIKE', 'CAR', 'CAR_7']);
    expect(fares).toMatchObject({ currency: 'VND', maxSurge: 2, finalFareCap: 1.2, quoteTtlSec: 300 });
    const map = (await call('GET', `/rides/drivers/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=1000`, { token: rider.accessToken })).body;
    expect(map).toMatchObject({ count: 1, vehicleType: 'MOTORBIKE', drivers: [{ distanceM: expect.any(Number) }] });
    expect([250, 300, 350]).toContain(map.drivers[0].distanceM); // measured from the blurred position (0.001°), issue 29
    expect(JSON.stringify(map)).not.toContain(driver.user.id);
    expect((await call('GET', `/rides/drivers/nearby?lat=abc&lng=${here.lng}`, { token: rider.accessToken })).status).toBe(400);
    await call('POST', '/wallet/topups', { token: rider.accessToken, body: { amount: 100_000, provider: 'MOCK' }, headers: { 'idempotency-key': key() } });
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    const tipEarly = await call('POST', `/rides/${ride.id}/tip`, { token: rider.accessToken, body: { amount: 10_000 }, headers: { 'idempotency-key': key() } });
    expect(tipEarly.body.code).toBe('RIDE_TRANSITION');
    await drive(driver, here.near(0));
    for (const step of ['arrived', 'pickup']) await act(driver, ride.id, step);
    await drive(driver, here.near(2_000));
    await act(driver, ride.id, 'complete');
    const tipKey = key();
    const tip = await call('POST', `/rides/${ride.id}/tip`, { token: rider.accessToken, body: { amount: 10_000 }, headers: { 'idempotency-key': tipKey } });
    expect(tip).toMatchObject({ status: 201, body: { amount: 10_000, status: 'SUCCEEDED' } });
    expect(
      (await call('POST', `/rides/${ride.id}/tip`, { token: rider.accessToken, body: { amount: 10_000 }, headers: { 'idempotency-key': tipKey } })).body
        .paymentId,
    ).toBe(tip.body.paymentId);
    expect((await call('GET', '/wallet', { token: rider.accessToken })).body.balance).toBe(90_000);
    expect(
      (await call('POST', `/rides/${ride.id}/tip`, { token: driver.accessToken, body: { amount: 10_000 }, headers: { 'idempotency-key': key() } })).status,
    ).toBe(403);
    const timeline = (await call('GET', `/rides/${ride.id}/events`, { token: driver.accessToken })).body.items;
    expect(timeline.map((e: { action: string }) => e.action)).toEqual(['assign', 'arrive', 'pickup', 'complete']);
    await act(rider, ride.id, 'rating', { stars: 4 });
    expect((await call('GET', '/driver/me/rating', { token: driver.accessToken })).body).toEqual({ driverId: driver.user.id, average: 4, count: 1 });
    const admin = await adminTokens();
    const listed = (await call('GET', `/rides/admin?riderId=${rider.user.id}`, { token: admin.accessToken })).body.items;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([ride.id]);
    expect((await call('GET', '/rides/admin?status=COMPLETED&riderId=x', { token: admin.accessToken })).status).toBe(400);
    expect((await call('GET', '/rides/admin', { token: rider.accessToken })).status).toBe(403);
  });

  it('an SOS reaches every administrator once; the queue lists it until it is resolved', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(300));
    const rider = await registerVerified();
    const admin = await adminTokens();
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    const k = key();
    const raised = await call('POST', `/rides/${ride.id}/sos`, {
      token: rider.accessToken,
      body: { message: 'Xe chạy sai đường', location: here.near(100) },
      headers: { 'idempotency-key': k },
    });
    expect(raised).toMatchObject({ status: 201, body: { status: 'OPEN', role: 'RIDER', created: true } });
    expect(
      (
        await call('POST', `/rides/${ride.id}/sos`, {
          token: rider.accessToken,
          body: { message: 'Xe chạy sai đường', location: here.near(100) },
          headers: { 'idempotency-key': k },
        })
      ).body.id,
    ).toBe(raised.body.id);
    const stranger = await registerVerified();
    expect((await call('POST', `/rides/${ride.id}/sos`, { token: stranger.accessToken, body: {}, headers: { 'idempotency-key': key() } })).status).toBe(404);
    const notice = await waitFor(
      async () =>
        (await db().collection(INBOX).where('recipientId', '==', admin.user.id).where('event', '==', 'ride.sos').get()).docs
          .map((d) => d.data())
          .find((n) => n.data?.deepLink?.params?.sosId === raised.body.id),
      { what: 'the SOS notice' },
    );
    expect(notice).toMatchObject({ kind: 'SYSTEM', body: 'Xe chạy sai đường' });
    const queue = (await call('GET', '/rides/admin/sos?status=OPEN&limit=100', { token: admin.accessToken })).body.items;
    expect(queue.map((a: { id: string }) => a.id)).toContain(raised.body.id);
    const resolved = await call('POST', `/rides/admin/sos/${raised.body.id}/resolve`, { token: admin.accessToken, body: { note: 'Called the rider: safe' } });
    expect(resolved.body).toMatchObject({ status: 'RESOLVED', resolvedBy: admin.user.id, note: 'Called the rider: safe' });
    expect((await call('POST', `/rides/admin/sos/${raised.body.id}/resolve`, { token: driver.accessToken, body: {} })).status).toBe(403);
  });

  it('an SOS reaches every active administrator page by page, in id order (both ends of the id space, not the disabled)', async () => {
    const admin = await adminTokens();
    const adminRecord = (id: string, disabled = false) => ({
      ...newUserRecord({ id, email: null, name: 'SOS admin', passwordHash: null, emailVerified: true, provider: null, now: Date.now() }),
      roles: ['USER', 'ADMIN'],
      disabled,
    });
    // Ids that sort before and after any other account's, and a disabled administrator.
    const [first, last, disabled] = [adminRecord(`000sos-${randomUUID()}`), adminRecord(`zzzsos-${randomUUID()}`), adminRecord(`zzzsos-${randomUUID()}`, true)];
    const batch = db().batch();
    for (const { id, ...user } of [first, last, disabled]) batch.set(db().collection(USERS).doc(id), user);
    await batch.commit();
    try {
      const pages: string[][] = [];
      const hub = { dispatch: async (input: DispatchInput) => (pages.push(input.recipients.map((r) => r.userId)), []) };
      const sos = {
        rideId: `R-${randomUUID()}`,
        raisedBy: admin.user.id,
        role: 'RIDER',
        message: 'Help',
        location: null,
        status: 'OPEN',
        note: null,
        resolvedBy: null,
        resolvedAt: null,
        createdAt: Date.now(),
      };
      const event: DocumentEvent = {
        id: `evt-${randomUUID()}`,
        time: new Date().toISOString(),
        params: {},
        before: undefined,
        after: { id: `S-${randomUUID()}`, data: sos },
      };
      const heard = await onSosCreated(event, testConfig(), hub, 2);
      const ids = pages.flat();
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.every((page) => page.length > 0 && page.length <= 2)).toBe(true);
      expect(ids).toEqual([...new Set(ids)].sort());
      expect(heard).toBe(ids.length);
      expect(ids).toEqual(expect.arrayContaining([first.id, admin.user.id, last.id]));
      expect(ids).not.toContain(disabled.id);
      expect([ids[0], ids.at(-1)]).toEqual([first.id, last.id]);
    } finally {
      await deleteAll([first, last, disabled].map((u) => db().collection(USERS).doc(u.id)));
    }
  });
});
