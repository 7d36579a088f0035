import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { atmModule } from '../../src/modules/atm/atm.module';
import { placesModule } from '../../src/modules/places/places.module';
import { createJwtAccessTokenVerifier } from '../../src/platform/core/auth/access-token';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { testConfig } from '../helpers/config';
import { listen } from '../helpers/http';
import { signAccessToken } from '../helpers/tokens';
import { blurredForMap, distanceMeters, geohashOf, radiusQuerySchema, type LatLng } from '../../src/platform/kits/geo/geo';
import { cellBox, geohashDistance, nearbyPage, type NearbyPosition } from '../../src/platform/kits/geo/nearby-page';
import { HCMC, metres, scatter } from '../helpers/points';

// The geo kit's paging by distance under a read budget, over an in-memory "collection" (records sorted by geohash
// then id, as the Firestore range query returns them) whose reader counts every record it hands out.

interface Point extends LatLng {
  id: string;
  geohash: string;
}

function collection(points: Point[]) {
  const sorted = [...points].sort((a, b) => (a.geohash < b.geohash ? -1 : a.geohash > b.geohash ? 1 : a.id < b.id ? -1 : 1));
  // rounds: reads made one after another (those started together, as a batch's Promise.all, are one round trip).
  const counter = { reads: 0, queries: 0, rounds: 0, inFlight: 0 };
  // (geohash, id) order: startAt(start) or startAfter(start, afterId); endAt(end) or endAt(end, endId).
  const before = (p: Point, g: string, id?: string) => p.geohash < g || (id !== undefined && p.geohash === g && p.id <= id);
  const read = async (start: string, end: string, max: number, afterId?: string, endId?: string) => {
    counter.queries += 1;
    let lo = 0;
    for (let hi = sorted.length; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (before(sorted[mid], start, afterId)) lo = mid + 1;
      else hi = mid;
    }
    const out: Point[] = [];
    for (
      let i = lo;
      i < sorted.length && (sorted[i].geohash < end || (sorted[i].geohash === end && (endId === undefined || sorted[i].id <= endId))) && out.length < max;
      i++
    )
      out.push(sorted[i]);
    // As Firestore bills: a query that finds nothing costs one read.
    counter.reads += Math.max(1, out.length);
    if (counter.inFlight++ === 0) counter.rounds += 1;
    await null; // the reads of one batch are all started before any ends
    counter.inFlight -= 1;
    return out;
  };
  return { read, counter };
}

// Records are paged by their geohash cell's centre (within a metre of the point): the scan orders the same way.
const brute = (points: Point[], center: LatLng, radiusM: number) =>
  points
    .map((p) => ({ id: p.id, d: geohashDistance(center, p.geohash) }))
    .filter((p) => p.d <= radiusM)
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .map((p) => p.id);

async function allPages(points: Point[], center: LatLng, radiusM: number, limit: number, budget: number, from?: NearbyPosition) {
  const { read, counter } = collection(points);
  const ids: string[] = [];
  const readsPerPage: number[] = [];
  let after: NearbyPosition | undefined = from;
  for (let page = 0; page < 500; page++) {
    const before = counter.reads;
    const found = await nearbyPage({ center, radiusM, limit, budget, after, read, pointOf: (p) => p });
    readsPerPage.push(counter.reads - before);
    expect(found.reads).toBe(counter.reads - before);
    ids.push(...found.items.map((f) => f.item.id));
    expect(found.stuck).toBe(false);
    if (!found.next) break;
    after = found.next;
  }
  return { ids, readsPerPage };
}

