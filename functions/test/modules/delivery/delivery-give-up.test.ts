import { registerVerified, type Tokens } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { handoverPhoto } from '../../helpers/orders';
import { assignmentOf } from '../../../src/modules/delivery/delivery.deadlines';
import { deliveryHarness, placeParcel, type Harness } from './harness';

// A driver leaving a parcel before pickup: the give-up (who may, retries, the race with the pickup), the pickup
// window's timer (delivered twice, never after pickup, lazily on read), the search again without them; and photo
// proofs, which count only near the pickup and the drop-off.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());
beforeEach(() => h.resetClock());

type Parcel = { id: string; codes: { pickup: string; dropoff: string }; pickup: { lat: number; lng: number }; dropoff: { lat: number; lng: number } };
const act = (who: Tokens, id: string, action: string, body: unknown = {}) =>
  h.send('POST', `/delivery/orders/${id}/${action}`, { token: who.accessToken, body });
const history = async (id: string) => (await h.service.history({ userId: 'admin', admin: true }, id)).items;

/** A sender, a driver online beside the pickup, and a parcel the driver was assigned. */
async function assigned() {
  const here = area();
  const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
  await h.pool.online(driver.user.id, here.near(100));
  const placed = await placeParcel(h, sender, here);
  expect(placed.body.status).toBe('DRIVER_ASSIGNED');
  return { here, sender, driver, parcel: placed.body as Parcel };
}

describe('the driver gives a parcel up', () => {
  it('back to CREATED: freed, closed to them (404), a retry 409, searched again at once without them', async () => {
    const { here, sender, driver, parcel } = await assigned();
    const other = await driverAccount();
    expect((await act(other, parcel.id, 'give-up')).status).toBe(404);
    expect((await act(sender, parcel.id, 'give-up')).status).toBe(403); // a driver's route
    expect((await act(driver, parcel.id, 'give-up', { reason: 'x'.repeat(201) })).body.details[0].field).toBe('body.reason');
    const before = await h.stored(parcel.id);

    const gaveUp = await act(driver, parcel.id, 'give-up', { reason: 'Xe hỏng giữa đường' });
    expect(gaveUp.status).toBe(200);
    expect(gaveUp.body).toMatchObject({ status: 'CREATED', driverId: null, driver: null, codes: null });
    const stored = await h.stored(parcel.id);
    expect(stored).toMatchObject({ driverId: null, pickupBy: null, formerDriverIds: [driver.user.id], releases: 1 });
    expect(stored.assignBy).toBeGreaterThan(before.assignBy);
    expect(await h.pool.state(driver.user.id)).toMatchObject({ jobId: null, sharedWith: null });
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: driver.accessToken })).status).toBe(404);
    const again = await act(driver, parcel.id, 'give-up', { reason: 'Xe hỏng giữa đường' });
    expect([again.status, again.body.code]).toEqual([409, 'DELIVERY_DRIVER_RELEASED']);
    expect((await history(parcel.id)).map((m) => `${m.action}:${m.reason ?? ''}`)).toEqual([
      'place:',
      `assign:driver ${driver.user.id}`,
      'giveUp:Xe hỏng giữa đường',
    ]);
    // The search is due at once (its task armed), with a new no-driver window.
    const timers = h.scheduled.filter((s) => s.id === parcel.id);
    expect(timers.filter((s) => s.queue === 'dispatch').map((s) => [s.phase, s.delaySec])).toEqual([[String(stored.dispatchAttempts), 1]]);
    expect(timers.filter((s) => s.queue === 'noDriver').map((s) => s.phase)).toEqual([undefined, 'r1']);

    // The former driver, free and nearest, is never offered it again: the next one is.
    await h.pool.online(other.user.id, here.near(400));
    await h.service.runDispatch(parcel.id);
    expect(await h.stored(parcel.id)).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: other.user.id });
    expect((await h.pool.state(driver.user.id)).jobId).toBeNull();
  });

  it('racing the pickup: exactly one of them happens', async () => {
    for (let round = 0; round < 3; round++) {
      const { driver, parcel } = await assigned();
      const [gaveUp, pickedUp] = await Promise.all([act(driver, parcel.id, 'give-up'), act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup })]);
      expect([gaveUp.status, pickedUp.status].filter((s) => s === 200)).toHaveLength(1);
      const status = (await h.stored(parcel.id)).status;
      if (gaveUp.status === 200) expect([status, pickedUp.status]).toEqual(['CREATED', 404]);
      else expect([status, gaveUp.body.code]).toEqual(['PICKED_UP', 'DELIVERY_TRANSITION']);
      expect((await history(parcel.id)).filter((m) => m.action === 'giveUp' || m.action === 'pickup')).toHaveLength(1);
    }
  });
});

