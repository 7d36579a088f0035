import { randomUUID } from 'node:crypto';
import { jobPool } from '../../../src/modules/driver';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { dropRetiredCooldowns } from '../../../src/modules/driver/driver.migrate-cooldowns';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import { adminTokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineCourier, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';

// The job pool's side of a give-up: the driver freed, counted, and offered no job (search or claim) until the
// cooldown ends; a search's `exclude` (a job's customer, the couriers who left it); and the operators' view of it.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

const ids = (found: Array<{ userId: string }>) => found.map((d) => d.userId);
const job = (customerId = 'customer') => ({ kind: 'ORDER' as const, jobId: `O-${randomUUID()}`, customerId, capability: 'COURIER' as const, at: Date.now() });
const claim = (driver: Driver, j = job()) => inTransaction(async (tx) => jobPool.txClaim(tx, await jobPool.txRead(tx, driver.user.id), j));
const release = (driver: Driver, jobId: string, gaveUp?: { cooldownUntil: number }) =>
  inTransaction(async (tx) => jobPool.txRelease(tx, await jobPool.txRead(tx, driver.user.id), jobId, Date.now(), gaveUp));
const stored = async (driver: Driver) => (await db().collection(DRIVER_LOCATIONS).doc(driver.user.id).get()).data()!;

describe('a give-up in the job pool', () => {
  it('counts it and keeps the driver out of searches and claims until the cooldown ends; a plain release costs nothing', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(100));
    const first = job();
    expect(await claim(courier, first)).toBeDefined();
    // The job ended normally (delivered, cancelled): not counted, no cooldown.
    await release(courier, first.jobId);
    expect(await jobPool.giveUps(courier.user.id)).toEqual({ count: 0, cooldownUntil: null });

    const second = job();
    expect(await claim(courier, second)).toBeDefined();
    const until = Date.now() + 60_000;
    await release(courier, second.jobId, { cooldownUntil: until });
    // A repeated release (a retried move) is a no-op: counted once.
    await release(courier, second.jobId, { cooldownUntil: until + 5_000 });
    expect(await jobPool.giveUps(courier.user.id)).toEqual({ count: 1, cooldownUntil: until });
    expect((await stored(courier)).currentJobId).toBeNull();
    // Neither the count nor the cooldown is on the location document a rider or a job's customer may read.
    expect(Object.keys(await stored(courier)).filter((k) => /giveUp|cooldown/i.test(k))).toEqual([]);

    const now = Date.now();
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 5, now))).toEqual([]);
    expect(await claim(courier, job())).toBeUndefined();
    // Past the cooldown (and still fresh) they are found and claimed again.
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 5, until + 1_000))).toEqual([courier.user.id]);
    expect(await claim(courier, { ...job(), at: until + 1_000 })).toBeDefined();
  });

  it('drivers cooling down do not take a search’s places (it takes 3× its limit and keeps the free ones), up to that slack', async () => {
    const here = area();
    const cooling = [await onlineCourier(here.near(100)), await onlineCourier(here.near(200)), await onlineCourier(here.near(300))];
    const free = await onlineCourier(here.near(400));
    for (const driver of cooling) {
      const j = job();
      await claim(driver, j);
      await release(driver, j.jobId, { cooldownUntil: Date.now() + 60_000 });
    }
    const now = Date.now();
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 2, now))).toEqual([free.user.id]);
    // More of the nearest cooling down than the slack covers (3 of the 3 taken for a limit of 1): short this time.
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 1, now))).toEqual([]);
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 1, now, { exclude: [cooling[0].user.id] }))).toEqual([free.user.id]);
  });

  it('a later give-up never shortens a running cooldown', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(100));
    const first = job();
    await claim(courier, first);
    const until = Date.now() + 120_000;
    await release(courier, first.jobId, { cooldownUntil: until });
    // Claimed anyway by a test-made job (the claim refuses while cooling: past it) and given up with a shorter one.
    const second = { ...job(), at: until + 1_000 };
    expect(await claim(courier, second)).toBeDefined();
    await release(courier, second.jobId, { cooldownUntil: Date.now() + 30_000 });
    expect(await jobPool.giveUps(courier.user.id)).toEqual({ count: 2, cooldownUntil: until });
  });

  it('driver:drop-retired-cooldowns clears the field cooldowns had on location documents, and nothing else; a second run finds none', async () => {
    const here = area();
    const [old, current] = [await onlineCourier(here.near(100)), await onlineCourier(here.near(200))];
    await db().collection(DRIVER_LOCATIONS).doc(old.user.id).update({ jobCooldownUntil: 12345 });
    const [before, untouched] = [await stored(old), await stored(current)];
    const progress: number[] = [];
    expect((await dropRetiredCooldowns((pages) => progress.push(pages))).cleared).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeGreaterThan(0);
    const { jobCooldownUntil: _retired, ...kept } = before;
    expect(await stored(old)).toEqual(kept);
    expect(await stored(current)).toEqual(untouched);
    expect(await dropRetiredCooldowns()).toEqual({ pages: 0, cleared: 0 });
  });

  it('a search leaves out whom it is told to, without spending its limit on them', async () => {
    const here = area();
    const near = await onlineCourier(here.near(100));
    const middle = await onlineCourier(here.near(300));
    const far = await onlineCourier(here.near(600));
    const at = Date.now();
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 2, at))).toEqual([near.user.id, middle.user.id]);
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 2, at, { exclude: [near.user.id] }))).toEqual([middle.user.id, far.user.id]);
    expect(ids(await jobPool.nearbyAvailable(here.near(0), 2_000, 'COURIER', 5, at, { exclude: [near.user.id, far.user.id, 'nobody'] }))).toEqual([
      middle.user.id,
    ]);
  });
});

describe('the operators’ view of a courier’s give-ups', () => {
  it('an administrator reads the count and the cooldown; a driver may not (403)', async () => {
    const here = area();
    const courier = await onlineCourier(here.near(100));
    const j = job();
    await claim(courier, j);
    const until = Date.now() + 120_000;
    await release(courier, j.jobId, { cooldownUntil: until });
    const admin = await adminTokens();
    const seen = await call('GET', `/orders/admin/couriers/${courier.user.id}/give-ups`, { token: admin.accessToken });
    expect([seen.status, seen.body]).toEqual([200, { courierId: courier.user.id, giveUps: 1, cooldownUntil: new Date(until).toISOString() }]);
    const never = await call('GET', `/orders/admin/couriers/u-${randomUUID()}/give-ups`, { token: admin.accessToken });
    expect(never.body).toMatchObject({ giveUps: 0, cooldownUntil: null });
    expect((await call('GET', `/orders/admin/couriers/${courier.user.id}/give-ups`, { token: courier.accessToken })).status).toBe(403);
    expect((await call('GET', `/orders/admin/couriers/${courier.user.id}/give-ups`)).status).toBe(401);
  });
});
