import { distanceMeters, geofire, type LatLng, type Located } from './geo';

// Paging by distance under a read budget. The circle is covered by geohash cells visited nearest first (a cell's
// records are at least its `minM` away): a record is final once every cell that could hold a nearer one is read.
// A cell is read in chunks by (geohash, id); a full chunk splits the rest of the cell into its sub-cells (those wholly
// read are done, the rest queued by their own distance) and the records stacked at the chunk's last geohash are read
// on after its last id, so a dense block costs a few chunks and one geohash with any number of records pages through.
// The queue left when a page ends (the partial ring, each cell with where it resumes, plus the chunks holding records
// found but not yet served) is the next page's cursor: every page goes on from there instead of probing the ring again.
// A record's distance is that of its geohash cell's centre (10 characters: within a metre): the records of one geohash
// share it and come in id order, the order they are read in. No request reads more than `budget` documents.

export const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const METRES_PER_DEGREE = (Math.PI * 6_371_000) / 180;
/** Finest precision a cell is split to: records store 10 characters. */
const MAX_PRECISION = 9;
/** Cells read at once (in parallel), nearest first. */
const PARALLEL_CELLS = 4;
/** Cells read at once when that many must be read before the page is settled (see `cellsToRead`). */
const NEEDED_CELLS = 8;
/** Entries a cursor's ring may hold (a forged or runaway one is refused). */
const MAX_RING = 400;

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

/** The distance a record is paged by: its geohash cell's centre's (the same for every record of one geohash). */
export function geohashDistance(center: LatLng, geohash: string): number {
  const b = cellBox(geohash);
  return distanceMeters(center, { lat: (b.latMin + b.latMax) / 2, lng: (b.lngMin + b.lngMax) / 2 });
}

/** Where a read resumes or stops: a geohash, and an id at it (startAfter / endAt both values) or none (the whole geohash). */
interface Cell {
  hash: string;
  /** Reading starts at this geohash (default: the cell's start); with `afterId`, after that record of it. */
  from?: string;
  afterId?: string;
  /** Reading ends at this geohash (default: the cell's end); with `toId`, at that record of it. */
  to?: string;
  toId?: string;
  minM: number;
  maxM: number;
}

/** A cell finer than any split holds one geohash: its records are all at one distance, those after `afterId` unread. */
const isStack = (c: Cell) => c.hash.length > MAX_PRECISION;

/** How near and how far from `center` a geohash cell's records may lie: its nearest point and its farthest corner. */
export function cellSpan(center: LatLng, hash: string): { minM: number; maxM: number } {
  const b = cellBox(hash);
  const nearest = { lat: Math.min(Math.max(center.lat, b.latMin), b.latMax), lng: Math.min(Math.max(center.lng, b.lngMin), b.lngMax) };
  const corners = [b.latMin, b.latMax].flatMap((lat) => [b.lngMin, b.lngMax].map((lng) => distanceMeters(center, { lat, lng })));
  return { minM: distanceMeters(center, nearest), maxM: Math.max(...corners) };
}

function cellOf(center: LatLng, hash: string, at: Omit<Cell, 'hash' | 'minM' | 'maxM'> = {}): Cell {
  if (hash.length > MAX_PRECISION) {
    const d = geohashDistance(center, hash);
    return { hash, ...at, minM: d, maxM: d };
  }
  return { hash, ...at, ...cellSpan(center, hash) };
}

/**
 * The cells (of one precision, at most about 16) that cover the circle's bounding box: the finest precision from
 * `finest` down to `coarsest` that needs no more than 16 (at `coarsest`, as many as it takes).
 */
