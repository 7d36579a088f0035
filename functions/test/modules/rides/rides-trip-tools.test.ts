import { randomUUID } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, drive, onlineDriver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { CONVERSATIONS } from '../../../src/modules/chat/chat.collections';
import { RIDES } from '../../../src/modules/rides/rides.collections';

beforeAll(requireEmulators);

// The operations around a trip the apps use beside its moves: the map leg, the ride's chat, the trip link,
// the receipt, the driver's ratings and day summary, and the administrators' figures.

const book = (rider: Tokens, body: Record<string, unknown>) =>
  call('POST', '/rides', { token: rider.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
const act = (who: Tokens, id: string, action: string) => call('POST', `/rides/${id}/${action}`, { token: who.accessToken });

describe('around a trip', () => {
  it('map leg, chat, trip link, receipt, rating and the driver’s day, each for the right people only', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(400));
    const [rider, stranger] = [await registerVerified({ name: 'Chị Hoa' }), await registerVerified()];
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_500, 1_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    expect(ride.status).toBe('CONFIRMED');

    // The leg to draw: the driver coming from where they are.
    const coming = await call('GET', `/rides/${ride.id}/route`, { token: rider.accessToken });
    expect(coming.body).toMatchObject({ leg: 'TO_PICKUP', to: { lat: here.near(0).lat }, polyline: expect.any(String) });
    expect(coming.body.from.lat).toBeCloseTo(here.near(400).lat, 6);
    expect((await call('GET', `/rides/${ride.id}/route`, { token: stranger.accessToken })).status).toBe(404);

    // One conversation for rider and driver; nobody else gets in.
    const chat = await call('POST', `/rides/${ride.id}/chat`, { token: rider.accessToken });
    expect(chat.status).toBe(200);
    expect((await call('POST', `/rides/${ride.id}/chat`, { token: driver.accessToken })).body.conversationId).toBe(chat.body.conversationId);
    expect((await call('POST', `/rides/${ride.id}/chat`, { token: stranger.accessToken })).status).toBe(404);
    const said = await call('POST', `/chat/conversations/${chat.body.conversationId}/messages`, {
      token: driver.accessToken,
      body: { type: 'TEXT', text: 'Em tới rồi, áo xanh' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(said.status).toBe(201);
    expect((await call('GET', `/chat/conversations/${chat.body.conversationId}/messages`, { token: rider.accessToken })).body.items[0].text).toBe(
      'Em tới rồi, áo xanh',
    );
    expect((await call('GET', `/chat/conversations/${chat.body.conversationId}/messages`, { token: stranger.accessToken })).status).toBe(404);

    // The trip link: the rider's only, public to its holder, replaced by a new one, turned off.
    expect((await call('POST', `/rides/${ride.id}/share`, { token: stranger.accessToken })).status).toBe(404);
    expect((await call('POST', `/rides/${ride.id}/share`, { token: driver.accessToken })).status).toBe(403);
    const first = await call('POST', `/rides/${ride.id}/share`, { token: rider.accessToken });
    expect(first.status).toBe(201);
    const seen = await call('GET', first.body.path);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'CONFIRMED', driver: { name: 'Tài xế Hùng' }, driverLocation: { lat: expect.any(Number) } });
    expect(JSON.stringify(seen.body)).not.toContain(rider.user.id);
    expect((await call('GET', '/rides/shared/not-a-token')).status).toBe(404); // a malformed path id names nothing
    expect((await call('GET', `/rides/shared/${'A'.repeat(32)}`)).status).toBe(404);
    const second = await call('POST', `/rides/${ride.id}/share`, { token: rider.accessToken });
    expect((await call('GET', first.body.path)).status).toBe(404);
    expect((await call('GET', second.body.path)).status).toBe(200);

    // The trip: the leg becomes pickup → drop-off; completing closes the chat and ends the live position on the link.
    await drive(driver, here.near(0));
    await act(driver, ride.id, 'arrived');
    await act(driver, ride.id, 'pickup');
    expect((await call('GET', `/rides/${ride.id}/route`, { token: driver.accessToken })).body.leg).toBe('TRIP');
    await drive(driver, here.near(1_200, 500));
    await drive(driver, here.near(2_500, 1_000));
    const done = (await act(driver, ride.id, 'complete')).body;
    expect(done.status).toBe('COMPLETED');
    const afterwards = await call('GET', second.body.path);
    expect(afterwards.body).toMatchObject({ status: 'COMPLETED', driverLocation: null });
    await waitFor(async () => ((await db().collection(CONVERSATIONS).doc(chat.body.conversationId).get()).get('closed') === true ? true : undefined), {
      what: 'the ride chat closed',
    });
    expect((await call('DELETE', `/rides/${ride.id}/share`, { token: rider.accessToken })).status).toBe(204);
    expect((await call('GET', second.body.path)).status).toBe(404);

    // The receipt: the rider sees what they paid, the driver also the split.
    const forRider = (await call('GET', `/rides/${ride.id}/receipt`, { token: rider.accessToken })).body;
    expect(forRider).toMatchObject({
      status: 'COMPLETED',
      currency: 'VND',
      paymentMethod: 'CASH',
      fare: done.fare,
      total: done.fare,
      cancellationFee: 0,
      split: null,
    });
    expect(forRider.drivenM).toBeGreaterThan(2_000);
    const forDriver = (await call('GET', `/rides/${ride.id}/receipt`, { token: driver.accessToken })).body;
    expect(forDriver.split.commission + forDriver.split.driverEarnings).toBe(done.fare);
    expect(forDriver.split.commission).toBeGreaterThan(0);
    expect((await call('GET', `/rides/${ride.id}/receipt`, { token: stranger.accessToken })).status).toBe(404);

    // Ratings the driver received, without the ride, who gave them or when to the minute; the rider still sees theirs.
    await call('POST', `/rides/${ride.id}/rating`, { token: rider.accessToken, body: { stars: 4, comment: 'Chạy cẩn thận' } });
    const ratings = (await call('GET', '/driver/me/ratings', { token: driver.accessToken })).body;
    expect(ratings.items).toEqual([{ stars: 4, comment: 'Chạy cẩn thận', ratedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }]);
    expect((await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body.rating).toEqual({ stars: 4, comment: 'Chạy cẩn thận' });
    expect((await call('GET', '/rides', { token: rider.accessToken })).body.items[0].rating).toEqual({ stars: 4, comment: 'Chạy cẩn thận' });
    expect((await call('GET', `/rides/${ride.id}`, { token: driver.accessToken })).body.rating).toBeNull();
    expect((await call('GET', '/driver/rides', { token: driver.accessToken })).body.items[0]).toMatchObject({ id: ride.id, rating: null });
    // The ride document the driver listens to carries none of it either.
    const rideDoc = (await db().collection(RIDES).doc(ride.id).get()).data()!;
    expect(JSON.stringify(rideDoc)).not.toContain('Chạy cẩn thận');
    expect([rideDoc.rating, rideDoc.ratedAt]).toEqual([null, undefined]);
    expect((await call('GET', '/driver/me/ratings', { token: rider.accessToken })).status).toBe(403);
    const summary = (await call('GET', '/driver/rides/summary?days=7', { token: driver.accessToken })).body;
    expect(summary.days).toHaveLength(7);
    expect(summary.totals).toEqual({ rides: 1, fares: done.fare, earnings: forDriver.split.driverEarnings, drivenM: forRider.drivenM });
    expect(summary.days[6]).toMatchObject({ rides: 1, fares: done.fare });
    for (const days of ['0', '32', 'x']) expect((await call('GET', `/driver/rides/summary?days=${days}`, { token: driver.accessToken })).status).toBe(400);
  });

  it('a link and a chat only for a ride under way; the chat of a driver who left is closed', async () => {
    const here = area();
    const rider = await registerVerified();
    const lonely = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    expect(lonely.status).toBe('NO_DRIVER');
    expect((await call('POST', `/rides/${lonely.id}/share`, { token: rider.accessToken })).body.code).toBe('RIDE_TRANSITION');
    expect((await call('POST', `/rides/${lonely.id}/chat`, { token: rider.accessToken })).body.code).toBe('RIDE_TRANSITION');
    expect((await call('GET', `/rides/${lonely.id}/receipt`, { token: rider.accessToken })).body).toMatchObject({ status: 'NO_DRIVER', total: 0 });

    const [first, second] = [await onlineDriver(here.near(200)), await onlineDriver(here.near(900))];
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    expect(ride.driverId).toBe(first.user.id);
    const old = (await call('POST', `/rides/${ride.id}/chat`, { token: first.accessToken })).body.conversationId;
    const reassigned = (await act(first, ride.id, 'cancel')).body;
    expect(reassigned.driverId).toBe(second.user.id);
    const fresh = (await call('POST', `/rides/${ride.id}/chat`, { token: rider.accessToken })).body.conversationId;
    expect(fresh).not.toBe(old);
    expect((await call('POST', `/rides/${ride.id}/chat`, { token: first.accessToken })).status).toBe(404);
    await waitFor(async () => ((await db().collection(CONVERSATIONS).doc(old).get()).get('closed') === true ? true : undefined), {
      what: 'the old driver’s chat closed',
    });
    expect((await db().collection(CONVERSATIONS).doc(fresh).get()).get('closed')).toBe(false);
  });
});

describe('ride figures for administrators', () => {
  it('counts bookings by status with the match rate and free drivers; administrators only; bad hours refused', async () => {
    const admin = await adminTokens();
    const before = (await call('GET', '/rides/admin/stats?hours=1', { token: admin.accessToken })).body;
    const here = area();
    const rider = await registerVerified();
    await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'CAR_7', paymentMethod: 'CASH' });
    const after = await call('GET', '/rides/admin/stats?hours=1', { token: admin.accessToken });
    expect(after.status).toBe(200);
    expect(Object.keys(after.body.byStatus).sort()).toEqual(['ARRIVED', 'CANCELLED', 'COMPLETED', 'CONFIRMED', 'EXPIRED', 'IN_PROGRESS', 'NO_DRIVER']);
    expect(after.body.byStatus.NO_DRIVER).toBeGreaterThanOrEqual(before.byStatus.NO_DRIVER + 1);
    expect(after.body.booked).toBe(Object.values(after.body.byStatus as Record<string, number>).reduce((a, n) => a + n, 0));
    expect(after.body.matchRate).toBeGreaterThanOrEqual(0);
    expect(after.body.matchRate).toBeLessThanOrEqual(1);
    expect(Object.keys(after.body.freeDrivers).sort()).toEqual(['CAR', 'CAR_7', 'MOTORBIKE']);
    expect((await call('GET', '/rides/admin/stats', { token: rider.accessToken })).status).toBe(403);
    for (const hours of ['0', '169']) expect((await call('GET', `/rides/admin/stats?hours=${hours}`, { token: admin.accessToken })).status).toBe(400);
  });
});

