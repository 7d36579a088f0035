import type { DocumentReference, WriteBatch } from 'firebase-admin/firestore';
import { writeCellIndex } from '../../src/platform/kits/geo/cell-index';
import { db } from '../../src/platform/core/firebase/firebase';
import { geohashOf, type LatLng } from '../../src/platform/kits/geo/geo';
import { geohashDistance, nearbyPage, type NearbyPosition } from '../../src/platform/kits/geo/nearby-page';
import { placesService } from '../../src/modules/places/places.catalog';
import { pharmacyProducts } from '../../src/modules/pharmacy/pharmacy.catalog';
import type { Tokens } from '../helpers/accounts';
import { call } from '../helpers/api';
import { deleteAll } from '../helpers/cleanup';
import { requireEmulators } from '../helpers/emulators';
import { TEST_JWT_SECRET } from '../helpers/config';
import { useCursorSecret } from '../../src/platform/kits/firestore/paginate';
import { area } from '../helpers/geo';
import { partnerCast } from '../helpers/partners';
import { PLACES } from '../../src/modules/places/places.collections';
import { catalogDocument, placeDocument } from '../helpers/points';
import { PHARMACY_PRODUCTS, PHARMACY_STORES } from '../../src/modules/pharmacy/pharmacy.collections';

beforeAll(requireEmulators);
// The cursors this process signs and reads itself (direct service calls): keyed like the API's.
beforeAll(() => useCursorSecret(TEST_JWT_SECRET));

// Item 11 of issue 29: nearby reads are bounded (a radius per vertical, a read budget per request), page by distance
// with a cursor, and are rate-limited per caller. The documents read are counted by the reader itself (Firestore
// range queries on the emulator) and by the kit's count the bench reports.

let user: Tokens;
beforeAll(async () => {
  ({ user } = await partnerCast('Quán Dày', 'Quán Thưa'));
});
// Thousands of places: removed when done (test/helpers/cleanup.ts says why).
const written: DocumentReference[] = [];
// The cell index entries of the ACTIVE ones written here (what the catalog's transactions write), taken out after.
const indexed: Array<{ collection: string; id: string; geohash: string }> = [];
/** Indexes the ACTIVE records a batch writes (one write per cell document: call once per batch and collection). */
function index(batch: WriteBatch, collection: string, records: Array<{ id: string; geohash: string }>) {
  indexed.push(...records.map((r) => ({ collection, ...r })));
  writeCellIndex(
    batch,
    collection,
    records.map((r) => ({ id: r.id, after: r.geohash })),
  );
}
afterAll(async () => {
  for (let i = 0; i < indexed.length; i += 100) {
    const batch = db().batch();
    for (const collection of new Set(indexed.map((x) => x.collection)))
      writeCellIndex(
        batch,
        collection,
        indexed.slice(i, i + 100).flatMap((x) => (x.collection === collection ? [{ id: x.id, before: x.geohash }] : [])),
      );
    await batch.commit();
  }
  await deleteAll(written);
});

/** n ACTIVE places in a disc of `spreadM` around `center`, written straight to Firestore (ids fixed by `tag`). */
async function seedPlaces(center: LatLng, n: number, spreadM: number, tag: string, options: { status?: string; stacked?: boolean } = {}) {
  const t = Date.now();
  const points: Array<LatLng & { id: string }> = [];
  for (let i = 0; i < n; i += 400) {
    const batch = db().batch();
    const active: Array<{ id: string; geohash: string }> = [];
    for (let j = i; j < Math.min(n, i + 400); j++) {
      const r = options.stacked ? spreadM : spreadM * Math.sqrt((j + 0.5) / n);
      const a = options.stacked ? 0 : j * 2.399963;
      const at = { lat: center.lat + (r * Math.cos(a)) / 111_320, lng: center.lng + (r * Math.sin(a)) / (111_320 * Math.cos((center.lat * Math.PI) / 180)) };
      const id = `${tag}-${String(j).padStart(4, '0')}`;
      points.push({ id, ...at });
      written.push(db().collection(PLACES).doc(id));
      if ((options.status ?? 'ACTIVE') === 'ACTIVE') active.push({ id, geohash: geohashOf(at) });
      batch.set(db().collection(PLACES).doc(id), placeDocument(`Quán ${j}`, at, { status: options.status, at: t }));
    }
    index(batch, PLACES, active);
    await batch.commit();
  }
  return points;
}

const brute = (points: Array<LatLng & { id: string }>, center: LatLng, radiusM: number) =>
  points
    .map((p) => ({ id: p.id, d: geohashDistance(center, geohashOf(p)) }))
    .filter((p) => p.d <= radiusM)
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .map((p) => p.id);

