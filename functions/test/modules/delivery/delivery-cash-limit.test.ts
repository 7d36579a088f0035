import { registerVerified } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { topUp } from '../../helpers/wallet';
import { deliveryHarness, placeParcel, type Harness } from './harness';

// Cash a driver collects for others is owed from their earnings: a driver is claimed for a cash job only while their
// earnings stay within the cash-debt limit (here 0: only drivers in credit), so no one runs up an unlimited debt.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness({ cashDebtLimitVnd: 0 });
});
afterAll(() => h.close());

it('a driver with no earnings is not given cash on delivery, and is given a wallet parcel without it', async () => {
  const here = area();
  const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
  await topUp(sender, 200_000);
  await h.pool.online(driver.user.id, here.near(200));
  const cod = await placeParcel(h, sender, here, { codAmount: 200_000 });
  expect(cod.status).toBe(201);
  expect(cod.body).toMatchObject({ status: 'CREATED', driverId: null });
  expect((await h.pool.state(driver.user.id)).jobId).toBeNull();
  const wallet = await placeParcel(h, sender, here, { paymentMethod: 'WALLET' });
  expect(wallet.body).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: driver.user.id });
});
