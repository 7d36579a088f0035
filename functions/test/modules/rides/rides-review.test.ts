import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, drive, onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { completedTrip, narrowedAdmin, startedTrip, walletRider } from '../../helpers/rides';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { USERS } from '../../../src/modules/users/users.model';
import { RIDES } from '../../../src/modules/rides/rides.collections';
import { INBOX } from '../../../src/modules/notifications/notifications.collections';

beforeAll(requireEmulators);

// The security review of the rides change (issue 29): administrators never manage their own rides (item 4), the
// driver's no-show and the fee of an ARRIVED ride nobody boards (item 5), disputes of cancellation fees and their
// resolution with a refund (item 6), and the cancel limit that does not hold rides administrators back (item 7).

type Here = ReturnType<typeof area>;
const key = () => randomUUID();
const book = (rider: Tokens, here: Here, paymentMethod = 'WALLET') =>
  call('POST', '/rides', {
    token: rider.accessToken,
    body: { pickup: here.near(0), dropoff: here.near(3_000), vehicleType: 'MOTORBIKE', paymentMethod },
    headers: { 'idempotency-key': key() },
  });
const act = (who: Tokens, id: string, action: string, body?: unknown) =>
  call('POST', `/rides/${id}/${action}`, { token: who.accessToken, ...(body ? { body } : {}) });
const wallet = async (who: Tokens) => (await call('GET', '/wallet', { token: who.accessToken })).body as { balance: number; held: number };
const located = async (d: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(d.user.id).get()).data()!;
/** The driver is also an administrator holding rides.manage. */
const makeAdmin = (d: Driver) =>
  db()
    .collection(USERS)
    .doc(d.user.id)
    .update({ roles: ['DRIVER', 'ADMIN'], permissions: ['rides.manage'] });

describe('administrators and their own rides (item 4)', () => {
  it('a driver holding rides.manage cannot complete or abort their own trip as an administrator (403 RIDE_SELF_MANAGE); another administrator can', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(100));
    const rider = await walletRider();
    const ride = await startedTrip(here, rider, driver, { paymentMethod: 'WALLET' });
    await makeAdmin(driver);
    const own = await call('POST', `/rides/admin/${ride.id}/complete`, { token: driver.accessToken, body: { fare: 'QUOTE', reason: 'done' } });
    expect([own.status, own.body.code]).toEqual([403, 'RIDE_SELF_MANAGE']);
    const abort = await act(driver, ride.id, 'cancel', { reason: 'as admin' });
    expect([abort.status, abort.body.code]).toEqual([403, 'RIDE_SELF_MANAGE']);
    expect((await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body.status).toBe('IN_PROGRESS');
    const other = await call('POST', `/rides/admin/${ride.id}/complete`, {
      token: (await adminTokens()).accessToken,
      body: { fare: 'QUOTE', reason: 'driver app broken' },
    });
    expect(other.body).toMatchObject({ status: 'COMPLETED', fare: ride.quote.fare });
  });
});