export function coverCells(center: LatLng, radiusM: number, finest = MAX_PRECISION, coarsest = 1): string[] {
  // Metres per degree on geofire's sphere (6,371 km, as distanceMeters measures), with a margin for the circle's
  // widest longitude lying off the centre's latitude: a record just inside the radius is never left uncovered.
  const reach = radiusM * 1.005 + 1;
  const dLat = reach / METRES_PER_DEGREE;
  const dLng = reach / (METRES_PER_DEGREE * Math.max(Math.cos((center.lat * Math.PI) / 180), 0.01));
  const box = { latMin: Math.max(center.lat - dLat, -90), latMax: Math.min(center.lat + dLat, 90), lngMin: center.lng - dLng, lngMax: center.lng + dLng };
  for (let precision = finest; precision >= coarsest; precision--) {
    const lngBits = Math.ceil((5 * precision) / 2);
    const latBits = Math.floor((5 * precision) / 2);
    const w = 360 / 2 ** lngBits;
    const h = 180 / 2 ** latBits;
    const across = Math.floor(box.lngMax / w) - Math.floor(box.lngMin / w) + 1;
    const down = Math.floor(box.latMax / h) - Math.floor(box.latMin / h) + 1;
    if (across * down > 16 && precision > coarsest) continue;
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

// The ring travels in the cursor as text: whole sibling cells as `parent.mask` (a bit per sub-cell), the others as
// `hash|from|afterId|to|toId` (from and to without the hash they start with; ids URI-encoded).
const GEOHASH = /^[0-9b-hjkmnp-z]{1,12}$/;
const RESUME = /^[0-9b-hjkmnp-z]{1,13}$/;

function encodeRing(cells: readonly Cell[]): string {
  const groups = new Map<string, number>();
  const out: string[] = [];
  for (const c of cells) {
    if (c.from === undefined && c.to === undefined && c.hash.length > 1 && !isStack(c)) {
      const parent = c.hash.slice(0, -1);
      groups.set(parent, (groups.get(parent) ?? 0) | (1 << BASE32.indexOf(c.hash.at(-1)!)));
    } else
      out.push(
        [c.hash, c.from?.slice(c.hash.length) ?? '', encodeURIComponent(c.afterId ?? ''), c.to?.slice(c.hash.length) ?? '', encodeURIComponent(c.toId ?? '')]
          .join('|')
          .replace(/\|+$/, ''),
      );
  }
  for (const [parent, mask] of groups) out.push(`${parent}.${(mask >>> 0).toString(36)}`);
  return out.join(',');
}

/** The cells of a cursor's ring; undefined when it is not one this kit wrote. */
function decodeRing(center: LatLng, ring: string): Cell[] | undefined {
  if (ring === '') return [];
  const entries = ring.split(',');
  if (entries.length > MAX_RING) return undefined;
  const cells: Cell[] = [];
  const id = (s: string | undefined) => {
    if (!s) return undefined;
    const v = decodeURIComponent(s);
    if (v.length > 1500 || v.includes('/')) throw new Error('id');
    return v;
  };
  try {
    for (const entry of entries) {
      const group = /^([0-9b-hjkmnp-z]{0,8})\.([0-9a-z]{1,7})$/.exec(entry);
      if (group) {
        const mask = parseInt(group[2], 36);
        if (!(mask > 0 && mask <= 0xffffffff)) return undefined;
        for (let k = 0; k < 32; k++) if ((mask >>> k) & 1) cells.push(cellOf(center, group[1] + BASE32[k]));
        continue;
      }
      const [hash, fromTail, afterId, toTail, toId, ...rest] = entry.split('|');
      if (rest.length > 0 || !GEOHASH.test(hash)) return undefined;
      const from = fromTail || afterId ? hash + (fromTail ?? '') : undefined;
      const to = toTail || toId ? hash + (toTail ?? '') : undefined;
      if ((from && !RESUME.test(from)) || (to && !RESUME.test(to))) return undefined;
      cells.push(cellOf(center, hash, { from, afterId: id(afterId), to, toId: id(toId) }));
    }
  } catch {
    return undefined;
  }
  return cells;
}

/** Whether `ring` is a ring this kit writes (for a cursor's check: a 400 rather than a wrong page). */
export const isNearbyRing = (ring: string) => ring.length <= 20_000 && decodeRing({ lat: 0, lng: 0 }, ring) !== undefined;

export interface NearbyPosition {
  distanceM: number;
  id: string;
  /** The previous page's partial ring: the cells left to read and where each resumes (see above). */
  ring?: string;
}

export interface NearbyPageOptions<T> {
  center: LatLng;
  radiusM: number;
  /** Items wanted; Infinity reads the whole circle (within the budget), e.g. to rank by something else than distance. */
  limit: number;
  /** Documents one request may read. */
  budget: number;
  /** The last item of the previous page and its ring: only farther items (same distance: larger id) come. */
  after?: NearbyPosition;
  /**
   * At most `max` records with a geohash from `start` to `end` (inclusive), ordered by geohash then id, each with its
   * geohash: with `afterId`, only those after (start, afterId) (startAfter); with `endId`, up to (end, endId) (endAt).
   * Every record returned counts against the budget, kept or not.
   */
  read(start: string, end: string, max: number, afterId?: string, endId?: string): Promise<Array<T & { geohash: string }>>;
  pointOf(item: T): LatLng;
  /** Records to leave out (filtered): they still count as read. */
  keep?(item: T): boolean;
}

export interface NearbyPageResult<T> {
  /** Nearest first (then id), beyond `after`, at most `limit`. */
  items: Array<Located<T>>;
  /** Where the next page starts: undefined at the end. */
  next?: NearbyPosition;
  /** The page could not read past what the previous one carried over (a budget below one chunk): no progress. */
  stuck: boolean;
  /** Documents read. */
  reads: number;
  /** The budget ran out before the circle was settled: `items` are exact up to `settledM`. */
  truncated: boolean;
  /** Distance up to which every record was read. */
  settledM: number;
}

const beyond = (after: NearbyPosition | undefined, distanceM: number, id: string) =>
  !after || distanceM > after.distanceM || (distanceM === after.distanceM && id > after.id);
const byDistance = <T extends { id: string }>(a: Located<T>, b: Located<T>) =>
  a.distanceM - b.distanceM || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0);
const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
};

