import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from './accounts';
import { call } from './api';
import { area, drive, onlineDriver, type Driver } from './drivers';

// The rides module's test driver: a trip booked, started and completed the way riders and drivers do it.
// A narrowed administrator (admins.ts) and a rider with money in the wallet (wallet.ts) are re-exported for its tests.
export { narrowedAdmin } from './admins';
export { walletRider } from './wallet';

type Here = ReturnType<typeof area>;

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
