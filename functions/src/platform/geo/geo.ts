import { z } from 'zod';

// Located records carry a geohash (geofire-common) so that "near me" is a few range queries on one
// indexed field instead of a scan. Every `nearby` route shares the query schema below, so bad
// coordinates are the same 400 everywhere.
type GeofireCommon = typeof import('geofire-common');
let geofireModule: GeofireCommon | undefined;
// Kept once loaded: distances are computed per candidate record, and a require() per call resolves the path anew.
const geofire = () => (geofireModule ??= require('geofire-common') as GeofireCommon);

export interface LatLng {
  lat: number;
  lng: number;
}

export const MAX_RADIUS_M = 50_000;

// A query number: "" and blanks are missing (400), not 0 as Number("") would make them.
const queryNumber = (schema: z.ZodNumber) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number().pipe(schema));

export const LatLngSchema = z.object({
  lat: queryNumber(z.number().min(-90).max(90)).describe('Latitude, degrees'),
  lng: queryNumber(z.number().min(-180).max(180)).describe('Longitude, degrees'),
});

/** A point in a JSON body: numbers only (no coercion: null or "" is a 400, not 0). */
export const LatLngBodySchema = z.object({
  lat: z.number().min(-90).max(90).describe('Latitude, degrees'),
  lng: z.number().min(-180).max(180).describe('Longitude, degrees'),
});

