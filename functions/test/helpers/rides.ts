import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from './accounts';
import { call } from './api';
import { area, drive, onlineDriver, type Driver } from './drivers';

// Rides' test steps shared by its test files: a narrowed administrator, and a trip started the way drivers do it.

type Here = ReturnType<typeof area>;

/** A fresh ADMIN narrowed to `permissions` by the full administrator. */
export async function narrowedAdmin(permissions: string[]): Promise<Tokens> {
  const admin = await adminTokens();
  const helper = await registerVerified();
  await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } });
  const set = await call('PATCH', `/users/admin/${helper.user.id}`, { token: admin.accessToken, body: { permissions } });
  if (JSON.stringify(set.body.permissions) !== JSON.stringify(permissions)) throw new Error(`permissions not set: ${JSON.stringify(set.body)}`);
  return helper;
}

/** A rider whose wallet was topped up with `amount` VND (MOCK gateway). */
export async function walletRider(amount = 300_000) {
  const rider = await registerVerified();
  await call('POST', '/wallet/topups', { token: rider.accessToken, body: { amount, provider: 'MOCK' }, headers: { 'idempotency-key': randomUUID() } });
  return rider;
}

/** Books pickup → `dropoffNorthM` north and takes the ride to IN_PROGRESS: the driver comes to the pickup first. */
export async function startedTrip(here: Here, rider: Tokens, driver: Driver, opts: { paymentMethod?: 'CASH' | 'WALLET'; dropoffNorthM?: number } = {}) {
  const body = { pickup: here.near(0), dropoff: here.near(opts.dropoffNorthM ?? 3_000), vehicleType: 'MOTORBIKE', paymentMethod: opts.paymentMethod ?? 'CASH' };
  const booked = await call('POST', '/rides', { token: rider.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
  if (booked.body.driverId !== driver.user.id) throw new Error(`not given to the driver: ${JSON.stringify(booked.body)}`);
  await drive(driver, here.near(0));
  for (const step of ['arrived', 'pickup']) {
    const moved = await call('POST', `/rides/${booked.body.id}/${step}`, { token: driver.accessToken });
    if (moved.status !== 200) throw new Error(`${step}: ${moved.status} ${JSON.stringify(moved.body)}`);
  }
  return booked.body as { id: string; quote: { fare: number; distanceM: number; durationSec: number }; paymentId: string | null };
}

/** A CASH trip of 3 km north, driven and completed by a driver who starts 100 m from the pickup. */
export async function completedTrip(here: Here) {
  const driver = await onlineDriver(here.near(100));
  const rider = await registerVerified();
  const ride = await startedTrip(here, rider, driver);
  await drive(driver, here.near(3_000));
  const done = await call('POST', `/rides/${ride.id}/complete`, { token: driver.accessToken });
  if (done.body.status !== 'COMPLETED') throw new Error(`complete: ${JSON.stringify(done.body)}`);
  return { driver, rider, ride };
}