describe('platform/kits/geo nearbyPage', () => {
  it('decodes a geohash cell to the rectangle that holds its points', () => {
    const hash = geohashOf(HCMC);
    const box = cellBox(hash.slice(0, 6));
    expect(HCMC.lat).toBeGreaterThanOrEqual(box.latMin);
    expect(HCMC.lat).toBeLessThanOrEqual(box.latMax);
    expect(HCMC.lng).toBeGreaterThanOrEqual(box.lngMin);
    expect(HCMC.lng).toBeLessThanOrEqual(box.lngMax);
  });

  it('pages a sparse circle by distance exactly as a brute-force scan, without duplicates or gaps', async () => {
    const points = scatter(300, HCMC, 6_000);
    for (const [center, radiusM, limit] of [
      [HCMC, 3_000, 7],
      [metres(HCMC, 1_200, -800), 5_000, 20],
      [metres(HCMC, -4_000, 2_500), 2_000, 3],
    ] as const) {
      const { ids } = await allPages(points, center, radiusM, limit, 400);
      expect(ids).toEqual(brute(points, center, radiusM));
    }
  });

  it('reads the cells a page still needs together: a page of 20 in a city (10,000 places over 15 km) in at most 9 round trips', async () => {
    // Round trips are what a user waits for: four cells at a time took 13 for this page (51 queries, 103 reads).
    const city = scatter(10_000, HCMC, 15_000);
    const { read, counter } = collection(city);
    const per: Array<{ rounds: number; reads: number }> = [];
    for (let i = 0; i < 10; i++) {
      const center = metres(HCMC, ((i % 7) - 3) * 1_100, ((i % 5) - 2) * 1_100);
      const before = { ...counter };
      const found = await nearbyPage({ center, radiusM: 2_000, limit: 20, budget: 400, read, pointOf: (p) => p });
      expect(found.items.map((f) => f.item.id)).toEqual(brute(city, center, 2_000).slice(0, 20));
      per.push({ rounds: counter.rounds - before.rounds, reads: counter.reads - before.reads });
    }
    expect(Math.max(...per.map((p) => p.rounds))).toBeLessThanOrEqual(9);
    expect(Math.max(...per.map((p) => p.reads))).toBeLessThanOrEqual(120);
  });

  it('settles a full first page within a tight budget in a dense area (400 places within 400 m) at 50 spots', async () => {
    // Reading more cells at once, or more from each, spent budgets of 100–150 before the nearest were settled
    // (empty first pages at a third of these spots).
    for (let i = 0; i < 50; i++) {
      const center = { lat: 9 + (i % 10) * 0.37, lng: 105 + Math.floor(i / 10) * 0.29 };
      const points = scatter(400, center, 400);
      const { read } = collection(points);
      for (const [limit, budget] of [
        [10, 100],
        [20, 150],
      ]) {
        const found = await nearbyPage({ center, radiusM: 400, limit, budget, read, pointOf: (p) => p });
        expect(found.reads).toBeLessThanOrEqual(budget);
        expect(found.items.map((f) => f.item.id)).toEqual(brute(points, center, 400).slice(0, limit));
      }
    }
  });

  it('caps the documents read per request in a dense area, and the pages still join up by distance', async () => {
    // 6,000 records within 1.5 km (about 850 a km²): every page of 20 reads at most the budget of 300, none reads everything.
    const points = scatter(6_000, HCMC, 1_500);
    const radiusM = 600;
    const { read, counter } = collection(points);
    const first = await nearbyPage({ center: HCMC, radiusM, limit: 20, budget: 300, read, pointOf: (p) => p });
    expect(counter.reads).toBeLessThanOrEqual(300);
    expect(first.items).toHaveLength(20);
    expect(first.next).toMatchObject({ distanceM: first.items[19].distanceM, id: first.items[19].item.id });
    expect(first.items.map((f) => f.item.id)).toEqual(brute(points, HCMC, radiusM).slice(0, 20));

    const { ids, readsPerPage } = await allPages(points, HCMC, radiusM, 20, 300);
    expect(Math.max(...readsPerPage)).toBeLessThanOrEqual(300);
    const expected = brute(points, HCMC, radiusM);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  });

  it('reads nothing beyond the radius and skips the cells nearer than the cursor', async () => {
    const points = [...scatter(200, HCMC, 800, 'near'), ...scatter(200, metres(HCMC, 9_000, 0), 500, 'far')];
    const { read, counter } = collection(points);
    const found = await nearbyPage({ center: HCMC, radiusM: 1_000, limit: 1000, budget: 1000, read, pointOf: (p) => p });
    expect(found.items.every((f) => f.item.id.startsWith('near'))).toBe(true);
    expect(counter.reads).toBeLessThanOrEqual(200);
  });

  it('a later page skips the cells wholly nearer than its cursor: from the 600th nearest on, each page reads within the budget', async () => {
    const points = scatter(3_000, HCMC, 1_000);
    const expected = brute(points, HCMC, 600);
    const at = expected[599];
    const from = { distanceM: geohashDistance(HCMC, points.find((p) => p.id === at)!.geohash), id: at };
    // 600 records are nearer than the cursor; no page reads more than its budget, and the pages join up.
    const { ids, readsPerPage } = await allPages(points, HCMC, 600, 20, 300, from);
    expect(Math.max(...readsPerPage)).toBeLessThanOrEqual(300);
    expect(ids).toEqual(expected.slice(600));
  });

  it('pages through 60 shops at one spot (one geohash) and the records around them', async () => {
    const mall = metres(HCMC, 200, 100);
    const shops: Point[] = Array.from({ length: 60 }, (_, i) => ({ id: `shop${String(i).padStart(2, '0')}`, ...mall, geohash: geohashOf(mall) }));
    const points = [...shops, ...scatter(200, HCMC, 1_000)];
    const { ids } = await allPages(points, HCMC, 1_000, 10, 300);
    expect(ids).toEqual(brute(points, HCMC, 1_000));
  });

  it('filters with keep (still counted as read) and bounds the radius a vertical declares', async () => {
    const points = scatter(100, HCMC, 2_000);
    const { read } = collection(points);
    const found = await nearbyPage({ center: HCMC, radiusM: 2_000, limit: 100, budget: 1000, read, pointOf: (p) => p, keep: (p) => p.id.endsWith('0') });
    expect(found.items.map((f) => f.item.id)).toEqual(brute(points, HCMC, 2_000).filter((id) => id.endsWith('0')));
    expect(found.reads).toBeGreaterThanOrEqual(100);
    const radius = radiusQuerySchema(5_000);
    expect(radius.parse(undefined)).toBe(3_000);
    expect(radius.safeParse('5001').success).toBe(false);
    expect(radiusQuerySchema(2_000).parse(undefined)).toBe(2_000);
  });
});