/** Query of every `nearby` route: `lat`, `lng` (numbers), `radiusM` (1..50,000, default 3,000), `limit`. */
export const NearbyQuerySchema = LatLngSchema.extend({
  radiusM: z.coerce.number().int().min(1).max(MAX_RADIUS_M).default(3000).describe('Search radius in metres'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type NearbyQuery = z.output<typeof NearbyQuerySchema>;

/** The geohash stored beside a located record (10 characters: about a metre). */
export function geohashOf(point: LatLng): string {
  return geofire().geohashForLocation([point.lat, point.lng]);
}

export function distanceMeters(a: LatLng, b: LatLng): number {
  return geofire().distanceBetween([a.lat, a.lng], [b.lat, b.lng]) * 1000;
}

/**
 * geofire splits a cell into halves that often touch (`w3gvk0`–`w3gvkh`, `w3gvkh`–`w3gvk~`): touching or overlapping
 * ranges become one query reading the same records, so a search makes fewer queries (often 4 instead of 6).
 */
export function mergeRanges(ranges: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged: Array<[string, string]> = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = end > last[1] ? end : last[1];
    else merged.push([start, end]);
  }
  return merged;
}

export interface Located<T> {
  item: T;
  distanceM: number;
}

/**
 * Records within `radiusM` of `center`, nearest first, at most `limit`. The geohash ranges that cover the
 * circle (4 to 9) are queried in parallel; their results are merged (a record can sit in two ranges),
 * false positives at the corners dropped by true distance, then sorted, and the limit applied last (a
 * per-range limit would drop near records of one range for far ones of another).
 *
 * `rangeQuery(start, end)` runs one range on the caller's collection (its own filters included) ordered
 * by the geohash field; `pointOf` reads a record's position.
 */
export async function nearby<T extends { id: string }>(
  center: LatLng,
  radiusM: number,
  limit: number,
  rangeQuery: (startHash: string, endHash: string) => Promise<T[]>,
  pointOf: (item: T) => LatLng,
): Promise<Array<Located<T>>> {
  const bounds = mergeRanges(geofire().geohashQueryBounds([center.lat, center.lng], radiusM));
  const pages = await Promise.all(bounds.map(([start, end]) => rangeQuery(start, end)));
  const byId = new Map<string, T>();
  for (const item of pages.flat()) byId.set(item.id, item);
  return [...byId.values()]
    .map((item) => ({ item, distanceM: distanceMeters(center, pointOf(item)) }))
    .filter((found) => found.distanceM <= radiusM)
    .sort((a, b) => a.distanceM - b.distanceM || (a.item.id < b.item.id ? -1 : 1))
    .slice(0, limit);
}

/** `radiusM` of a nearby query bounded by what the vertical declares (1..maxM, default min(3,000, maxM)). */
export const radiusQuerySchema = (maxM: number) =>
  z.coerce.number().int().min(1).max(maxM).default(Math.min(3000, maxM)).describe(`Search radius in metres (at most ${maxM} here)`);

// Paging by distance under a read budget. The circle is covered by geohash cells visited nearest first (a cell's
// records are at least its `minM` away): a record is final once every cell that could hold a nearer one is read.
// A cell is read in chunks; a full chunk means a dense cell, which is split into its 32 sub-cells (those wholly
// read are done, the rest queued by their own distance), so a dense block costs a few chunks, not all its records.
// A later page skips the cells wholly nearer than its cursor. No request reads more than `budget` documents.

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
/** Finest precision a cell is split to: records store 10 characters. */
const MAX_PRECISION = 9;
/** Cells read at once (in parallel), nearest first. */
const PARALLEL_CELLS = 4;
/** Records a cell across the cursor's circle is probed with. */
const STRADDLE_PROBE = 4;

interface Box {
  latMin: number;
  latMax: number;
  lngMin: number;
  lngMax: number;
}

/** The rectangle of a geohash cell (standard decoding: bits alternate longitude, latitude). */
export function cellBox(hash: string): Box {
  const box = { latMin: -90, latMax: 90, lngMin: -180, lngMax: 180 };
  let even = true;
  for (const ch of hash) {
    const bits = BASE32.indexOf(ch);
    for (let b = 4; b >= 0; b--) {
      const on = (bits >> b) & 1;
      if (even) {
        const mid = (box.lngMin + box.lngMax) / 2;
        if (on) box.lngMin = mid;
        else box.lngMax = mid;
      } else {
        const mid = (box.latMin + box.latMax) / 2;
        if (on) box.latMin = mid;
        else box.latMax = mid;
      }
      even = !even;
    }
  }
  return box;
}

interface Cell {
  hash: string;
  /** Where reading (re)starts: the cell's start, or the last geohash of a chunk. */
  from: string;
  /** More records share one geohash here than a chunk holds (a building's shops): read with all the budget left. */
  greedy?: boolean;
  minM: number;
  maxM: number;
}

function cellOf(center: LatLng, hash: string, from = hash): Cell {
  const b = cellBox(hash);
  const nearest = { lat: Math.min(Math.max(center.lat, b.latMin), b.latMax), lng: Math.min(Math.max(center.lng, b.lngMin), b.lngMax) };
  const corners = [
    { lat: b.latMin, lng: b.lngMin },
    { lat: b.latMin, lng: b.lngMax },
    { lat: b.latMax, lng: b.lngMin },
    { lat: b.latMax, lng: b.lngMax },
  ];
  return { hash, from, minM: distanceMeters(center, nearest), maxM: Math.max(...corners.map((c) => distanceMeters(center, c))) };
}

/** The finest precision whose cells are at least `metres` high (precision 1 when none is). */
function coarsestFor(metres: number): number {
  for (let precision = MAX_PRECISION; precision > 1; precision--) if ((180 / 2 ** Math.floor((5 * precision) / 2)) * 111_320 >= metres) return precision;
  return 1;
}

/** The cells (of one precision, at most about 16) that cover the circle's bounding box. */
function coverCells(center: LatLng, radiusM: number): string[] {
  const dLat = radiusM / 111_320;
  const dLng = radiusM / (111_320 * Math.max(Math.cos((center.lat * Math.PI) / 180), 0.01));
  const box = { latMin: Math.max(center.lat - dLat, -90), latMax: Math.min(center.lat + dLat, 90), lngMin: center.lng - dLng, lngMax: center.lng + dLng };
  for (let precision = MAX_PRECISION; precision >= 1; precision--) {
    const lngBits = Math.ceil((5 * precision) / 2);
    const latBits = Math.floor((5 * precision) / 2);
    const w = 360 / 2 ** lngBits;
    const h = 180 / 2 ** latBits;
    const across = Math.floor(box.lngMax / w) - Math.floor(box.lngMin / w) + 1;
    const down = Math.floor(box.latMax / h) - Math.floor(box.latMin / h) + 1;
    if (across * down > 16 && precision > 1) continue;
    const hashes = new Set<string>();
    for (let i = 0; i < down; i++) {
      for (let j = 0; j < across; j++) {
        const lat = Math.min((Math.floor(box.latMin / h) + i + 0.5) * h, 89.999999);
        let lng = (Math.floor(box.lngMin / w) + j + 0.5) * w;
        lng = ((((lng + 180) % 360) + 360) % 360) - 180;
        hashes.add(geofire().geohashForLocation([lat, lng], precision));
      }
    }
    return [...hashes];
  }
  return [];
}

export interface NearbyPosition {
  distanceM: number;
  id: string;
  /** The precision of the cell the previous page ended in: the cells across the cursor's circle start that fine (no probing down). */
  precision?: number;
}

export interface NearbyPageOptions<T> {
  center: LatLng;
  radiusM: number;
  /** Items wanted; Infinity reads the whole circle (within the budget), e.g. to rank by something else than distance. */
  limit: number;
  /** Documents one request may read. */
  budget: number;
  /** The last item of the previous page: only farther items (same distance: larger id) come. */
  after?: NearbyPosition;
  /**
   * At most `max` records whose geohash is in [start, end], ordered by geohash (then id), each with its geohash.
   * Every record returned counts against the budget, kept or not.
   */
  read(start: string, end: string, max: number): Promise<Array<T & { geohash: string }>>;
  pointOf(item: T): LatLng;
  /** Records to leave out (inactive, filtered): they still count as read. */
  keep?(item: T): boolean;
}

export interface NearbyPageResult<T> {
  /** Nearest first (then id), beyond `after`, at most `limit`. */
  items: Array<Located<T>>;
  /** Where the next page starts (the last item, or the distance settled when none was): undefined at the end. */
  next?: NearbyPosition;
  /** The budget ran out before a record beyond `after` could be told apart from the unread ones: no progress. */
  stuck: boolean;
  /** Documents read. */
  reads: number;
  /** The budget ran out before the circle was settled: `items` are exact up to `settledM`. */
  truncated: boolean;
  /** Distance up to which every record was read. */
  settledM: number;
}

const beyond = (after: NearbyPosition | undefined, distanceM: number, id: string) => !after || distanceM > after.distanceM || (distanceM === after.distanceM && id > after.id);
const byDistance = <T extends { id: string }>(a: Located<T>, b: Located<T>) => a.distanceM - b.distanceM || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0);

/** One page of the records within `radiusM` of `center` by distance, reading at most `budget` documents. */
export async function nearbyPage<T extends { id: string }>(options: NearbyPageOptions<T>): Promise<NearbyPageResult<T>> {
  const { center, radiusM, limit, budget, after } = options;
  let truncated = false;
  // A chunk is enough for a page and its look-ahead, and small enough that a dense cell is split early.
  const chunk = Number.isFinite(limit) ? Math.max(limit + 1, 20) : 200;
  const wanted = (c: Cell) => c.minM <= radiusM && (!after || c.maxM >= after.distanceM);
  const across = (c: Cell) => after !== undefined && c.minM < after.distanceM;
  // No finer than cells an eighth of the cursor's distance high: a ring of a few dozen cells, whatever hotspot (a
  // building's shops) the previous page ended in.
  const hint = Math.min(after?.precision ?? 0, MAX_PRECISION, coarsestFor((after?.distanceM ?? 0) / 8));
  const presplit = (c: Cell): Cell[] => (across(c) && c.hash.length < hint ? [...BASE32].map((ch) => cellOf(center, c.hash + ch)).filter(wanted).flatMap(presplit) : [c]);
  const queue = coverCells(center, radiusM).map((h) => cellOf(center, h)).filter(wanted).flatMap(presplit);
  /** The precision of the cell each record was read in: the density where the page ends. */
  const readAt = new Map<string, number>();
  const found = new Map<string, Located<T>>();
  let reads = 0;
  const settled = () => (queue.length === 0 ? radiusM : Math.min(radiusM, ...queue.map((c) => c.minM)));
  const finals = () => {
    const edge = settled();
    const whole = queue.length === 0;
    return [...found.values()].filter((f) => (whole ? f.distanceM <= edge : f.distanceM < edge)).sort(byDistance);
  };

  const enough = () => {
    const edge = settled();
    let n = 0;
    for (const f of found.values()) if (f.distanceM < edge && ++n > limit) return true;
    return false;
  };
  let blocked = false;
  while (queue.length > 0 && !blocked) {
    if (enough()) break;
    const room = budget - reads;
    if (room <= 0) {
      truncated = true;
      break;
    }
    queue.sort((a, b) => a.minM - b.minM || (a.hash < b.hash ? -1 : 1));
    const batch = queue.splice(0, queue[0].greedy ? 1 : Math.min(PARALLEL_CELLS, room));
    // The cells of a batch share one page's worth of reads: a dense cell is found (and split) at a small cost.
    const share = batch[0].greedy ? room : Math.max(1, Math.min(chunk, Math.floor(room / batch.length), Math.max(8, Math.ceil(chunk / batch.length))));
    // A cell across the cursor's circle is probed with a few records: when it holds more, it is split so that its
    // parts nearer than the cursor (served already) are not read.
    const shares = batch.map((cell) => (across(cell) && cell.hash.length < MAX_PRECISION ? Math.min(share, STRADDLE_PROBE) : share));
    const pages = await Promise.all(batch.map((cell, i) => options.read(cell.from, `${cell.hash}~`, shares[i])));
    batch.forEach((cell, i) => {
      const page = pages[i];
      const share = shares[i];
      // Firestore bills a query that finds nothing as one read: so does the budget.
      reads += Math.max(1, page.length);
      for (const record of page) {
        if (options.keep && !options.keep(record)) continue;
        const distanceM = distanceMeters(center, options.pointOf(record));
        if (distanceM <= radiusM && beyond(after, distanceM, record.id)) {
          found.set(record.id, { item: record, distanceM });
          readAt.set(record.id, cell.hash.length);
        }
      }
      if (page.length < share) return; // the cell is read to its end
      const last = page[page.length - 1].geohash;
      if (cell.hash.length >= MAX_PRECISION || last.length <= cell.hash.length) {
        // No finer cell to split into: carry on after the chunk within the same cell.
        if (last > cell.from) queue.push({ ...cell, from: last });
        else if (!(cell.greedy && batch.length === 1)) queue.push({ ...cell, greedy: true });
        else {
          // More records share one geohash than the budget holds: the cell stays unread (nothing beyond it is final).
          queue.push(cell);
          blocked = true;
          truncated = true;
        }
        return;
      }
      // A dense cell: its sub-cells before the chunk's last are read, the one holding it resumes there, the rest wait.
      const at = BASE32.indexOf(last[cell.hash.length]);
      for (let k = at; k < BASE32.length; k++) {
        const sub = cellOf(center, cell.hash + BASE32[k], k === at ? last : undefined);
        if (wanted(sub)) queue.push(sub);
      }
    });
  }
  const done = finals();
  const items = done.slice(0, limit);
  const last = items.at(-1);
  const settledM = settled();
  let next: NearbyPosition | undefined;
  if (last && (done.length > limit || queue.length > 0)) next = { distanceM: last.distanceM, id: last.item.id, precision: readAt.get(last.item.id) };
  // Nothing in reach, yet every record nearer than settledM was read: the next page starts there (id ' ' sorts first).
  else if (!last && queue.length > 0 && settledM > (after?.distanceM ?? 0)) next = { distanceM: settledM, id: ' ', precision: after?.precision };
  return { items, next, stuck: !last && queue.length > 0 && next === undefined, reads, truncated, settledM };
}