interface Found<T> extends Located<T> {
  /** The chunk the record was read in, and the position just before it there (for reading it again). */
  chunk: number;
  before: Pick<Cell, 'from' | 'afterId'>;
}

/** One page of the records within `radiusM` of `center` by distance, reading at most `budget` documents. */
export async function nearbyPage<T extends { id: string }>(options: NearbyPageOptions<T>): Promise<NearbyPageResult<T>> {
  const { center, radiusM, limit, budget, after } = options;
  let truncated = false;
  // A chunk is enough for a page and its look-ahead, and small enough that a dense cell is split early.
  const chunk = Number.isFinite(limit) ? Math.max(limit + 1, 20) : 200;
  const wanted = (c: Cell) => c.minM <= radiusM && (!after || c.maxM >= after.distanceM);
  const carried = after?.ring !== undefined ? decodeRing(center, after.ring) : undefined;
  let queue = (carried ?? coverCells(center, radiusM).map((h) => cellOf(center, h))).filter(wanted);
  const found = new Map<string, Found<T>>();
  /** Per chunk read: its cell and last record (a chunk holding unserved records is read again by the next page). */
  const chunks: Array<{ cell: Cell; last?: { geohash: string; id: string }; ended: boolean; split?: boolean }> = [];
  let reads = 0;
  let progressed = carried === undefined;
  // Everything nearer than (m, id) is read: a cell may hold records at its minM; a stack only those after its id.
  const edge = () => {
    if (queue.length === 0) return { m: radiusM, id: '\uffff', whole: true };
    let m = Infinity;
    let id = '';
    for (const c of queue) {
      const cid = isStack(c) ? (c.afterId ?? '') : '';
      if (c.minM < m || (c.minM === m && cid < id)) {
        m = c.minM;
        id = cid;
      }
    }
    return { m, id, whole: false };
  };
  const isFinal = (f: Located<T>, e: ReturnType<typeof edge>) => f.distanceM < e.m || (f.distanceM === e.m && f.item.id <= e.id);
  const enough = () => {
    const e = edge();
    let n = 0;
    for (const f of found.values()) if (isFinal(f, e) && ++n > limit) return true;
    return false;
  };
  // Once more than `limit` records are found, every cell nearer than the (limit + 1)th must be read before the page
  // is settled: up to NEEDED_CELLS of them go in one round trip instead of four at a time (a first page of 20 in a
  // city of 10,000 places: 8 round trips instead of 13, the same reads). More at once, or larger shares, spend a tight
  // budget before a dense area's nearest are settled (geo-paging.unit.test.ts).
  const cellsToRead = () => {
    if (!Number.isFinite(limit) || found.size <= limit) return PARALLEL_CELLS;
    const nth = [...found.values()].map((f) => f.distanceM).sort((a, b) => a - b)[limit];
    return Math.max(PARALLEL_CELLS, Math.min(NEEDED_CELLS, queue.filter((c) => c.minM <= nth).length));
  };
  while (queue.length > 0) {
    if (enough()) break;
    const room = budget - reads;
    if (room <= 0) {
      truncated = true;
      break;
    }
    queue.sort((a, b) => a.minM - b.minM || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
    const batch = queue.splice(0, Math.min(cellsToRead(), room));
    // The cells of a batch share one page's worth of reads: a dense cell is found (and split) at a small cost.
    const share = Math.max(1, Math.min(chunk, Math.floor(room / batch.length), Math.max(4, Math.ceil(chunk / batch.length))));
    const pages = await Promise.all(batch.map((c) => options.read(c.from ?? c.hash, c.to ?? `${c.hash}~`, share, c.afterId, c.toId)));
    batch.forEach((cell, i) => {
      const page = pages[i];
      // Firestore bills a query that finds nothing as one read: so does the budget.
      reads += Math.max(1, page.length);
      const at = chunks.push({ cell, last: page.at(-1), ended: page.length < share }) - 1;
      let before: Found<T>['before'] = { from: cell.from, afterId: cell.afterId };
      for (const record of page) {
        const distanceM = geohashDistance(center, record.geohash);
        if ((!options.keep || options.keep(record)) && distanceM <= radiusM && beyond(after, distanceM, record.id))
          found.set(record.id, { item: record, distanceM, chunk: at, before });
        before = { from: record.geohash, afterId: record.id };
      }
      if (page.length < share) {
        progressed ||= cell.to === undefined;
        return; // the cell is read to its end
      }
      progressed ||= cell.to === undefined;
      const last = page[page.length - 1];
      const resume = { from: last.geohash, afterId: last.id };
      if (cell.to !== undefined || isStack(cell)) {
        // A range carried over, or one geohash's stack: read on after the chunk.
        queue.push({ ...cell, ...resume });
        return;
      }
      // The records stacked at the chunk's last geohash, then the rest of the cell (its sub-cells after that geohash).
      queue.push(cellOf(center, last.geohash, resume));
      const rest = `${last.geohash}0`;
      if (cell.hash.length >= MAX_PRECISION || last.geohash.length <= cell.hash.length) {
        queue.push({ ...cell, from: rest, afterId: undefined });
        return;
      }
      chunks[at].split = true;
      const k0 = BASE32.indexOf(last.geohash[cell.hash.length]);
      for (let k = k0; k < BASE32.length; k++) {
        const sub = cellOf(center, cell.hash + BASE32[k], k === k0 ? { from: rest } : {});
        if (wanted(sub)) queue.push(sub);
      }
    });
    queue = queue.filter(wanted);
  }
  const e = edge();
  const done = [...found.values()].filter((f) => isFinal(f, e)).sort(byDistance);
  const items = done.slice(0, limit);
  const lastItem = items.at(-1);
  // The chunks that hold records found but not served are read again (from just before the first of them); a chunk
  // that split its cell is read again by sub-cell: those it read wholly by their hash, the one it ended in up to its last.
  const served = new Set(items.map((f) => f.item.id));
  const again = new Map<string, { f: Found<T>; sub?: string }>();
  const earlier = (a: Found<T>, b: Found<T>) =>
    (a.before.from ?? '') < (b.before.from ?? '') || ((a.before.from ?? '') === (b.before.from ?? '') && (a.before.afterId ?? '') < (b.before.afterId ?? ''));
  for (const f of found.values()) {
    if (served.has(f.item.id)) continue;
    const { cell, last, split } = chunks[f.chunk];
    const sub = split ? (f.item as unknown as { geohash: string }).geohash.slice(0, cell.hash.length + 1) : undefined;
    const key = sub !== undefined && sub !== last!.geohash.slice(0, sub.length) ? `${f.chunk}:${sub}` : `${f.chunk}`;
    const first = again.get(key);
    if (!first || earlier(f, first.f)) again.set(key, { f, sub: key.includes(':') ? sub : undefined });
  }
  const reread: Cell[] = [];
  for (const { f, sub } of again.values()) {
    if (sub !== undefined) {
      reread.push(cellOf(center, sub));
      continue;
    }
    const { cell, last, ended } = chunks[f.chunk];
    // A chunk that ended its cell is read again to the cell's end (a shorter cursor); a whole cell is just its hash.
    const to = ended ? { to: cell.to, toId: cell.toId } : { to: last!.geohash, toId: last!.id };
    // From the record's own geohash (no id: a shorter cursor; the few records sharing it are read again), but in a
    // stack (one geohash) after the record before it.
    const from = isStack(cell) ? f.before : { from: (f.item as unknown as { geohash: string }).geohash };
    const hash = to.to === undefined ? cell.hash : commonPrefix(from.from ?? cell.hash, to.to);
    reread.push(cellOf(center, hash.length >= cell.hash.length ? hash : cell.hash, { ...from, ...to }));
  }
  const left = [...reread, ...queue];
  const ring = encodeRing(left);
  let next: NearbyPosition | undefined;
  if (left.length > 0)
    next = lastItem ? { distanceM: lastItem.distanceM, id: lastItem.item.id, ring } : { distanceM: after?.distanceM ?? 0, id: after?.id ?? ' ', ring };
  const stuck = !lastItem && !progressed && left.length > 0;
  return { items, next: stuck ? undefined : next, stuck, reads, truncated, settledM: e.whole ? radiusM : e.m };
}