/** Park–Miller: the same "random" records on every run. */
function seeded(seed: number) {
  let state = seed;
  return () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
}

function randomPoints(n: number, center: LatLng, radiusM: number, seed: number): Point[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => {
    const r = radiusM * Math.sqrt(rnd());
    const a = 2 * Math.PI * rnd();
    const at = metres(center, r * Math.cos(a), r * Math.sin(a));
    return { id: `r${String(i).padStart(5, '0')}`, ...at, geohash: geohashOf(at) };
  });
}

describe('platform/kits/geo nearbyPage at ordinary density (issue 29: paging went no further than ~1.1 km)', () => {
  it('pages 2,000 random records within 1.5 km through the whole circle, each page within the budget, as a brute-force scan', async () => {
    const points = randomPoints(2_000, HCMC, 1_500, 1);
    const { ids, readsPerPage } = await allPages(points, HCMC, 3_000, 20, 400);
    expect(ids).toEqual(brute(points, HCMC, 3_000));
    expect(Math.max(...readsPerPage)).toBeLessThanOrEqual(400);
    // Each page goes on from the partial ring of the one before: about 140 reads a page of 20 (not the whole budget).
    expect(readsPerPage.reduce((a, b) => a + b, 0) / readsPerPage.length).toBeLessThan(200);
  });

  it('pages a denser area (5,000 within 1.5 km) and a sparse one (300 within 6 km) to the end, every page making progress', async () => {
    const dense = randomPoints(5_000, HCMC, 1_500, 7);
    const many = await allPages(dense, HCMC, 2_000, 20, 400);
    expect(many.ids).toEqual(brute(dense, HCMC, 2_000));
    expect(Math.max(...many.readsPerPage)).toBeLessThanOrEqual(400);
    const sparse = randomPoints(300, HCMC, 6_000, 3);
    const few = await allPages(sparse, HCMC, 3_000, 20, 400);
    expect(few.ids).toEqual(brute(sparse, HCMC, 3_000));
    expect(Math.max(...few.readsPerPage)).toBeLessThan(100);
  });

  it('pages through 360 records stacked at one geohash with a budget below their number (resuming after the last id)', async () => {
    const spot = metres(HCMC, 300, 0);
    const stack: Point[] = Array.from({ length: 360 }, (_, i) => ({ id: `s${String(i).padStart(4, '0')}`, ...spot, geohash: geohashOf(spot) }));
    const points = [...stack, ...randomPoints(300, HCMC, 1_000, 5)];
    const { ids, readsPerPage } = await allPages(points, HCMC, 1_000, 20, 100);
    expect(ids).toEqual(brute(points, HCMC, 1_000));
    expect(Math.max(...readsPerPage)).toBeLessThanOrEqual(100);
  });
});

