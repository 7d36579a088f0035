import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { createDispatchService, dispatchPool } from '../../../src/modules/driver/driver.dispatch';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import { distanceMeters, geohashOf } from '../../../src/platform/kits/geo/geo';
import { requireEmulators } from '../../helpers/emulators';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from '../../../src/modules/driver/driver.collections';

beforeAll(requireEmulators);

// The position hot path without the HTTP layer: a clock of the test's own, a hub that records what it is given,
// and writes from "another instance" made straight to the document.

const T0 = 1_900_000_000_000; // a whole second
const START = { lat: 10.7769, lng: 106.7009 };
const north = (m: number) => ({ lat: START.lat + m / 111_320, lng: START.lng });

function harness() {
  let clock = T0;
  const sent: Array<{ event: string; recipients: Array<{ userId: string }>; realtimeData?: Record<string, unknown> }> = [];
  const service = createDispatchService({ hub: { dispatch: async (input) => (sent.push(input as never), []) }, now: () => clock });
  return { service, sent, at: (ms: number) => (clock = T0 + ms) };
}

async function freeDriver(): Promise<string> {
  const id = `pos-${randomUUID()}`;
  await db()
    .collection(DRIVER_PROFILES)
    .doc(id)
    .set({
      userId: id,
      capabilities: ['RIDE'],
      vehicle: { type: 'MOTORBIKE', plate: '59X1-00001', model: null, color: null, seats: 2 },
      status: 'ONLINE',
      lastLocation: null,
      approvedAt: T0,
      createdAt: T0,
      updatedAt: T0,
    });
  return id;
}

const stored = async (id: string) => (await db().collection(DRIVER_LOCATIONS).doc(id).get()).data()!;

describe('driver position reports', () => {
  it('writes the first report of each clock second, coalesces the rest, and never goes back to an older position', async () => {
    const { service, at } = harness();
    const id = await freeDriver();
    at(0);
    // The first report creates the document from the profile (status, capabilities, ride class).
    expect(await service.report(id, START)).toMatchObject({ accepted: true, coalesced: false });
    expect(await stored(id)).toMatchObject({
      ...START,
      geohash: geohashOf(START),
      status: 'ONLINE',
      dispatchKey: 'MOTORBIKE',
      locatedAt: Timestamp.fromMillis(T0),
    });
    at(400);
    expect((await service.report(id, north(10))).coalesced).toBe(true);
    at(999);
    expect((await service.report(id, north(20))).coalesced).toBe(true);
    expect((await stored(id)).lat).toBe(START.lat);
    // The next second: written, even though less than 1,000 ms after the first write.
    at(1_001);
    expect((await service.report(id, north(30))).coalesced).toBe(false);
    expect((await stored(id)).lat).toBeCloseTo(north(30).lat, 9);
    // A report stamped before the stored position (another instance's clock) does not replace it.
    at(2_500);
    await db()
      .collection(DRIVER_LOCATIONS)
      .doc(id)
      .update({ locatedAt: Timestamp.fromMillis(T0 + 3_000), lat: north(99).lat });
    expect((await service.report(id, north(40))).coalesced).toBe(true);
    expect((await stored(id)).lat).toBeCloseTo(north(99).lat, 9);
  });

  it('writes one of many parallel reports in the same second', async () => {
    const { service, at } = harness();
    const id = await freeDriver();
    at(0);
    await service.report(id, START);
    at(5_000);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => service.report(id, north(i + 1))));
    expect(answers.filter((a) => !a.coalesced)).toHaveLength(1);
    expect((await stored(id)).locatedAt).toEqual(Timestamp.fromMillis(T0 + 5_000));
  });

  it('picks up a claim made elsewhere: the report does not undo it, counts the trip from the stored position and tells the rider', async () => {
    const { service, sent, at } = harness();
    const id = await freeDriver();
    at(0);
    await service.report(id, START);
    at(1_000);
    await service.report(id, north(100)); // this instance now knows the document's version
    // Another instance claims the driver for a ride and starts the trip (the document changes under the known version).
    const rideId = `ride-${randomUUID()}`;
    await inTransaction(async (tx) =>
      dispatchPool.txClaim(tx, await dispatchPool.txRead(tx, id), { rideId, riderId: 'rider-1', rideClass: 'MOTORBIKE', at: T0 + 1_500 }),
    );
    await inTransaction(async (tx) => dispatchPool.txStartTrip(tx, await dispatchPool.txRead(tx, id), rideId, T0 + 1_600));
    at(2_000);
    expect((await service.report(id, north(300))).coalesced).toBe(false);
    // Another instance writes a newer position: the version this instance wrote is stale now.
    await db()
      .collection(DRIVER_LOCATIONS)
      .doc(id)
      .update({ lat: north(350).lat, geohash: geohashOf(north(350)), tripDistanceM: 150, tripAnchor: north(350) });
    for (const [i, m] of [450, 600].entries()) {
      at(3_000 + i * 1_000);
      expect((await service.report(id, north(m))).coalesced).toBe(false);
    }
    const after = await stored(id);
    expect(after).toMatchObject({ currentRideId: rideId, riderId: 'rider-1', tripActive: true, dispatchKey: null });
    // Carried on from what the other instance stored (150 m, counted up to 350 m north), not from this instance's last
    // write; the 100 m to 450 m is within the GPS drift of the last counted point, so it counts only with the move on.
    expect(after.tripDistanceM).toBe(Math.round(150 + distanceMeters(north(350), north(600))));
    const locations = sent.filter((s) => s.event === 'ride:location');
    expect(locations).toHaveLength(3);
    expect(locations.every((s) => s.recipients[0].userId === 'rider-1' && s.realtimeData?.rideId === rideId)).toBe(true);
    // The listened documents' time form: the position's time is a Timestamp, as are the stored ones.
    expect(locations.map((s) => s.realtimeData?.at)).toEqual([2_000, 3_000, 4_000].map((ms) => Timestamp.fromMillis(T0 + ms)));
    expect(after.tripStartedAt).toEqual(Timestamp.fromMillis(T0 + 1_600));
  });

  it('follows a status change made elsewhere: an OFFLINE driver keeps reporting without becoming assignable', async () => {
    const { service, at } = harness();
    const id = await freeDriver();
    at(0);
    await service.report(id, START);
    await db().collection(DRIVER_LOCATIONS).doc(id).update({ status: 'OFFLINE', dispatchKey: null });
    at(1_000);
    expect((await service.report(id, north(10))).coalesced).toBe(false);
    expect(await stored(id)).toMatchObject({ status: 'OFFLINE', dispatchKey: null });
  });
});