describe('the rider’s side of a trip: the note for the driver and the driver’s rating of the rider', () => {
  it('the rider changes the note until the pickup; only the rider; bad notes refused', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(300));
    const [rider, stranger] = [await registerVerified(), await registerVerified()];
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH', note: 'Cổng số 2' }))
      .body;
    const patch = (who: Tokens, body: unknown) => call('PATCH', `/rides/${ride.id}`, { token: who.accessToken, body });

    const changed = await patch(rider, { note: '  Chờ ở sảnh B, áo đỏ ' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: ride.id, status: 'CONFIRMED', note: 'Chờ ở sảnh B, áo đỏ', driverId: driver.user.id });
    expect((await call('GET', `/rides/${ride.id}`, { token: driver.accessToken })).body.note).toBe('Chờ ở sảnh B, áo đỏ');
    for (const body of [{}, { note: 'x'.repeat(301) }, { note: 5 }, { note: 'ok', status: 'COMPLETED' }]) {
      const refused = await patch(rider, body);
      expect(refused.status).toBe(400);
    }
    expect((await patch(driver, { note: 'hi' })).status).toBe(404);
    expect((await patch(stranger, { note: 'hi' })).status).toBe(404);
    expect((await call('PATCH', '/rides/not-an-id', { token: rider.accessToken, body: { note: 'x' } })).status).toBe(404);

    await drive(driver, here.near(0));
    await act(driver, ride.id, 'arrived');
    expect((await patch(rider, { note: '' })).body.note).toBeNull(); // empty clears it
    await act(driver, ride.id, 'pickup');
    const late = await patch(rider, { note: 'too late' });
    expect([late.status, late.body.code]).toEqual([409, 'RIDE_TRANSITION']);
    expect((await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body.note).toBeNull();
  });

  it('the driver rates the rider once after completion; the rider sees only the average; two at once make one', async () => {
    const here = area();
    const [driver, otherDriver] = [await onlineDriver(here.near(300)), await onlineDriver(here.near(5_000))];
    const rider = await registerVerified();
    expect((await call('GET', '/rides/rider-rating', { token: rider.accessToken })).body).toEqual({ riderId: rider.user.id, average: null, count: 0 });
    const ride = (await book(rider, { pickup: here.near(0), dropoff: here.near(1_500), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' })).body;
    expect(ride.driverId).toBe(driver.user.id);
    const rate = (who: Tokens, body: unknown) => call('POST', `/rides/${ride.id}/rider-rating`, { token: who.accessToken, body });

    const early = await rate(driver, { stars: 5 });
    expect([early.status, early.body.code]).toEqual([409, 'RIDE_TRANSITION']);
    await drive(driver, here.near(0));
    await act(driver, ride.id, 'arrived');
    await act(driver, ride.id, 'pickup');
    await drive(driver, here.near(1_500));
    expect((await act(driver, ride.id, 'complete')).body.status).toBe('COMPLETED');

    for (const body of [{ stars: 0 }, { stars: 6 }, { stars: 4.5 }, { stars: '5' }, {}, { stars: 3, comment: 'x'.repeat(501) }])
      expect((await rate(driver, body)).status).toBe(400);
    expect((await rate(rider, { stars: 5 })).status).toBe(403); // riders have no DRIVER hat
    expect((await rate(otherDriver, { stars: 1 })).status).toBe(404);

    const [a, b] = await Promise.all([rate(driver, { stars: 4, comment: 'Đúng giờ' }), rate(driver, { stars: 1 })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = a.status === 201 ? a : b;
    expect(won.body).toEqual({ rideId: ride.id, stars: won.body.stars, comment: won.body.comment, ratedAt: expect.any(String) });
    expect((a.status === 409 ? a : b).body.code).toBe('RIDE_ALREADY_RATED');
    expect((await call('GET', '/rides/rider-rating', { token: rider.accessToken })).body).toEqual({
      riderId: rider.user.id,
      average: won.body.stars,
      count: 1,
    });

    // The ride document the rider listens to carries none of it.
    const seen = (await db().collection(RIDES).doc(ride.id).get()).data()!;
    expect(JSON.stringify(seen)).not.toContain('Đúng giờ');
    expect(seen.rating).toBeNull();
  });
});
