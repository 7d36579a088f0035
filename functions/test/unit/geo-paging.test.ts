import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { atmModule } from '../../src/modules/atm/atm.module';
import { placesModule } from '../../src/modules/places/places.module';
import { createJwtAccessTokenVerifier } from '../../src/platform/auth/access-token';
import { memoryIdempotencyStore } from '../../src/platform/idempotency/idempotency';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/ratelimit/rate-limit';
import { testConfig } from '../helpers/config';
import { listen } from '../helpers/http';
import { signAccessToken } from '../helpers/tokens';
import { cellBox, distanceMeters, geohashOf, nearbyPage, radiusQuerySchema, type LatLng, type NearbyPosition } from '../../src/platform/geo/geo';

// The geo kit's paging by distance under a read budget, over an in-memory "collection" (records sorted by geohash
// then id, as the Firestore range query returns them) whose reader counts every record it hands out.

interface Point extends LatLng {
  id: string;
  geohash: string;
}

const HCMC = { lat: 10.7769, lng: 106.7009 };
const metres = (center: LatLng, north: number, east: number): LatLng => ({ lat: center.lat + north / 111_320, lng: center.lng + east / (111_320 * Math.cos((center.lat * Math.PI) / 180)) });

function scatter(n: number, center: LatLng, radiusM: number, prefix = 'p'): Point[] {
  return Array.from({ length: n }, (_, i) => {
    const r = radiusM * Math.sqrt((i + 0.5) / n);
    const a = i * 2.399963;
    const at = metres(center, r * Math.cos(a), r * Math.sin(a));
    return { id: `${prefix}${String(i).padStart(5, '0')}`, ...at, geohash: geohashOf(at) };
  });
}

function collection(points: Point[]) {
  const sorted = [...points].sort((a, b) => (a.geohash < b.geohash ? -1 : a.geohash > b.geohash ? 1 : a.id < b.id ? -1 : 1));
  const counter = { reads: 0, queries: 0 };
  const read = async (start: string, end: string, max: number) => {
    counter.queries += 1;
    let lo = 0;
    for (let hi = sorted.length; lo < hi; ) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid].geohash < start) lo = mid + 1;
      else hi = mid;
    }
    const out: Point[] = [];
    for (let i = lo; i < sorted.length && sorted[i].geohash <= end && out.length < max; i++) out.push(sorted[i]);
    // As Firestore bills: a query that finds nothing costs one read.
    counter.reads += Math.max(1, out.length);
    return out;
  };
  return { read, counter };
}

const brute = (points: Point[], center: LatLng, radiusM: number) =>
  points
    .map((p) => ({ id: p.id, d: distanceMeters(center, p) }))
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

describe('platform/geo nearbyPage', () => {
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
    for (const [center, radiusM, limit] of [[HCMC, 3_000, 7], [metres(HCMC, 1_200, -800), 5_000, 20], [metres(HCMC, -4_000, 2_500), 2_000, 3]] as const) {
      const { ids } = await allPages(points, center, radiusM, limit, 400);
      expect(ids).toEqual(brute(points, center, radiusM));
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
    const from = { distanceM: distanceMeters(HCMC, points.find((p) => p.id === at)!), id: at };
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

describe('nearby routes', () => {
  it('every nearby search (catalogs, pharmacy products, drivers on the map) is rate-limited per signed-in caller', () => {
    const config = testConfig();
    const ctx = { config, verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET), rateLimiter: createRateLimiter(memoryRateLimitStore()), idempotency: memoryIdempotencyStore() };
    const nearby = MODULES.flatMap((m) => m.routes?.(ctx) ?? []).filter((r) => r.method === 'get' && /\/nearby$|\/products\/search$/.test(r.path));
    expect(nearby.map((r) => r.path).sort()).toEqual(['/atm/nearby', '/fuel/stations/nearby', '/parking/lots/nearby', '/pharmacy/products/search', '/pharmacy/stores/nearby', '/places/nearby', '/rides/drivers/nearby']);
    for (const route of nearby) expect(route.rateLimit).toMatchObject({ per: 'user', scope: route.path === '/rides/drivers/nearby' ? 'rides-drivers-nearby' : 'nearby' });
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
      const get = (path: string, token: string, ip: string) => fetch(`${server.url}/api/v1${path}?lat=abc&lng=1`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip } });
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
