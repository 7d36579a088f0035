import { randomUUID } from 'node:crypto';
import { db } from '../../src/platform/core/firebase/firebase';
import { distanceMeters, geohashOf, nearby } from '../../src/platform/kits/geo/geo';
import { requireEmulators } from '../helpers/emulators';

// The radius query on real Firestore range queries (orderBy geohash, startAt/endAt), checked against a
// brute-force distance filter over the same points.
beforeAll(requireEmulators);

describe('platform/kits/geo on Firestore', () => {
  it('finds exactly the points inside the radius, nearest first, the limit applied after merging', async () => {
    const center = { lat: 10.7769, lng: 106.7009 }; // HCMC, District 1
    const col = db().collection(`geo_test_${randomUUID().slice(0, 8)}`);
    // A deterministic scatter of 120 points up to ~6 km around the center.
    const points = Array.from({ length: 120 }, (_, i) => {
      const angle = (i * 137.5 * Math.PI) / 180;
      const km = ((i * 7919) % 600) / 100;
      return { id: `p${i}`, lat: center.lat + (km / 111) * Math.sin(angle), lng: center.lng + (km / 109) * Math.cos(angle) };
    });
    const batch = db().batch();
    for (const p of points) batch.set(col.doc(p.id), { lat: p.lat, lng: p.lng, geohash: geohashOf(p) });
    await batch.commit();
    const rangeQuery = async (start: string, end: string) =>
      (await col.orderBy('geohash').startAt(start).endAt(end).get()).docs.map((d) => ({ id: d.id, lat: d.get('lat') as number, lng: d.get('lng') as number }));

    for (const radiusM of [500, 2000, 4500]) {
      const expected = points
        .map((p) => ({ id: p.id, d: distanceMeters(center, p) }))
        .filter((p) => p.d <= radiusM)
        .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
      const found = await nearby(center, radiusM, 1000, rangeQuery, (p) => p);
      expect(found.map((f) => f.item.id)).toEqual(expected.map((p) => p.id));
      const limited = await nearby(center, radiusM, 5, rangeQuery, (p) => p);
      expect(limited.map((f) => f.item.id)).toEqual(expected.slice(0, 5).map((p) => p.id));
    }
  });
});
