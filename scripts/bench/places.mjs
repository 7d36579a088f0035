// P12: the catalog kit's `nearby` (the places service in this process: the geo kit's cell index read by id, the
// cells that may hold the nearest records first, then those records; at most NEARBY_READ_BUDGET documents per request)
// with 10,000 places in the city ÷ one geohash range query reading as many documents as the page read: what the
// cells, the merge and the sort cost over the raw read. Also reported: the documents read per request (mean and
// largest; an empty query counts as one read, as Firestore bills it) beside the records within the circle (what the
// search read on every page before the budget) with the queries and round trips that read them, and ÷ the search's
// largest geohash range alone. Also checks `nearby` against a brute-force scan of the same 10,000 records by the
// kit's distance (the geohash cell centre's): identical ids in identical order at every centre tried, for the first
// page of 100 and for every page of 20 followed by cursor through the circle.
// Run by `npm run bench` inside `firebase emulators:exec`; writes its figures as JSON to the path given.
import fs from 'node:fs';
import { PROJECT_ID } from '../lib/util.mjs';
import { functionsRequire as require, lib } from './functions-lib.mjs';
import { attempt, median, pairedSpread, percentile } from './stats.mjs';
const { db } = lib('platform/core/firebase/firebase.js');
const { geohashOf } = lib('platform/kits/geo/geo.js');
const { geohashDistance } = lib('platform/kits/geo/nearby-page.js');
const { writeCellIndex } = lib('platform/kits/geo/cell-index.js');
const { foldText, searchTermsOf } = lib('platform/kits/text/text.js');
const { placesService } = lib('modules/places/places.catalog.js');
const { configSchema } = lib('platform/core/config/config.schema.js');
const BUDGET = configSchema.shape.NEARBY_READ_BUDGET.parse(process.env.NEARBY_READ_BUDGET);
const geofire = require('geofire-common');
// Queries, reads by id (getAll) and round trips per request, counted where each of this process's go (on the
// emulator each query scans the collection, so their number, more than the documents read, sets the time).
const { Query, Firestore } = require('@google-cloud/firestore');
const queryCount = { queries: 0, lookups: 0, roundTrips: 0, inFlight: 0 };
const counted = (proto, method, kind) => {
  const plain = proto[method];
  proto[method] = async function countedCall(...args) {
    queryCount[kind] += 1;
    if (queryCount.inFlight++ === 0) queryCount.roundTrips += 1;
    try {
      return await plain.apply(this, args);
    } finally {
      queryCount.inFlight -= 1;
    }
  };
};
counted(Query.prototype, 'get', 'queries');
counted(Firestore.prototype, 'getAll', 'lookups');

const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });
const CENTER = { lat: 10.7769, lng: 106.7009 };
const CITY_RADIUS_M = 15_000;
const CATEGORIES = ['RESTAURANT', 'CAFE', 'ATTRACTION', 'SHOPPING', 'HOSPITAL', 'SCHOOL'];

/** n places spread evenly over the city (a 15 km disc), ids and positions fixed. */
async function seedPlaces(n) {
  const t = Date.now();
  const records = [];
  for (let i = 0; i < n; i += 500) {
    const batch = db().batch();
    const indexed = [];
    for (let j = i; j < Math.min(n, i + 500); j++) {
      const r = CITY_RADIUS_M * Math.sqrt((j + 0.5) / n);
      const a = j * 2.399963;
      const point = { lat: CENTER.lat + (r * Math.cos(a)) / 111_320, lng: CENTER.lng + (r * Math.sin(a)) / (111_320 * Math.cos((CENTER.lat * Math.PI) / 180)) };
      const id = `bench-place-${String(j).padStart(5, '0')}`;
      const name = `Quán ${j}`;
      records.push({ id, ...point });
      indexed.push({ id, after: geohashOf(point) });
      batch.set(db().collection('places').doc(id), {
        partnerId: null, name, nameFolded: foldText(name), terms: searchTermsOf(name), description: null, address: null, phone: null, ...point, geohash: geohashOf(point),
        photos: [], hours: null, status: 'ACTIVE', statusReason: null, ratingAvg: 0, ratingCount: 0, details: { category: CATEGORIES[j % CATEGORIES.length] }, createdBy: 'bench', createdAt: t, updatedAt: t,
      });
    }
    // The cell index, as the catalog's transactions write it (one write per cell document of the batch).
    writeCellIndex(batch, 'places', indexed);
    await batch.commit();
  }
  return records;
}

