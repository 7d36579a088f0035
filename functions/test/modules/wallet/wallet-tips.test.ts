import { randomUUID } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, drive, onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { RIDES } from '../../../src/modules/rides/rides.collections';
import { balance, earnings, postTopUp } from '../../helpers/wallet';

beforeAll(requireEmulators);

// Issue 29 item 6: tips are not a cash-out channel. One per ride (TIP_MAX_COUNT), within TIP_WINDOW_SEC of
// completion, and inside the sender's daily limit for sending money (WALLET_DAILY_TRANSFER_LIMIT_VND).
type Person = Tokens & { email: string };
const key = () => randomUUID();
const tip = (rider: Person, rideId: string, amount: number, idempotencyKey = key()) =>
  call('POST', `/rides/${rideId}/tip`, { token: rider.accessToken, body: { amount }, headers: { 'idempotency-key': idempotencyKey } });

/** A completed cash ride of `rider` with `driver` (the driver's steps as the driver app sends them). */
async function completedRide(rider: Person, driver: Driver, here: ReturnType<typeof area>): Promise<string> {
  const booked = await call('POST', '/rides', {
    token: rider.accessToken,
    body: { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' },
    headers: { 'idempotency-key': key() },
  });
  expect(booked.body.status).toBe('CONFIRMED');
  // The driver is where each step says it is (arrived and complete are geofenced).
  await drive(driver, here.near(0));
  for (const step of ['arrived', 'pickup']) expect((await call('POST', `/rides/${booked.body.id}/${step}`, { token: driver.accessToken })).status).toBe(200);
  await drive(driver, here.near(2_000));
  expect((await call('POST', `/rides/${booked.body.id}/complete`, { token: driver.accessToken })).status).toBe(200);
  return booked.body.id as string;
}

describe('tips', () => {
  it('one per ride: a second is refused (409 TIP_LIMIT), a retry with the first key is the first tip; racing tips count once', async () => {
    const here = area();
    const [driver, rider] = [await onlineDriver(here.near(200)), await registerVerified()];
    await postTopUp(rider, 200_000);
    const first = await completedRide(rider, driver, here);
    // A cash ride leaves its commission owed on the driver's earnings: tips are counted from here.
    const owed = await earnings(driver);
    const k = key();
    const given = await tip(rider, first, 20_000, k);
    expect(given).toMatchObject({ status: 201, body: { amount: 20_000, status: 'SUCCEEDED' } });
    expect((await tip(rider, first, 20_000, k)).body.paymentId).toBe(given.body.paymentId);
    expect((await tip(rider, first, 5_000)).body).toMatchObject({ code: 'TIP_LIMIT', details: { maxTips: 1 } });
    expect([await balance(rider), await earnings(driver)]).toEqual([180_000, owed + 20_000]);

    const second = await completedRide(rider, driver, here);
    const owedBoth = await earnings(driver);
    const racing = await Promise.all(Array.from({ length: 6 }, () => tip(rider, second, 10_000)));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(
      racing
        .filter((r) => r.status !== 201)
        .map((r) => r.body.code)
        .every((c) => c === 'TIP_LIMIT' || c === 'CONTENDED'),
    ).toBe(true);
    expect((await tip(rider, second, 10_000)).body.code).toBe('TIP_LIMIT');
    expect([await balance(rider), await earnings(driver)]).toEqual([170_000, owedBoth + 10_000]);
    expect((await call('GET', '/wallet/limits', { token: rider.accessToken })).body.sentToday).toBe(30_000);
  });

  it('only within the window after completion (409 TIP_WINDOW)', async () => {
    const here = area();
    const [driver, rider] = [await onlineDriver(here.near(200)), await registerVerified()];
    await postTopUp(rider, 50_000);
    const rideId = await completedRide(rider, driver, here);
    const owed = await earnings(driver);
    const dayAgo = Date.now() - 24 * 3600_000 - 60_000;
    await db().collection(RIDES).doc(rideId).update({ completedAt: dayAgo, endedAt: dayAgo });
    expect((await tip(rider, rideId, 10_000)).body).toMatchObject({ code: 'TIP_WINDOW', details: { windowSec: 86_400 } });
    expect([await balance(rider), await earnings(driver)]).toEqual([50_000, owed]);
  });

  it('count in the daily limit shared with transfers: a tip over what is left today is refused (409 WALLET_DAILY_LIMIT)', async () => {
    const here = area();
    const [driver, rider, friend] = [await onlineDriver(here.near(200)), await registerVerified(), await registerVerified()];
    await postTopUp(rider, 20_000_000);
    const sent = await call('POST', '/wallet/transfers', {
      token: rider.accessToken,
      body: { toUserId: friend.user.id, amount: 19_995_000 },
      headers: { 'idempotency-key': key() },
    });
    expect(sent.status).toBe(201);
    const rideId = await completedRide(rider, driver, here);
    const owed = await earnings(driver);
    expect((await tip(rider, rideId, 10_000)).body).toMatchObject({ code: 'WALLET_DAILY_LIMIT', details: { remainingToday: 5_000 } });
    expect(await earnings(driver)).toBe(owed);
    expect((await tip(rider, rideId, 5_000)).status).toBe(201);
    expect((await call('GET', '/wallet/limits', { token: rider.accessToken })).body).toMatchObject({ sentToday: 20_000_000, remainingToday: 0 });
    expect(
      (
        await call('POST', '/wallet/transfers', {
          token: rider.accessToken,
          body: { toUserId: friend.user.id, amount: 1_000 },
          headers: { 'idempotency-key': key() },
        })
      ).body.code,
    ).toBe('WALLET_DAILY_LIMIT');
  });
});
