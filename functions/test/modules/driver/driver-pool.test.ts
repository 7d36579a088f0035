import { db } from '../../../src/platform/core/firebase/firebase';
import { onAccountUpdated } from '../../../src/modules/driver/driver.triggers';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { testConfig } from '../../helpers/config';
import { waitFor } from '../../helpers/wait';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from '../../../src/modules/driver/driver.collections';

beforeAll(requireEmulators);

// Issue 29 item 8: a locked or de-roled driver leaves the pool at once (the `driverAccountChanged` trigger on the
// account), not when its position goes stale: no longer ONLINE, off the drivers map, not counted by surge.
let admin: Tokens;
let rider: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
  rider = await registerVerified();
});

const locationOf = async (driver: Driver) =>
  (await db().collection(DRIVER_LOCATIONS).doc(driver.user.id).get()).data() as { status: string; dispatchKey: string | null };
const onMap = async (here: ReturnType<typeof area>) =>
  (await call('GET', `/rides/drivers/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=1000`, { token: rider.accessToken })).body.count as number;
const offlineSoon = (driver: Driver) =>
  waitFor(async () => ((await locationOf(driver)).status === 'OFFLINE' ? true : undefined), { what: 'the driver taken offline' });

it('a driver locked by an administrator is OFFLINE and off the drivers map within seconds', async () => {
  const here = area();
  const driver = await onlineDriver(here.near(150));
  expect(await onMap(here)).toBe(1);
  expect((await call('DELETE', `/users/admin/${driver.user.id}`, { token: admin.accessToken })).status).toBe(200);
  await offlineSoon(driver);
  expect(await locationOf(driver)).toMatchObject({ status: 'OFFLINE', dispatchKey: null });
  expect((await db().collection(DRIVER_PROFILES).doc(driver.user.id).get()).get('status')).toBe('OFFLINE');
  expect(await onMap(here)).toBe(0);
}, 60_000);

it('a driver whose DRIVER role is removed leaves the pool; a profile edit of a driver who keeps it does not', async () => {
  const here = area();
  const kept = await onlineDriver(here.near(150));
  const demoted = await onlineDriver(here.near(300));
  expect((await call('PATCH', `/users/admin/${kept.user.id}`, { token: admin.accessToken, body: { fullName: 'Tài xế Minh' } })).status).toBe(200);
  expect((await call('PATCH', `/users/admin/${demoted.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } })).status).toBe(200);
  await offlineSoon(demoted);
  expect((await locationOf(kept)).status).toBe('ONLINE');
  expect(await onMap(here)).toBe(1);
}, 60_000);

it('a repeated delivery of the event changes nothing more, and a late one never takes a driver let back in offline', async () => {
  const here = area();
  const driver = await onlineDriver(here.near(150));
  const event = {
    id: `evt-${driver.user.id}`,
    time: new Date().toISOString(),
    params: { userId: driver.user.id },
    before: { id: driver.user.id, data: { roles: ['DRIVER'], disabled: false } },
    after: { id: driver.user.id, data: { roles: ['DRIVER'], disabled: true } },
  };
  const config = testConfig();
  // The account still may drive (the event is stale, e.g. redelivered after an administrator unlocked it): left ONLINE.
  expect(await onAccountUpdated(event, config)).toBe('ignored');
  expect((await locationOf(driver)).status).toBe('ONLINE');
  expect((await call('DELETE', `/users/admin/${driver.user.id}`, { token: admin.accessToken })).status).toBe(200);
  await offlineSoon(driver);
  // The trigger took them offline; the same event again changes nothing.
  expect(await onAccountUpdated(event, config)).toBe('ignored');
  expect((await locationOf(driver)).status).toBe('OFFLINE');
  // An account that could not drive before (already locked) is left alone.
  expect(await onAccountUpdated({ ...event, before: event.after }, config)).toBe('ignored');
}, 60_000);