describe('no-shows (item 5) and disputes of their fee (item 6)', () => {
  it('the driver declares a no-show only after the wait and at the pickup; the fee is captured for them; the rider disputes it and an administrator refunds part', async () => {
    const here = area();
    const driver = await onlineDriver(here.near(50));
    const rider = await walletRider();
    const ride = (await book(rider, here)).body;
    expect(ride.driverId).toBe(driver.user.id);
    expect((await act(driver, ride.id, 'no-show')).body.code).toBe('RIDE_TRANSITION');
    expect((await act(driver, ride.id, 'arrived')).body.status).toBe('ARRIVED');
    const early = await act(driver, ride.id, 'no-show');
    expect([early.status, early.body.code, early.body.details.waitSec]).toEqual([409, 'RIDE_NO_SHOW_EARLY', 120]);
    expect((await act(rider, ride.id, 'no-show')).status).toBe(403); // drivers only
    await db()
      .collection(RIDES)
      .doc(ride.id)
      .update({ arrivedAt: Timestamp.fromMillis(Date.now() - 121_000) });
    // The driver left the pickup since: checked where they are now.
    await drive(driver, here.near(1_000));
    expect((await act(driver, ride.id, 'no-show')).body.code).toBe('RIDE_NOT_AT_PICKUP');
    await drive(driver, here.near(50));
    expect((await call('PATCH', '/users/me', { token: rider.accessToken, body: { locale: 'vi' } })).status).toBe(200);
    const ended = await act(driver, ride.id, 'no-show');
    expect(ended.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'driver', cancellationFee: 10_000, paymentId: expect.any(String) });
    expect(await wallet(rider)).toMatchObject({ balance: 290_000, held: 0 });
    expect((await located(driver)).currentRideId).toBeNull();
    const events = (await call('GET', `/rides/${ride.id}/events`, { token: rider.accessToken })).body.items.map((e: { action: string }) => e.action);
    expect(events).toEqual(['assign', 'arrive', 'noShow']);
    // The service's own reason: stored with its code, told to the rider in their language (Vietnamese).
    expect((await db().collection(RIDES).doc(ride.id).get()).get('cancelReasonCode')).toBe('riderNoShow');
    const notice = await waitFor(
      async () =>
        (await db().collection(INBOX).where('recipientId', '==', rider.user.id).where('entityId', '==', ride.id).get()).docs
          .map((d) => d.data())
          .find((n) => n.event === 'ride.cancelled'),
      { what: 'the no-show notice' },
    );
    expect(notice.body).toBe('Khách không đến điểm đón');

    // A cancellation that charged a fee may be disputed (it was refused before: only COMPLETED rides were).
    const dispute = await call('POST', `/rides/${ride.id}/dispute`, { token: rider.accessToken, body: { reason: 'NOT_TAKEN', message: 'I was there' } });
    expect(dispute.body).toMatchObject({ status: 'OPEN', fare: 10_000, outcome: null });
    const resolve = (who: Tokens, body: unknown) => call('POST', `/rides/admin/disputes/${ride.id}/resolve`, { token: who.accessToken, body });
    const admin = await adminTokens();
    for (const body of [{}, { outcome: 'MAYBE', note: 'x' }, { outcome: 'REFUNDED', amount: 0, note: 'x' }, { outcome: 'REJECTED' }])
      expect((await resolve(admin, body)).status).toBe(400);
    expect((await resolve(rider, { outcome: 'REJECTED', note: 'x' })).status).toBe(403);
    expect((await resolve(await narrowedAdmin([]), { outcome: 'REJECTED', note: 'x' })).body.code).toBe('PERMISSION_REQUIRED');
    await makeAdmin(driver);
    const own = await resolve(driver, { outcome: 'REJECTED', note: 'my own ride' });
    expect([own.status, own.body.code]).toEqual([403, 'RIDE_SELF_MANAGE']);
    const tooMuch = await resolve(admin, { outcome: 'REFUNDED', amount: 10_001, note: 'x' });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.details.paid]).toEqual([409, 'RIDE_REFUND_EXCEEDS', 10_000]);
    const refunded = await resolve(admin, { outcome: 'REFUNDED', amount: 6_000, note: 'The pin was wrong' });
    expect(refunded.body).toMatchObject({
      status: 'RESOLVED',
      outcome: 'REFUNDED',
      refundAmount: 6_000,
      refundPaymentId: ended.body.paymentId,
      resolvedBy: admin.user.id,
    });
    expect((await wallet(rider)).balance).toBe(296_000);
    expect((await resolve(admin, { outcome: 'REFUNDED', amount: 1_000, note: 'again' })).body.code).toBe('RIDE_DISPUTE_RESOLVED');
    expect((await wallet(rider)).balance).toBe(296_000);
  });

  it('a dispute of a completed trip is rejected once; a cancellation without a fee is not disputed', async () => {
    const here = area();
    const { rider, ride } = await completedTrip(here);
    expect((await call('POST', `/rides/${ride.id}/dispute`, { token: rider.accessToken, body: { reason: 'FARE' } })).status).toBe(201);
    const admin = await adminTokens();
    const rejected = await call('POST', `/rides/admin/disputes/${ride.id}/resolve`, {
      token: admin.accessToken,
      body: { outcome: 'REJECTED', note: 'The route was the shortest' },
    });
    expect(rejected.body).toMatchObject({ status: 'RESOLVED', outcome: 'REJECTED', refundAmount: null, note: 'The route was the shortest' });
    const queue = (await call('GET', '/rides/admin/disputes?limit=50', { token: admin.accessToken })).body.items;
    expect(queue).toContainEqual(expect.objectContaining({ rideId: ride.id, status: 'RESOLVED', outcome: 'REJECTED' }));
    expect(
      (await call('POST', `/rides/admin/disputes/${randomUUID()}/resolve`, { token: admin.accessToken, body: { outcome: 'REJECTED', note: 'x' } })).status,
    ).toBe(404);

    const elsewhere = area();
    await onlineDriver(elsewhere.near(100));
    const free = (await book(rider, elsewhere, 'CASH')).body;
    expect(free.status).toBe('CONFIRMED');
    expect((await act(rider, free.id, 'cancel', {})).body).toMatchObject({ status: 'CANCELLED', cancellationFee: 0 });
    expect((await call('POST', `/rides/${free.id}/dispute`, { token: rider.accessToken, body: { reason: 'OTHER' } })).body.code).toBe('RIDE_DISPUTE_WINDOW');
  });
});

describe('the rides-cancel limit (item 7)', () => {
  it('counts riders and drivers (10 per 10 minutes, then 429) but never an administrator with rides.manage', async () => {
    const [manager, user] = [await narrowedAdmin(['rides.manage']), await registerVerified()];
    // The limit's windows are fixed (every 10 minutes from the epoch): the 22 calls must not straddle a window's end.
    const toWindowEnd = 600_000 - (Date.now() % 600_000);
    if (toWindowEnd < 30_000) await new Promise((r) => setTimeout(r, toWindowEnd + 500));
    const cancel = (who: Tokens) => call('POST', `/rides/R${randomUUID().replace(/-/g, '').slice(0, 24)}/cancel`, { token: who.accessToken, body: {} });
    const managerAnswers: number[] = [];
    const userAnswers: number[] = [];
    for (let i = 0; i < 11; i++) {
      managerAnswers.push((await cancel(manager)).status);
      userAnswers.push((await cancel(user)).status);
    }
    expect(managerAnswers).toEqual(Array(11).fill(404));
    expect(userAnswers.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(userAnswers[10]).toBe(429);
  }, 60_000);
});