describe('nearby under a read budget', () => {
  it('in a dense area the budget caps the documents read (counted by the reader), and the pages join up by distance', async () => {
    const here = area();
    const tag = `dense${Math.floor(Math.random() * 1e6)}`;
    const points = await seedPlaces(here, 800, 400, tag);
    const expected = brute(points, here, 300);
    expect(expected.length).toBeGreaterThan(400);
    let counted = 0;
    const read = async (start: string, end: string, max: number, afterId?: string, endId?: string) => {
      const ordered = db().collection(PLACES).orderBy('geohash').orderBy('__name__');
      const from = afterId !== undefined ? ordered.startAfter(start, afterId) : ordered.startAt(start);
      const snap = await (endId !== undefined ? from.endAt(end, endId) : from.endAt(end)).limit(max).get();
      counted += Math.max(1, snap.size);
      return snap.docs.map((d) => ({ id: d.id, lat: d.get('lat') as number, lng: d.get('lng') as number, geohash: d.get('geohash') as string }));
    };
    const ids: string[] = [];
    let after: NearbyPosition | undefined;
    let pages = 0;
    do {
      counted = 0;
      const page = await nearbyPage({ center: here, radiusM: 300, limit: 50, budget: 200, after, read, pointOf: (p) => p });
      expect(counted).toBeLessThanOrEqual(200);
      expect(page.reads).toBe(counted);
      ids.push(...page.items.map((f) => f.item.id));
      after = page.next;
      pages += 1;
    } while (after && pages < 40);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  });

  it('GET /places/nearby pages a dense area by cursor with no duplicates or gaps; the service reads at most its budget', async () => {
    const here = area();
    const tag = `http${Math.floor(Math.random() * 1e6)}`;
    const points = await seedPlaces(here, 400, 400, tag);
    const expected = brute(points, here, 250);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: Array<{ id: string; distanceM: number }>; nextCursor: string | null } } = await call(
        'GET',
        `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=250&limit=40${cursor ? `&cursor=${cursor}` : ''}`,
        { token: user.accessToken },
      );
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('reads');
      ids.push(...res.body.items.map((p) => p.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(ids).toEqual(expected);

    // The same search over the whole 400 m with a budget of 150: the first page reads at most 150 of the 400 records
    // in the circle and is the exact nearest prefix; the second continues from it by distance.
    expect(brute(points, here, 400)).toHaveLength(400);
    const service = placesService();
    const caller = { userId: user.user.id, roles: ['USER' as const] };
    const first = await service.nearby({ lat: here.lat, lng: here.lng, radiusM: 400, limit: 10 }, caller, { budget: 150 });
    expect(first.reads).toBeLessThanOrEqual(150);
    expect(first.items.map((p) => p.id)).toEqual(expected.slice(0, 10));
    const second = await service.nearby({ lat: here.lat, lng: here.lng, radiusM: 400, limit: 10, cursor: first.nextCursor! }, caller, { budget: 150 });
    expect(second.reads).toBeLessThanOrEqual(150);
    expect(second.items.map((p) => p.id)).toEqual(expected.slice(10, 20));
  });

  it('archived records stacked at one spot cost no read (the cell index lists ACTIVE ones only), and active ones stacked there page through a budget below their number', async () => {
    const here = area();
    const tag = `stack${Math.floor(Math.random() * 1e6)}`;
    const spot = { lat: here.lat + 100 / 111_320, lng: here.lng };
    await seedPlaces(spot, 360, 0, `${tag}-gone`, { status: 'ARCHIVED', stacked: true });
    const active = [...(await seedPlaces(spot, 150, 0, `${tag}-mall`, { stacked: true })), ...(await seedPlaces(here, 30, 300, `${tag}-around`))];
    const expected = brute(active, here, 400);
    const service = placesService();
    const caller = { userId: user.user.id, roles: ['USER' as const] };
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 60; page++) {
      const found = await service.nearby({ lat: here.lat, lng: here.lng, radiusM: 400, limit: 20, ...(cursor ? { cursor } : {}) }, caller, { budget: 100 });
      expect(found.reads).toBeLessThanOrEqual(100);
      ids.push(...found.items.map((p) => p.id));
      if (!found.nextCursor) break;
      cursor = found.nextCursor;
    }
    expect(ids).toEqual(expected);
    // One page of the 360 archived alone (no active record there): the search reads none of them.
    const lone = area();
    await seedPlaces(lone, 360, 0, `${tag}-lone`, { status: 'ARCHIVED', stacked: true });
    const empty = await service.nearby({ lat: lone.lat, lng: lone.lng, radiusM: 50, limit: 20 }, caller, { budget: 400 });
    expect(empty.items).toEqual([]);
    expect(empty.reads).toBeLessThan(20);
  });

  it('a pharmacy product search reads within the budget whatever matches elsewhere: stores near the point first, then their stock (issue 29)', async () => {
    const here = area();
    const tag = `pz${Math.floor(Math.random() * 1e6)}`;
    const t = Date.now();
    // 600 matching lines in 30 stores 20 km away (the old search read up to 1,000 lines first), and 2 stores nearby.
    const store = (id: string, at: LatLng) => catalogDocument(`Nhà thuốc ${id}`, at, { open24h: false }, { at: t });
    const line = (storeId: string, sku: string) => ({
      storeId,
      sku,
      name: `Panadol ${tag} ${sku}`,
      nameFolded: `panadol ${tag} ${sku}`.toLowerCase(),
      terms: ['panadol', tag],
      priceVnd: 1_000,
      stock: 5,
      inStock: true,
      unit: 'hộp',
      requiresPrescription: false,
      updatedBy: 'test',
      updatedAt: t,
    });
    const batch = db().batch();
    const stores: Array<{ id: string; geohash: string }> = [];
    const put = (collection: string, id: string, data: Record<string, unknown>) => {
      written.push(db().collection(collection).doc(id));
      if (collection === PHARMACY_STORES) stores.push({ id, geohash: data.geohash as string });
      batch.set(db().collection(collection).doc(id), data);
    };
    const far = { lat: here.lat + 20_000 / 111_320, lng: here.lng };
    for (let s = 0; s < 30; s++) {
      put(PHARMACY_STORES, `${tag}-far-${s}`, store(`${tag}-far-${s}`, far));
      for (let k = 0; k < 20; k++) put(PHARMACY_PRODUCTS, `${tag}-far-${s}_P${k}`, line(`${tag}-far-${s}`, `P${k}`));
    }
    for (const [n, north] of [
      [1, 100],
      [2, 300],
    ] as const) {
      put(PHARMACY_STORES, `${tag}-near-${n}`, store(`${tag}-near-${n}`, { lat: here.lat + north / 111_320, lng: here.lng }));
      put(PHARMACY_PRODUCTS, `${tag}-near-${n}_P0`, line(`${tag}-near-${n}`, 'P0'));
    }
    index(batch, PHARMACY_STORES, stores);
    await batch.commit();
    const caller = { userId: user.user.id, roles: ['USER' as const] };
    const found = await pharmacyProducts().searchNearby({ q: `panadol ${tag}`, lat: here.lat, lng: here.lng, radiusM: 3_000, limit: 10 }, caller, {
      budget: 50,
    });
    expect(found.items.map((i) => i.store.id)).toEqual([`${tag}-near-1`, `${tag}-near-2`]);
    expect(found.reads).toBeLessThanOrEqual(50);
    // Whatever the budget, the search answers with the nearest stores it reached (a prefix), never 422: a page that
    // spends what is left of the budget on cells ends the list.
    for (const budget of [1, 2, 3, 5, 8, 13, 21, 34]) {
      const some = await pharmacyProducts().searchNearby({ q: `panadol ${tag}`, lat: here.lat, lng: here.lng, radiusM: 3_000, limit: 10 }, caller, { budget });
      expect([`${tag}-near-1`, `${tag}-near-2`].slice(0, some.items.length)).toEqual(some.items.map((i) => i.store.id));
      expect(some.reads).toBeLessThanOrEqual(budget);
    }
  });

  it.each([
    ['/places/nearby', 10_001],
    ['/pharmacy/stores/nearby', 10_001],
    ['/parking/lots/nearby', 5_001],
    ['/fuel/stations/nearby', 20_001],
    ['/atm/nearby', 5_001],
    ['/rides/drivers/nearby', 10_001],
    ['/pharmacy/products/search', 10_001],
  ])('%s refuses a radius above its vertical bound (radiusM=%d → 400)', async (path, radiusM) => {
    const q = path.endsWith('search') ? '&q=para' : '';
    const over = await call('GET', `${path}?lat=10.77&lng=106.7&radiusM=${radiusM}${q}`, { token: user.accessToken });
    expect(over.status).toBe(400);
    expect(over.body.details.map((d: { field: string }) => d.field)).toContain('query.radiusM');
    expect((await call('GET', `${path}?lat=10.77&lng=106.7&radiusM=${radiusM - 1}${q}`, { token: user.accessToken })).status).toBe(200);
  });

  it.each(['abc', Buffer.from('{"v":["x",0],"id":"a","t":"x"}').toString('base64url'), Buffer.from('[]').toString('base64url')])(
    'a cursor that is not a nextCursor of the search (%s) → 400 INVALID_CURSOR',
    async (cursor) => {
      const res = await call('GET', `/atm/nearby?lat=10.77&lng=106.7&cursor=${cursor}`, { token: user.accessToken });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_CURSOR');
    },
  );
});