describe('nearby routes', () => {
  it('every nearby search (catalogs, pharmacy products, menu items, drivers on the map) is rate-limited per signed-in caller', () => {
    const config = testConfig();
    const ctx = {
      config,
      verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
      rateLimiter: createRateLimiter(memoryRateLimitStore()),
      idempotency: memoryIdempotencyStore(),
    };
    const nearby = MODULES.flatMap((m) => m.routes?.(ctx) ?? []).filter((r) => r.method === 'get' && /\/nearby$|\/(products|items)\/search$/.test(r.path));
    expect(nearby.map((r) => r.path).sort()).toEqual([
      '/atm/nearby',
      '/fuel/stations/nearby',
      '/home-services/providers/nearby',
      '/hotels/nearby',
      '/medical/clinics/nearby',
      '/merchants/items/search',
      '/merchants/nearby',
      '/parking/lots/nearby',
      '/pharmacy/products/search',
      '/pharmacy/stores/nearby',
      '/places/nearby',
      '/rentals/listings/nearby',
      '/rides/drivers/nearby',
      '/schools/nearby',
    ]);
    for (const route of nearby)
      expect(route.rateLimit).toMatchObject({ per: 'user', scope: route.path === '/rides/drivers/nearby' ? 'rides-drivers-nearby' : 'nearby' });
  });
});

describe('nearby rate limit', () => {
  it('counts every catalog’s nearby per caller (scope nearby): the third of a limit of 2 is 429, another caller is not held back', async () => {
    const config = testConfig();
    const { app } = buildApp({
      config,
      modules: [placesModule, atmModule],
      verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
      rateLimiter: createRateLimiter(memoryRateLimitStore(), Date.now, { nearby: { limit: 2, windowSec: 60 } }),
      idempotency: memoryIdempotencyStore(),
    });
    const server = await listen(app);
    try {
      const [me, other] = [signAccessToken(config.JWT_SECRET), signAccessToken(config.JWT_SECRET)];
      // A bad query is refused after the count (400), so no database is needed to see the limit.
      const get = (path: string, token: string, ip: string) =>
        fetch(`${server.url}/api/v1${path}?lat=abc&lng=1`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip } });
      expect((await get('/places/nearby', me, '198.18.0.1')).status).toBe(400);
      expect((await get('/atm/nearby', me, '198.18.0.2')).status).toBe(400);
      const third = await get('/places/nearby', me, '198.18.0.3');
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect((await get('/places/nearby', other, '198.18.0.1')).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});

describe('drivers on the rider map (issue 29: exact positions came back from the distances and their order)', () => {
  it('measures, rounds and orders from the blurred position, not the exact one', () => {
    const center = { lat: 10.7769, lng: 106.7009 };
    // A is nearer exactly (117 m against 122 m), but its blurred point (10.778, 106.701) is farther than B's (10.777, 106.702).
    const a = { lat: center.lat + 0.00105, lng: center.lng };
    const b = { lat: center.lat - 0.0002, lng: center.lng + 0.0011 };
    expect(distanceMeters(center, a)).toBeLessThan(distanceMeters(center, b));
    const shown = blurredForMap(center, [a, b]);
    expect(shown.map((p) => [p.lat, p.lng])).toEqual([
      [10.777, 106.702],
      [10.778, 106.701],
    ]);
    for (const p of shown) expect(p.distanceM).toBe(Math.round(distanceMeters(center, { lat: p.lat, lng: p.lng }) / 50) * 50);
    // Moving a driver within its grid square changes nothing shown.
    expect(blurredForMap(center, [{ lat: a.lat + 0.0002, lng: a.lng - 0.0003 }, b])).toEqual(shown);
  });
});
