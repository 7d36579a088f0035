import { randomUUID } from 'node:crypto';
import { paymentCommands } from '../../../src/modules/payments';
import { vnd } from '../../../src/platform/kits/money/money';
import { registerVerified } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { topUp, walletOf } from '../../helpers/wallet';
import { config, deliveryHarness, placeParcel, type Harness } from './harness';

// Dispatch through the job pool (nearest free capable driver, never the sender, one driver for one parcel), the
// search repeated by a task while nobody is free, and the no-driver timer with its lazy check and its refund.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());
beforeEach(() => h.resetClock());

const WINDOW_MS = 600_000;

describe('dispatch', () => {
  it('skips the sender, busy drivers and drivers without the DELIVERY capability, nearest first', async () => {
    const here = area();
    const [sender, busy, courierOnly, farther] = await Promise.all([registerVerified(), driverAccount(), driverAccount(), driverAccount()]);
    await h.pool.online(sender.user.id, here.near(10));
    await h.pool.online(busy.user.id, here.near(20));
    await h.pool.busy(busy.user.id, 'order-1');
    await h.pool.online(courierOnly.user.id, here.near(30), ['RIDE', 'COURIER']);
    await h.pool.online(farther.user.id, here.near(1_500));
    const placed = (await placeParcel(h, sender, here)).body;
    expect(placed).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: farther.user.id });
    expect(placed.driver).toMatchObject({ name: 'Tài xế', vehicle: null });
    // The courier app's current job: an order opens in the orders screen, a parcel here.
    expect((await h.send('GET', '/delivery/courier/current', { token: busy.accessToken })).body).toEqual({
      job: { kind: 'ORDER', id: 'order-1' },
      delivery: null,
    });
    expect((await h.send('GET', '/delivery/courier/current', { token: sender.accessToken })).status).toBe(403);
  });

  it('gives one free driver to one of two parcels placed at once', async () => {
    const here = area();
    const [a, b, driver] = await Promise.all([registerVerified(), registerVerified(), driverAccount()]);
    await h.pool.online(driver.user.id, here.near(100));
    const both = await Promise.all([placeParcel(h, a, here), placeParcel(h, b, here)]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both.map((r) => r.body.status).sort()).toEqual(['CREATED', 'DRIVER_ASSIGNED']);
    const taken = both.find((r) => r.body.status === 'DRIVER_ASSIGNED')!.body;
    expect(await h.pool.state(driver.user.id)).toMatchObject({ jobId: taken.id });
  });

  it('searches again every 30 s while nobody is free, and assigns the first driver who comes online', async () => {
    const here = area();
    const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
    const placed = (await placeParcel(h, sender, here)).body;
    expect(placed.status).toBe('CREATED');
    const timers = h.scheduled.filter((s) => s.id === placed.id);
    expect(timers).toEqual([
      { queue: 'noDriver', id: placed.id, delaySec: 600, phase: undefined, payload: { deliveryId: placed.id } },
      { queue: 'dispatch', id: placed.id, delaySec: 30, phase: '1', payload: undefined },
    ]);
    // A task delivered early asks the queue to retry; on time with nobody free, the next search is scheduled.
    await expect(h.service.runDispatch(placed.id)).rejects.toThrow(/not due yet/);
    h.advance(30_000);
    await h.service.runDispatch(placed.id);
    expect((await h.stored(placed.id)).dispatchAttempts).toBe(2);
    expect(h.scheduled.filter((s) => s.id === placed.id && s.queue === 'dispatch').map((s) => s.phase)).toEqual(['1', '2']);
    await h.pool.online(driver.user.id, here.near(200));
    h.advance(30_000);
    await h.service.runDispatch(placed.id);
    expect(await h.stored(placed.id)).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: driver.user.id, nextDispatchAt: null });
    // A repeated task finds the parcel taken: nothing changes.
    await h.service.runDispatch(placed.id);
    expect((await h.stored(placed.id)).driverId).toBe(driver.user.id);
  });
});

describe('the no-driver timer', () => {
  it('ends a parcel nobody took NO_DRIVER at the end of the window and gives the hold back, once', async () => {
    const here = area();
    const sender = await registerVerified();
    await topUp(sender, 100_000);
    const placed = (await placeParcel(h, sender, here, { paymentMethod: 'WALLET' })).body;
    const stored = await h.stored(placed.id);
    const payload = h.scheduled.find((s) => s.id === placed.id && s.queue === 'noDriver')!.payload as { deliveryId: string; holdPaymentId: string };
    expect(payload).toEqual({ deliveryId: placed.id, holdPaymentId: stored.payment.holdPaymentId });
    await expect(h.service.runNoDriver(payload)).rejects.toThrow(/not due yet/);
    h.advance(WINDOW_MS);
    await h.service.runNoDriver(payload);
    expect(await h.stored(placed.id)).toMatchObject({ status: 'NO_DRIVER', endedAt: expect.any(Number) });
    expect(await walletOf(sender)).toMatchObject({ balance: 100_000, held: 0 });
    await h.service.runNoDriver(payload);
    await h.service.runDispatch(placed.id);
    expect(await walletOf(sender)).toMatchObject({ balance: 100_000, held: 0 });
    const history = await h.service.history({ userId: 'admin', admin: true }, placed.id);
    expect(history.items.map((m) => `${m.action}:${m.by}`)).toEqual([`place:${sender.user.id}`, 'expire:system:delivery-dispatch']);
  });

  it('is checked on read: a parcel past its window reads NO_DRIVER (and is stored so), and cannot be cancelled then', async () => {
    const here = area();
    const sender = await registerVerified();
    const placed = (await placeParcel(h, sender, here)).body;
    h.advance(WINDOW_MS);
    const listed = await h.send('GET', '/delivery/orders?limit=5', { token: sender.accessToken });
    expect(listed.body.items.find((d: { id: string }) => d.id === placed.id).status).toBe('NO_DRIVER');
    const read = await h.send('GET', `/delivery/orders/${placed.id}`, { token: sender.accessToken });
    expect(read.body).toMatchObject({ status: 'NO_DRIVER', actions: [] });
    expect((await h.stored(placed.id)).status).toBe('NO_DRIVER');
    const cancel = await h.send('POST', `/delivery/orders/${placed.id}/cancel`, { token: sender.accessToken, body: {} });
    expect([cancel.status, cancel.body.code]).toEqual([409, 'DELIVERY_TRANSITION']);
  });

  it('gives back a hold whose parcel was never stored (the placing died in between), once the window has passed', async () => {
    const sender = await registerVerified();
    await topUp(sender, 50_000);
    const deliveryId = `D${randomUUID()}`;
    const hold = await paymentCommands(config).hold({
      payerId: sender.user.id,
      amount: vnd(20_000),
      purpose: 'DELIVERY',
      ref: { type: 'DELIVERY', id: deliveryId },
      description: 'Parcel delivery (held until delivered)',
      idempotencyKey: deliveryId,
    });
    expect((await walletOf(sender)).held).toBe(20_000);
    await expect(h.service.runNoDriver({ deliveryId, holdPaymentId: hold.id })).rejects.toThrow(/not due yet/);
    h.advance(WINDOW_MS);
    await h.service.runNoDriver({ deliveryId, holdPaymentId: hold.id });
    await h.service.runNoDriver({ deliveryId, holdPaymentId: hold.id });
    expect(await walletOf(sender)).toMatchObject({ balance: 50_000, held: 0 });
  });
});
