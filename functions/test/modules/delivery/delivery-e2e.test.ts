import { randomUUID } from 'node:crypto';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineCourier, onlineDriver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { RECIPIENT, route, SENDER } from './harness';

// Parcel delivery through the real API and the driver module's real job pool (the other files use a double): the
// nearest DELIVERY driver is claimed, a RIDE-only driver nearer still is not, the sender sees the position only
// between pickup and delivery, and the driver is free again afterwards.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

const location = async (driverId: string) => (await db().collection(DRIVER_LOCATIONS).doc(driverId).get()).data()!;

it('a parcel placed through the API is dispatched by the job pool and released after delivery', async () => {
  const here = area();
  const [sender, rideOnly, courier] = await Promise.all([
    registerVerified(),
    onlineDriver(here.near(50), { type: 'MOTORBIKE' }, 'Xe ôm Hùng', ['RIDE']),
    onlineCourier(here.near(400)),
  ]);
  const quote = await call('POST', '/delivery/quote', { token: sender.accessToken, body: route(here, 3) });
  expect(quote.status).toBe(200);
  const placed = await call('POST', '/delivery/orders', {
    token: sender.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { quoteId: quote.body.quoteId, sender: SENDER, recipient: RECIPIENT, parcel: { description: 'Giấy tờ' }, paymentMethod: 'CASH' },
  });
  expect(placed.status).toBe(201);
  expect(placed.body).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: courier.user.id });
  expect(await location(courier.user.id)).toMatchObject({ currentJobId: placed.body.id, currentJobKind: 'DELIVERY', jobKeys: [] });
  expect((await location(courier.user.id)).sharedWithId ?? null).toBeNull();
  expect((await location(rideOnly.user.id)).currentJobId ?? null).toBeNull();
  // A driver on a job is offered no ride.
  expect((await location(courier.user.id)).dispatchKey).toBeNull();

  const picked = await call('POST', `/delivery/orders/${placed.body.id}/pickup`, { token: courier.accessToken, body: { code: placed.body.codes.pickup } });
  expect(picked.status).toBe(200);
  expect((await location(courier.user.id)).sharedWithId).toBe(sender.user.id);

  const delivered = await call('POST', `/delivery/orders/${placed.body.id}/deliver`, { token: courier.accessToken, body: { code: placed.body.codes.dropoff } });
  expect(delivered.status).toBe(200);
  expect(delivered.body.status).toBe('DELIVERED');
  const after = await location(courier.user.id);
  expect(after.currentJobId ?? null).toBeNull();
  expect(after.sharedWithId ?? null).toBeNull();
  expect(after.jobKeys).toEqual(expect.arrayContaining(['DELIVERY']));
});
