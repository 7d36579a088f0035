import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call, type ApiResponse } from '../../helpers/api';
import { area, onlineCourier, onlineDriver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { startedTrip } from '../../helpers/rides';
import { RECIPIENT, route, SENDER } from '../delivery/harness';
import { getOrder, location, orders, placeOrder, storeAt, storeMove, type Here, type SellerRef } from './setup';

// The driver module's one job at a time, across modules: a driver who may take both kinds of job raced between an
// order's courier search and a parcel's dispatch (and a ride's booking) gets exactly one; a driver on a ride is never
// a courier. The order is raced while PREPARING: its search task is not due yet, so only the test's search runs.
beforeAll(requireEmulators);
jest.setTimeout(120_000);

/** An order of `consumer` at the store, confirmed and being prepared (its courier search not due for 10 minutes). */
async function preparingOrder(consumer: Tokens, owner: Tokens, seller: SellerRef, here: Here): Promise<string> {
  const { order } = await placeOrder(consumer, seller, here, { method: 'CASH' });
  for (const step of ['confirm', 'preparing']) await storeMove(owner, order.id, step);
  return order.id;
}

async function postParcel(sender: Tokens, here: Here): Promise<ApiResponse> {
  const quote = await call('POST', '/delivery/quote', { token: sender.accessToken, body: route(here, 3) });
  if (quote.status !== 200) throw new Error(`quote ${quote.status}: ${JSON.stringify(quote.body)}`);
  return call('POST', '/delivery/orders', {
    token: sender.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { quoteId: quote.body.quoteId, sender: SENDER, recipient: RECIPIENT, parcel: { description: 'Hộp bánh trung thu' }, paymentMethod: 'CASH' },
  });
}

const searchOutcome = (settled: PromiseSettledResult<string>) => (settled.status === 'fulfilled' ? settled.value : String(settled.reason));

describe('one driver, two jobs at once', () => {
  it.each([1, 2, 3])('round %i: a COURIER+DELIVERY driver raced between an order’s courier search and a parcel’s dispatch gets one job', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Bánh cuốn Thanh Trì');
    const [consumer, sender, both, parcelOnly] = await Promise.all([
      registerVerified(),
      registerVerified(),
      onlineCourier(here.near(100), ['COURIER', 'DELIVERY']),
      onlineCourier(here.near(900), ['DELIVERY']),
    ]);
    const orderId = await preparingOrder(consumer, owner, seller, here);

    const [search, parcel] = await Promise.all([Promise.allSettled([orders().searchCourier(orderId)]).then(([s]) => s), postParcel(sender, here)]);
    expect(parcel.status).toBe(201);
    const order = (await getOrder(consumer, orderId)).body;
    const job = (await location(both.user.id)).currentJobId;
    if (order.driverId === both.user.id) {
      // The order got the driver: the parcel goes to the next DELIVERY driver (now, or by its dispatch's retry).
      expect([searchOutcome(search), order.status, job]).toEqual(['assigned', 'COURIER_ASSIGNED', orderId]);
      expect([parcelOnly.user.id, null]).toContain(parcel.body.driverId);
    } else {
      // The parcel got the driver: the order has none yet and its search is retried (nobody else has COURIER).
      expect(parcel.body).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: both.user.id });
      expect([order.status, order.driverId, job]).toEqual(['PREPARING', null, parcel.body.id]);
      expect(searchOutcome(search)).toMatch(/no courier free/);
      await expect(orders().searchCourier(orderId)).rejects.toThrow(/no courier free/);
    }
    expect([parcel.body.id, null]).toContain((await location(parcelOnly.user.id)).currentJobId ?? null);
  });
});

describe('rides and courier jobs', () => {
  it('a COURIER driver on a ride is never assigned an order or a parcel; a free courier farther away is', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Xôi Yến');
    const [rider, consumer, sender, onRide] = await Promise.all([
      registerVerified(),
      registerVerified(),
      registerVerified(),
      onlineDriver(here.near(120), { type: 'MOTORBIKE' }, 'Anh Long', ['RIDE', 'COURIER', 'DELIVERY']),
    ]);
    const ride = await startedTrip(here, rider, onRide);
    const orderId = await preparingOrder(consumer, owner, seller, here);
    await storeMove(owner, orderId, 'ready');
    // The deployed search task may run too: whichever runs, nobody is free while the only courier drives a ride.
    await expect(orders().searchCourier(orderId)).rejects.toThrow(/no courier free/);
    const lonelyParcel = await postParcel(sender, here);
    expect(lonelyParcel.body).toMatchObject({ status: 'CREATED', driverId: null });
    expect([orderId, lonelyParcel.body.id]).not.toContain((await location(onRide.user.id)).currentJobId);
    expect((await call('GET', `/rides/${ride.id}`, { token: rider.accessToken })).body.status).toBe('IN_PROGRESS');

    // COURIER only: the waiting parcel's dispatch retry cannot take this one first.
    const free = await onlineCourier(here.near(2_000), ['COURIER']);
    const outcome = await orders()
      .searchCourier(orderId)
      .catch((err: Error) => err.message);
    expect(['assigned', 'settled']).toContain(outcome);
    expect((await getOrder(consumer, orderId)).body).toMatchObject({ status: 'COURIER_ASSIGNED', driverId: free.user.id });
  });

  it('a RIDE+COURIER driver raced between a ride booking and an order’s courier search serves exactly one of them', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Chè Thái Ý Phương');
    const [rider, consumer, driver] = await Promise.all([
      registerVerified(),
      registerVerified(),
      onlineDriver(here.near(80), { type: 'MOTORBIKE' }, 'Anh Dũng', ['RIDE', 'COURIER']),
    ]);
    const orderId = await preparingOrder(consumer, owner, seller, here);
    const booking = { pickup: here.near(0), dropoff: here.near(3_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' };
    const [booked, search] = await Promise.all([
      call('POST', '/rides', { token: rider.accessToken, body: booking, headers: { 'idempotency-key': randomUUID() } }),
      Promise.allSettled([orders().searchCourier(orderId)]).then(([s]) => s),
    ]);
    const order = (await getOrder(consumer, orderId)).body;
    const servedBy = [booked.body.driverId === driver.user.id, order.driverId === driver.user.id];
    expect(servedBy.filter(Boolean)).toHaveLength(1);
    const at = await location(driver.user.id);
    if (order.driverId === driver.user.id) {
      expect([searchOutcome(search), at.currentJobId, booked.body.status]).toEqual(['assigned', orderId, 'NO_DRIVER']);
    } else {
      expect(booked.body).toMatchObject({ status: 'CONFIRMED', driverId: driver.user.id });
      expect(searchOutcome(search)).toMatch(/no courier free/);
      expect(order).toMatchObject({ status: 'PREPARING', driverId: null });
    }
  });
});
