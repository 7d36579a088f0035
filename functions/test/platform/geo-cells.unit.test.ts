import { geohashOf, type LatLng } from '../../src/platform/kits/geo/geo';
import { cellIndexWrites, nearbyByCells, type CellDocument, type IndexedChange } from '../../src/platform/kits/geo/cell-index';
import { geohashDistance, type NearbyPosition } from '../../src/platform/kits/geo/nearby-page';
import { HCMC, metres, scatter as spread } from '../helpers/points';

// The geo kit's cell index over an in-memory store: the index is built only from `cellIndexWrites` (what the
// records' transactions write), read by id with every document counted, and `nearbyByCells` is checked against a
// brute-force scan by the kit's distance (the geohash cell centre's, then id).

interface Point extends LatLng {
  id: string;
  geohash: string;
  tag: string;
}

const scatter = (n: number, center: LatLng, radiusM: number, prefix = 'p'): Point[] =>
  spread(n, center, radiusM, prefix).map((p, i) => ({ ...p, tag: i % 3 === 0 ? 'odd' : 'even' }));

/** An in-memory Firestore of records and their index: cell writes applied as the merge with increments would be. */
function store(points: Point[]) {
  const records = new Map(points.map((p) => [p.id, p]));
  const cells = new Map<string, Required<CellDocument>>();
  const counter = { reads: 0, rounds: 0, inFlight: 0 };
  const apply = (changes: IndexedChange[]) => {
    for (const [hash, w] of cellIndexWrites(changes)) {
      const doc = cells.get(hash) ?? { c: {}, e: {} };
      for (const [k, n] of Object.entries(w.c)) doc.c[k] = (doc.c[k] ?? 0) + n;
      for (const [id, g] of Object.entries(w.e)) {
        if (g === null) delete doc.e[id];
        else doc.e[id] = g;
      }
      cells.set(hash, doc);
    }
  };
  apply(points.map((p) => ({ id: p.id, after: p.geohash })));
  const round = async <T>(n: number, read: () => T): Promise<T> => {
    if (n === 0) return read();
    counter.reads += n;
    if (counter.inFlight++ === 0) counter.rounds += 1;
    await new Promise((r) => setImmediate(r));
    counter.inFlight -= 1;
    return read();
  };
  return {
    records,
    cells,
    counter,
    apply,
    readCells: (hashes: readonly string[]) => round(hashes.length, () => hashes.map((h) => cells.get(h))),
    readRecords: (ids: readonly string[]) => round(ids.length, () => ids.map((id) => records.get(id))),
  };
}

const brute = (points: readonly Point[], center: LatLng, radiusM: number, keep: (p: Point) => boolean = () => true) =>
  points
    .map((p) => ({ id: p.id, p, d: geohashDistance(center, p.geohash) }))
    .filter((x) => x.d <= radiusM && keep(x.p))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .map((x) => x.id);

async function pageThrough(s: ReturnType<typeof store>, center: LatLng, radiusM: number, limit: number, budget: number, keep?: (p: Point) => boolean) {
  const ids: string[] = [];
  let after: NearbyPosition | undefined;
  let pages = 0;
  let maxReads = 0;
  do {
    const page = await nearbyByCells({ center, radiusM, limit, budget, after, readCells: s.readCells, readRecords: s.readRecords, keep });
    expect(page.stuck).toBe(false);
    ids.push(...page.items.map((f) => f.item.id));
    maxReads = Math.max(maxReads, page.reads);
    after = page.next;
    pages += 1;
  } while (after && pages < 500);
  return { ids, pages, maxReads };
}