describe('the pickup window', () => {
  it('its timer releases a parcel not picked up, once however often it is delivered', async () => {
    const { driver, parcel } = await assigned();
    const before = await h.stored(parcel.id);
    expect(before.pickupBy).toBe(before.assignedAt! + 30 * 60_000);
    const armed = h.scheduled.filter((s) => s.id === parcel.id && s.queue === 'pickup');
    expect(armed).toEqual([
      expect.objectContaining({ delaySec: 1_800, phase: assignmentOf(before), payload: { deliveryId: parcel.id, assignment: assignmentOf(before) } }),
    ]);
    await expect(h.service.runPickupTimeout(parcel.id, assignmentOf(before))).rejects.toThrow(/not due yet/);
    h.advance(31 * 60_000);
    const runs = [await h.service.runPickupTimeout(parcel.id, assignmentOf(before)), await h.service.runPickupTimeout(parcel.id, assignmentOf(before))];
    expect(runs).toEqual(['expired', 'settled']);
    await h.service.releaseOverdue(parcel.id); // a late task of no assignment
    expect(await h.stored(parcel.id)).toMatchObject({ status: 'CREATED', driverId: null, formerDriverIds: [driver.user.id] });
    expect((await h.pool.state(driver.user.id)).jobId).toBeNull();
    expect((await history(parcel.id)).filter((m) => m.action === 'giveUp').map((m) => m.by)).toEqual(['system:delivery-pickup-timeout']);
  });

  it('never releases a driver who picked the parcel up; is checked lazily on read', async () => {
    const { driver, parcel } = await assigned();
    const assignment = assignmentOf(await h.stored(parcel.id));
    expect((await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup })).status).toBe(200);
    h.advance(31 * 60_000);
    expect(await h.service.runPickupTimeout(parcel.id, assignment)).toBe('settled');
    expect(await h.stored(parcel.id)).toMatchObject({ status: 'PICKED_UP', driverId: driver.user.id });

    const late = await assigned(); // assigned 31 minutes into this harness's clock
    h.advance(31 * 60_000);
    const read = await h.send('GET', `/delivery/orders/${late.parcel.id}`, { token: late.sender.accessToken });
    expect(read.body).toMatchObject({ status: 'CREATED', driverId: null });
    expect((await h.send('GET', `/delivery/orders/${late.parcel.id}`, { token: late.driver.accessToken })).status).toBe(404);
  });
});

describe('photo proofs', () => {
  it('count only near the pickup and the drop-off (409 DELIVERY_HANDOVER_TOO_FAR); codes anywhere', async () => {
    const { driver, parcel } = await assigned();
    const photo = await handoverPhoto(driver);
    await h.pool.moveTo(driver.user.id, { lat: parcel.pickup.lat + 0.01, lng: parcel.pickup.lng });
    const far = await act(driver, parcel.id, 'pickup', { photoId: photo });
    expect([far.status, far.body.code, far.body.details.radiusM, far.body.details.distanceM > 1_000]).toEqual([409, 'DELIVERY_HANDOVER_TOO_FAR', 300, true]);
    await h.pool.moveTo(driver.user.id, parcel.pickup, 11 * 60_000);
    expect((await act(driver, parcel.id, 'pickup', { photoId: photo })).body.details).toMatchObject({ distanceM: null });
    await h.pool.moveTo(driver.user.id, parcel.pickup);
    expect((await act(driver, parcel.id, 'pickup', { photoId: photo })).body).toMatchObject({ status: 'PICKED_UP', pickupProof: { method: 'PHOTO' } });
    // Still at the pickup: the drop-off is kilometres away.
    const dropoffPhoto = await handoverPhoto(driver);
    expect((await act(driver, parcel.id, 'deliver', { photoId: dropoffPhoto })).body.code).toBe('DELIVERY_HANDOVER_TOO_FAR');
    await h.pool.moveTo(driver.user.id, parcel.dropoff);
    expect((await act(driver, parcel.id, 'deliver', { photoId: dropoffPhoto })).body).toMatchObject({
      status: 'DELIVERED',
      deliveryProof: { method: 'PHOTO' },
    });

    const second = await assigned();
    await h.pool.moveTo(second.driver.user.id, { lat: second.parcel.pickup.lat + 0.05, lng: second.parcel.pickup.lng });
    expect((await act(second.driver, second.parcel.id, 'pickup', { code: second.parcel.codes.pickup })).status).toBe(200);
    expect((await act(second.driver, second.parcel.id, 'deliver', { code: second.parcel.codes.dropoff })).body.status).toBe('DELIVERED');
  });
});
