import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../../src/platform/core/firebase/firebase';
import { millisOf, type StoredTime } from '../../src/platform/kits/time/time';
import { registerVerified, type Tokens } from './accounts';
import { call } from './api';
import { USERS } from '../../src/modules/users/users.model';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from '../../src/modules/driver/driver.collections';
import type { Capability } from '../../src/modules/driver';

export type Driver = Tokens & { email: string };

export { area } from './geo';

/** A registered user with the DRIVER role (no profile, never online): the payee of a ride paid by wallet. */
export async function driverAccount(): Promise<Driver> {
  const who = await registerVerified({ name: 'Tài xế' });
  await db()
    .collection(USERS)
    .doc(who.user.id)
    .update({ roles: ['USER', 'DRIVER'] });
  return who;
}

/** An approved driver (profile with RIDE and a vehicle, or the capabilities given), ONLINE at `at`. */
export async function onlineDriver(
  at: { lat: number; lng: number },
  vehicle: { type: 'MOTORBIKE' | 'CAR'; seats?: number } = { type: 'MOTORBIKE' },
  name = 'Tài xế Hùng',
  capabilities: Capability[] = ['RIDE', 'DELIVERY'],
): Promise<Driver> {
  const who = await registerVerified({ name });
  const now = Date.now();
  await db()
    .collection(USERS)
    .doc(who.user.id)
    .update({ roles: ['DRIVER'] });
  await db()
    .collection(DRIVER_PROFILES)
    .doc(who.user.id)
    .set({
      userId: who.user.id,
      capabilities,
      vehicle: {
        type: vehicle.type,
        plate: `59X1-${String(Math.floor(Math.random() * 99999)).padStart(5, '0')}`,
        model: vehicle.type === 'CAR' ? 'Toyota Vios' : 'Honda Vision',
        color: 'white',
        seats: vehicle.seats ?? (vehicle.type === 'CAR' ? 4 : 2),
      },
      status: 'OFFLINE',
      lastLocation: null,
      approvedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  const status = await call('PATCH', '/driver/me/status', { token: who.accessToken, body: { status: 'ONLINE' } });
  if (status.status !== 200) throw new Error(`status ${status.status}: ${JSON.stringify(status.body)}`);
  const located = await call('POST', '/driver/me/location', { token: who.accessToken, body: at });
  if (located.status !== 200) throw new Error(`location ${located.status}: ${JSON.stringify(located.body)}`);
  // A second report 2 s later: a position is fresh for the geofenced steps once a report follows it.
  await db()
    .collection(DRIVER_LOCATIONS)
    .doc(who.user.id)
    .update({ locatedAt: Timestamp.fromMillis(Date.now() - 2_000) });
  await report(who, at);
  return who;
}

/** A courier (COURIER and DELIVERY, no RIDE, on a motorbike), ONLINE at `at`: jobs only. */
export const onlineCourier = (at: { lat: number; lng: number }, capabilities: Capability[] = ['COURIER', 'DELIVERY']) =>
  onlineDriver(at, { type: 'MOTORBIKE' }, 'Shipper Tuấn', capabilities);

/** Reports a position until it is written (not coalesced). */
export async function report(driver: Driver, at: { lat: number; lng: number }): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const res = await call('POST', '/driver/me/location', { token: driver.accessToken, body: at });
    if (res.status === 200 && !res.body.coalesced) return;
    await new Promise((r) => setTimeout(r, 400));
  }
  throw new Error('location never written');
}

/**
 * Drives to `at`: the stored position (and a trip's start) is first dated 10 minutes back, as if the driver had taken
 * that long to get here (kilometres in a second are refused: DRIVER_POSITION_JUMP; the distance driven is capped by
 * the time since pickup). Then a second report at the same point 2 s later: a position after a gap is fresh only
 * once the next report follows it.
 */
export async function drive(driver: Driver, at: { lat: number; lng: number }): Promise<void> {
  const ref = db().collection(DRIVER_LOCATIONS).doc(driver.user.id);
  const tripStartedAt = (await ref.get()).get('tripStartedAt') as StoredTime | null | undefined;
  await ref.update({
    locatedAt: Timestamp.fromMillis(Date.now() - 10 * 60_000),
    ...(tripStartedAt != null ? { tripStartedAt: Timestamp.fromMillis(millisOf(tripStartedAt) - 10 * 60_000) } : {}),
  });
  await report(driver, at);
  await ref.update({ locatedAt: Timestamp.fromMillis(Date.now() - 2_000) });
  await report(driver, at);
}