describe('geo cell index: writes', () => {
  test('a record added, moved and removed leaves every count and entry as it found them', () => {
    const s = store(scatter(50, HCMC, 3000));
    const before = JSON.stringify([...s.cells].sort());
    const far = geohashOf(metres(HCMC, 2500, -2500));
    const near = s.records.get('p00001')!.geohash;
    s.apply([{ id: 'x', after: near }]);
    expect(s.cells.get(near.slice(0, 6))!.e.x).toBe(near);
    s.apply([{ id: 'x', before: near, after: far }]);
    expect(s.cells.get(near.slice(0, 6))!.e.x).toBeUndefined();
    expect(s.cells.get(far.slice(0, 6))!.e.x).toBe(far);
    s.apply([{ id: 'x', before: far }]);
    const after = JSON.stringify([...s.cells].map(([h, d]) => [h, { c: Object.fromEntries(Object.entries(d.c).filter(([, n]) => n !== 0)), e: d.e }]).sort());
    const cleaned = JSON.stringify(JSON.parse(before).map(([h, d]: [string, CellDocument]) => [h, d]));
    expect(after.replace(/,\["[0-9a-z]+",\{"c":\{\},"e":\{\}\}\]/g, '')).toBe(cleaned);
  });

  test('a move within one cell rewrites its entry only; no change writes nothing', () => {
    const g1 = geohashOf(HCMC);
    const g2 = `${g1.slice(0, 9)}${g1[9] === '0' ? '1' : '0'}`;
    const writes = cellIndexWrites([{ id: 'a', before: g1, after: g2 }]);
    expect([...writes.keys()]).toEqual([g1.slice(0, 6)]);
    expect(writes.get(g1.slice(0, 6))).toEqual({ c: {}, e: { a: g2 } });
    expect(cellIndexWrites([{ id: 'a', before: g1, after: g1 }, { id: 'b' }]).size).toBe(0);
  });

  test('counts per sub-cell at 3, 4 and 5 characters, one entry at 6', () => {
    const g = geohashOf(HCMC);
    const writes = cellIndexWrites([{ id: 'a', after: g }]);
    expect([...writes.keys()].sort()).toEqual([g.slice(0, 3), g.slice(0, 4), g.slice(0, 5), g.slice(0, 6)].sort());
    expect(writes.get(g.slice(0, 4))).toEqual({ c: { [g[4]]: 1 }, e: {} });
    expect(() => cellIndexWrites([{ id: 'a', after: g.slice(0, 6) }])).toThrow(/shorter/);
  });
});