async function p12(n = 10_000, radiusM = 2_000, rounds = 60, warmup = 10) {
  await wipe();
  log(`P12: seeding ${n} places over the city …`);
  const records = await seedPlaces(n);
  const service = placesService();
  const caller = { userId: 'bench', roles: ['USER'] };
  const centres = Array.from({ length: rounds + warmup }, (_, i) => ({ lat: CENTER.lat + ((i % 7) - 3) * 0.01, lng: CENTER.lng + ((i % 5) - 2) * 0.01 }));

  // Distance as the kit defines it: the record's geohash cell's centre (within a metre of the point; records closer
  // than that to each other may swap places against the exact distance).
  const brute = (c, n) =>
    records
      .map((r) => ({ id: r.id, d: geohashDistance(c, geohashOf(r)) }))
      .filter((r) => r.d <= radiusM)
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
      .slice(0, n)
      .map((r) => r.id);
  const options = { budget: BUDGET };
  // Correctness: every centre, nearby's page of up to 100 = the brute-force scan's first ones (distance, then id; a
  // page the budget ended early is a prefix with a nextCursor); and at 5 centres, every page of 20 by cursor through
  // the circle = the whole scan, in order.
  let identical = 0;
  for (const c of centres.slice(0, 20)) {
    const page = await service.nearby({ ...c, radiusM, limit: 100 }, caller, options);
    const expected = brute(c, 100);
    const complete = page.items.length === expected.length || page.nextCursor !== null;
    if (complete && JSON.stringify(page.items.map((p) => p.id)) === JSON.stringify(expected.slice(0, page.items.length))) identical++;
    else log(`  mismatch at ${c.lat},${c.lng}: ${page.items.length} items`);
  }
  let pagedIdentical = 0;
  let pagedReadsMax = 0;
  for (const c of centres.slice(0, 5)) {
    const ids = [];
    let cursor;
    do {
      const page = await service.nearby({ ...c, radiusM, limit: 20, ...(cursor ? { cursor } : {}) }, caller, options);
      pagedReadsMax = Math.max(pagedReadsMax, page.reads);
      ids.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    if (JSON.stringify(ids) === JSON.stringify(brute(c, Infinity))) pagedIdentical++;
    else log(`  paged mismatch at ${c.lat},${c.lng}: ${ids.length} items`);
  }

  const times = [];
  const raw = [];
  const largest = [];
  let docsRead = 0;
  let queriesSum = 0;
  let lookupsSum = 0;
  let roundTripsSum = 0;
  let docsReadMax = 0;
  let inCircle = 0;
  let rangeDocs = 0;
  // The same query shape as the search's cells (a plain geohash range; status is checked in memory).
  const active = () => db().collection('places').orderBy('geohash');
  for (let i = 0; i < centres.length; i++) {
    const c = centres[i];
    const before = { ...queryCount };
    let started = performance.now();
    const page = await service.nearby({ ...c, radiusM, limit: 20 }, caller, options);
    const ms = performance.now() - started;
    const queries = queryCount.queries - before.queries;
    const lookups = queryCount.lookups - before.lookups;
    const roundTrips = queryCount.roundTrips - before.roundTrips;
    const bounds = geofire.geohashQueryBounds([c.lat, c.lng], radiusM);
    // The baseline: one range query reading as many documents as the page read.
    started = performance.now();
    await active().startAt(bounds[0][0]).limit(page.reads).get();
    const rangeMs = performance.now() - started;
    const sizes = (await Promise.all(bounds.map(([s, e]) => active().startAt(s).endAt(e).count().get()))).map((snap) => snap.data().count);
    const [s, e] = bounds[sizes.indexOf(Math.max(...sizes))];
    started = performance.now();
    const snap = await active().startAt(s).endAt(e).get();
    const largestMs = performance.now() - started;
    if (i >= warmup) {
      times.push(ms);
      raw.push(rangeMs);
      largest.push(largestMs);
      docsRead += page.reads;
      queriesSum += queries;
      lookupsSum += lookups;
      roundTripsSum += roundTrips;
      docsReadMax = Math.max(docsReadMax, page.reads);
      inCircle += records.filter((r) => geohashDistance(c, geohashOf(r)) <= radiusM).length;
      rangeDocs += snap.size;
    }
  }
  const result = {
    n, radiusM, rounds,
    nearbyP50Ms: +median(times).toFixed(1), nearbyP95Ms: +percentile(times, 95).toFixed(1),
    rangeP50Ms: +median(raw).toFixed(1), rangeP95Ms: +percentile(raw, 95).toFixed(1),
    budget: BUDGET,
    docsReadAvg: Math.round(docsRead / rounds),
    docsReadMax,
    queriesAvg: +(queriesSum / rounds).toFixed(1),
    lookupsAvg: +(lookupsSum / rounds).toFixed(1),
    roundTripsAvg: +(roundTripsSum / rounds).toFixed(1),
    inCircleAvg: Math.round(inCircle / rounds),
    pagedReadsMax,
    largestRangeP50Ms: +median(largest).toFixed(1),
    largestRangeDocsAvg: Math.round(rangeDocs / rounds),
    correctness: { centres: 20, identical, pagedCentres: 5, pagedIdentical },
  };
  result.ratioP50 = +(result.nearbyP50Ms / result.rangeP50Ms).toFixed(2);
  result.ratioP95 = +(result.nearbyP95Ms / result.rangeP95Ms).toFixed(2);
  result.spread = pairedSpread(times, raw);
  result.ratioToLargestRangeP50 = +(result.nearbyP50Ms / result.largestRangeP50Ms).toFixed(2);
  log(`  nearby p50 ${result.nearbyP50Ms} ms, p95 ${result.nearbyP95Ms} ms (${result.docsReadAvg} docs read per request, at most ${docsReadMax}, budget ${BUDGET}, in ${result.queriesAvg} queries and ${result.lookupsAvg} reads by id over ${result.roundTripsAvg} round trips; ${result.inCircleAvg} in the circle; paging through: at most ${pagedReadsMax}); one range of as many docs p50 ${result.rangeP50Ms} ms, p95 ${result.rangeP95Ms} ms → ${result.ratioP50}× / ${result.ratioP95}×; ÷ the largest range alone (${result.largestRangeDocsAvg} docs, p50 ${result.largestRangeP50Ms} ms) ${result.ratioToLargestRangeP50}×; brute force identical at ${identical}/20 centres, paged through identical at ${pagedIdentical}/5`);
  return result;
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
const results = !only || only.includes('P12') ? { P12: await attempt('P12', () => p12()) } : {};
if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
