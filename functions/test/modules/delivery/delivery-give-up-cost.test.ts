import { registerVerified, type Tokens } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { assignmentOf } from '../../../src/modules/delivery/delivery.deadlines';
import { deliveryHarness, placeParcel, type Harness } from './harness';

// What giving a parcel up costs the driver (the same release as orders', the driver module's): counted once, and no
// job offered for JOB_GIVE_UP_COOLDOWN_MIN; the pickup timer's release costs nothing. The search leaves the sender
// and the drivers who left the parcel out through the pool's `exclude`.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());
beforeEach(() => h.resetClock());

const act = (who: Tokens, id: string, action: string, body: unknown = {}) =>
  h.send('POST', `/delivery/orders/${id}/${action}`, { token: who.accessToken, body });

async function assigned() {
  const here = area();
  const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
  await h.pool.online(driver.user.id, here.near(100));
  const placed = await placeParcel(h, sender, here);
  expect(placed.body.status).toBe('DRIVER_ASSIGNED');
  return { here, sender, driver, parcel: placed.body as { id: string } };
}

describe('a parcel’s give-up’s cost', () => {
  it('counted once for a double tap (the second 409), and no parcel offered until the cooldown ends', async () => {
    const { here, sender, driver, parcel } = await assigned();
    const before = Date.now();
    const taps = await Promise.all([act(driver, parcel.id, 'give-up'), act(driver, parcel.id, 'give-up')]);
    expect(taps.map((t) => t.status).sort()).toEqual([200, 409]);
    expect(taps.find((t) => t.status === 409)!.body.code).toBe('DELIVERY_DRIVER_RELEASED');
    const state = await h.pool.state(driver.user.id);
    expect([state.jobId, state.gaveUps]).toEqual([null, 1]);
    expect(state.cooldownUntil).toBeGreaterThanOrEqual(before + 10 * 60_000);

    // Another parcel beside them now: nobody is offered it (they are the only driver there).
    const second = await placeParcel(h, sender, here);
    expect([second.body.status, second.body.driverId]).toEqual(['CREATED', null]);
    // Eleven minutes on, a new parcel there is theirs.
    h.advance(11 * 60_000);
    const third = await placeParcel(h, sender, here);
    expect([third.body.status, third.body.driverId]).toEqual(['DRIVER_ASSIGNED', driver.user.id]);
  });

  it('the pickup timer’s release costs nothing', async () => {
    const { driver, parcel } = await assigned();
    const assignment = assignmentOf(await h.stored(parcel.id));
    h.advance(31 * 60_000);
    expect(await h.service.runPickupTimeout(parcel.id, assignment)).toBe('expired');
    const state = await h.pool.state(driver.user.id);
    expect([state.jobId, state.gaveUps, state.cooldownUntil]).toEqual([null, undefined, undefined]);
  });

  it('the search asks the pool to leave out the sender and the drivers who left the parcel', async () => {
    const { here, sender, driver, parcel } = await assigned();
    expect((await act(driver, parcel.id, 'give-up')).status).toBe(200);
    const asked: Array<readonly string[] | undefined> = [];
    const spy = jest.spyOn(h.pool.port, 'nearbyAvailable');
    spy.mockImplementation(async (...args) => {
      asked.push(args[5]?.exclude);
      return [];
    });
    try {
      await h.service.runDispatch(parcel.id);
    } finally {
      spy.mockRestore();
    }
    expect(asked).toEqual([[sender.user.id, driver.user.id]]);
    // Their cooldown gone (back online afresh), the one who left, nearest, is still not offered it; another driver is.
    const other = await driverAccount();
    await Promise.all([h.pool.online(driver.user.id, here.near(100)), h.pool.online(other.user.id, here.near(500))]);
    h.advance(3 * 60_000); // past the next search's time, within the no-driver window
    await h.service.runDispatch(parcel.id);
    expect(await h.stored(parcel.id)).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: other.user.id });
  });
});