describe('geo cell index: nearby pages', () => {
  const city = scatter(10_000, HCMC, 15_000);

  test('the first page of 20 in a city of 10,000 is the brute-force scan in three round trips, reading about 40 documents', async () => {
    const s = store(city);
    for (const c of [HCMC, metres(HCMC, 700, -300), metres(HCMC, -4000, 2500)]) {
      const before = { ...s.counter };
      const page = await nearbyByCells({ center: c, radiusM: 2000, limit: 20, budget: 400, readCells: s.readCells, readRecords: s.readRecords });
      expect(page.items.map((f) => f.item.id)).toEqual(brute(city, c, 2000).slice(0, 20));
      expect(s.counter.rounds - before.rounds).toBe(3);
      expect(page.reads).toBe(s.counter.reads - before.reads);
      expect(page.reads).toBeLessThan(60);
      expect(page.next).toBeDefined();
    }
  });

  test('paged through by 20, 7 and 100 it serves the whole circle once, in order, within the budget', async () => {
    const s = store(city);
    const c = metres(HCMC, 1200, 800);
    const all = brute(city, c, 2000);
    for (const limit of [20, 7, 100]) {
      const { ids, maxReads } = await pageThrough(s, c, 2000, limit, 400);
      expect(ids).toEqual(all);
      expect(maxReads).toBeLessThanOrEqual(400);
    }
  });

  test('a filter leaves records out, still read; pages stay in order and complete', async () => {
    const s = store(city);
    const keep = (p: Point) => p.tag === 'odd';
    const { ids } = await pageThrough(s, HCMC, 1500, 20, 400, keep);
    expect(ids).toEqual(brute(city, HCMC, 1500, keep));
  });

  test('a record left out never lets a farther one pass a nearer one still in an unread cell (pages of 1 and 3)', async () => {
    const points = [...scatter(300, HCMC, 2500), { id: 'a', ...metres(HCMC, 100, 0), geohash: geohashOf(metres(HCMC, 100, 0)), tag: 'even' }];
    const s = store(points);
    for (const keep of [(p: Point) => p.tag === 'odd', (p: Point) => p.id.endsWith('7')])
      for (const limit of [1, 3]) expect((await pageThrough(s, HCMC, 2500, limit, 400, keep)).ids).toEqual(brute(points, HCMC, 2500, keep));
  });

  test('only far records kept: what the near cells held is left out, and the far ones still come nearest first', async () => {
    const points = scatter(400, HCMC, 2500);
    const s = store(points);
    const keep = (p: Point) => geohashDistance(HCMC, p.geohash) > 1800 || p.id === 'p00000';
    const at = (m: number, east: number, id: string): Point => ({ id, ...metres(HCMC, m, east), geohash: geohashOf(metres(HCMC, m, east)), tag: '' });
    const sparse = [at(100, 0, 'a'), at(1000, 0, 'b'), at(0, 900, 'c'), at(-950, -50, 'd')];
    const t = store(sparse);
    for (const limit of [1, 2, 5]) {
      expect((await pageThrough(s, HCMC, 2500, limit, 400, keep)).ids).toEqual(brute(points, HCMC, 2500, keep));
      expect((await pageThrough(t, HCMC, 2500, limit, 400, (p) => p.id !== 'a')).ids).toEqual(['c', 'd', 'b']);
    }
  });

  test('a budget smaller than the circle ends pages early but every page goes on where the last one stopped', async () => {
    const s = store(city);
    const { ids, pages, maxReads } = await pageThrough(s, HCMC, 3000, 100, 60);
    expect(ids).toEqual(brute(city, HCMC, 3000));
    expect(maxReads).toBeLessThanOrEqual(60);
    expect(pages).toBeGreaterThan(Math.ceil(ids.length / 100));
  });

  test('the whole circle at once (limit Infinity), and a budget below the covering cells is stuck, not wrong', async () => {
    const s = store(city);
    const whole = await nearbyByCells({
      center: HCMC,
      radiusM: 1000,
      limit: Number.POSITIVE_INFINITY,
      budget: 400,
      readCells: s.readCells,
      readRecords: s.readRecords,
    });
    expect(whole.items.map((f) => f.item.id)).toEqual(brute(city, HCMC, 1000));
    expect(whole.next).toBeUndefined();
    const tiny = await nearbyByCells({ center: HCMC, radiusM: 1000, limit: 20, budget: 1, readCells: s.readCells, readRecords: s.readRecords });
    expect(tiny.items).toEqual([]);
    expect(tiny.stuck).toBe(true);
  });

  test('a record just inside the radius, beyond a cell edge the circle barely crosses, is found', async () => {
    // The circle's top lies just past a 5-character cell's edge: metres per degree as geofire measures (6,371 km),
    // not 111,320, decide whether the covering cells reach it.
    const height = 180 / 2 ** 12;
    const edge = Math.ceil((HCMC.lat + 90) / height) * height - 90;
    const center = { lat: edge - 3000 / 111_320 - 1e-6, lng: HCMC.lng };
    const top = { lat: center.lat + 2997.2 / 111_195, lng: center.lng };
    const points = [{ id: 'edge', ...top, geohash: geohashOf(top), tag: '' }, ...scatter(50, center, 2500)];
    expect(brute(points, center, 3000)).toContain('edge');
    const s = store(points);
    const page = await nearbyByCells({ center, radiusM: 3000, limit: 100, budget: 400, readCells: s.readCells, readRecords: s.readRecords });
    expect(page.items.map((f) => f.item.id)).toEqual(brute(points, center, 3000));
  });

  test('sparse and far: a 50 km radius with a few records reads only the counted cells', async () => {
    const few = scatter(12, metres(HCMC, 30_000, 20_000), 8000, 'f');
    const s = store(few);
    const page = await nearbyByCells({ center: HCMC, radiusM: 50_000, limit: 20, budget: 400, readCells: s.readCells, readRecords: s.readRecords });
    expect(page.items.map((f) => f.item.id)).toEqual(brute(few, HCMC, 50_000));
    expect(page.next).toBeUndefined();
    expect(page.reads).toBeLessThan(80);
  });

  test('many records at one spot page through by id; a record gone or moved since it was indexed is skipped', async () => {
    const spot = metres(HCMC, 300, 300);
    const stacked = Array.from({ length: 150 }, (_, i) => ({ id: `s${String(i).padStart(3, '0')}`, ...spot, geohash: geohashOf(spot), tag: 'odd' }));
    const s = store([...stacked, ...scatter(300, HCMC, 2000)]);
    s.records.delete('s010');
    // s020 moved behind the index's back: listed at the spot, it is there no more (its new cell does not list it).
    const elsewhere = metres(HCMC, -1500, 0);
    s.records.set('s020', { ...s.records.get('s020')!, ...elsewhere, geohash: geohashOf(elsewhere) });
    const { ids } = await pageThrough(s, HCMC, 2000, 20, 400);
    expect(ids).toEqual(brute([...stacked, ...scatter(300, HCMC, 2000)], HCMC, 2000).filter((id) => id !== 's010' && id !== 's020'));
  });

  test('after moves and removals written through the index, pages find records where they are now', async () => {
    const points = scatter(500, HCMC, 2000);
    const s = store(points);
    const moved = { ...points[0], ...metres(HCMC, 1900, 0) };
    moved.geohash = geohashOf(moved);
    s.apply([
      { id: points[0].id, before: points[0].geohash, after: moved.geohash },
      { id: points[1].id, before: points[1].geohash },
    ]);
    s.records.set(moved.id, moved);
    const expected = brute([moved, ...points.slice(2)], HCMC, 2000);
    expect((await pageThrough(s, HCMC, 2000, 50, 400)).ids).toEqual(expected);
  });
});
