import type { Transaction, WriteBatch } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../core/firebase/firebase';
import { cellIndexOf } from '../firestore/collections';
import type { LatLng, Located } from './geo';
import { BASE32, cellSpan, coverCells, geohashDistance, type NearbyPageResult, type NearbyPosition } from './nearby-page';

// A geohash cell index beside a collection, so that a nearby page reads documents by id instead of range queries
// (each a round trip of its own, and on the emulator a scan of the collection). `<collection>_cells/{geohash}`:
// a cell of 3 to 5 characters counts the indexed records in each of its 32 sub-cells (`c`, by the next character);
// a cell of 6 characters (about 1.2 × 0.6 km) names its records with their geohash (`e`, id → geohash). A page reads
// the cells covering the circle, then, nearest first, the sub-cells that may hold one of the records wanted (the
// counts say how many each holds), then the nearest records by id: three round trips for a first page in a city.
// The index is written in the records' own transactions: increments and merged map keys, after reading only the
// record's own 6-character cell (what it lists is what is taken out). Every catalog write in a 3-character cell
// (about 156 km, a city) increments that cell's document: fine for partners' and administrators' edits, too many for
// a bulk import at more than about one record a second (batch those with `writeCellIndex`, one write per document).

/** The coarsest cells kept (about 156 km): a circle of up to 50 km is covered by at most 16 of them. */
const TOP_PRECISION = 3;
/** The cells that list their records. */
const LEAF_PRECISION = 6;

/** A cell document: sub-cell counts (3 to 5 characters) or the records with their geohash (6 characters). */
export interface CellDocument {
  c?: Record<string, number>;
  e?: Record<string, string>;
}

/** A record entering, leaving or moving in the index: its geohash while indexed (undefined: not indexed). */
export interface IndexedChange {
  id: string;
  before?: string;
  after?: string;
}

/** What each cell document gains: count increments by sub-cell, and entries set (a geohash) or removed (null). */
export function cellIndexWrites(changes: readonly IndexedChange[]): Map<string, { c: Record<string, number>; e: Record<string, string | null> }> {
  const docs = new Map<string, { c: Record<string, number>; e: Record<string, string | null> }>();
  const doc = (hash: string) => {
    let d = docs.get(hash);
    if (!d) docs.set(hash, (d = { c: {}, e: {} }));
    return d;
  };
  const apply = (id: string, geohash: string, sign: 1 | -1) => {
    if (geohash.length <= LEAF_PRECISION) throw new Error(`geohash ${geohash} is shorter than the index needs`);
    for (let p = TOP_PRECISION; p < LEAF_PRECISION; p++) {
      const counts = doc(geohash.slice(0, p)).c;
      counts[geohash[p]] = (counts[geohash[p]] ?? 0) + sign;
    }
    doc(leafCellOf(geohash)).e[id] = sign > 0 ? geohash : null;
  };
  for (const change of changes) {
    if (change.before === change.after) continue;
    if (change.before) apply(change.id, change.before, -1);
    if (change.after) apply(change.id, change.after, 1);
  }
  for (const [hash, d] of docs) {
    for (const k of Object.keys(d.c)) if (d.c[k] === 0) delete d.c[k];
    if (Object.keys(d.c).length === 0 && Object.keys(d.e).length === 0) docs.delete(hash);
  }
  return docs;
}

/** Writes the changes into the collection's index, one blind merge per cell document, beside the records' own writes. */
export function writeCellIndex(writer: Transaction | WriteBatch, collection: string, changes: readonly IndexedChange[]): void {
  const { FieldValue } = firestoreApi();
  const cells = db().collection(cellIndexOf(collection));
  for (const [hash, w] of cellIndexWrites(changes)) {
    const data: Record<string, unknown> = {};
    if (Object.keys(w.c).length > 0) data.c = Object.fromEntries(Object.entries(w.c).map(([k, n]) => [k, FieldValue.increment(n)]));
    if (Object.keys(w.e).length > 0) data.e = Object.fromEntries(Object.entries(w.e).map(([id, g]) => [id, g ?? FieldValue.delete()]));
    (writer as WriteBatch).set(cells.doc(hash), data, { merge: true });
  }
}

/** The cell that lists a record at this geohash. */
export const leafCellOf = (geohash: string) => geohash.slice(0, LEAF_PRECISION);
/** Whether a record's geohash is precise enough to be indexed (the records' own are 10 characters). */
export const isIndexable = (geohash: unknown): geohash is string => typeof geohash === 'string' && geohash.length > LEAF_PRECISION;
/** Whether a cell document lists records (the others count). */
export const isLeafCell = (hash: string) => hash.length === LEAF_PRECISION;

/** Where the index lists the record now (its cell read in the transaction); undefined when it does not. */
export async function listedGeohash(tx: Transaction, collection: string, record: { id: string; geohash: string }): Promise<string | undefined> {
  if (!isIndexable(record.geohash)) return undefined;
  const { FieldPath } = firestoreApi();
  const cell = await tx.get(db().collection(cellIndexOf(collection)).doc(leafCellOf(record.geohash)));
  const at = cell.get(new FieldPath('e', record.id)) as unknown;
  return typeof at === 'string' ? at : undefined;
}

/** The index's cell documents by geohash, in order (missing: undefined); each counts as one read. */
export async function readCells(collection: string, hashes: readonly string[]): Promise<Array<CellDocument | undefined>> {
  if (hashes.length === 0) return [];
  const cells = db().collection(cellIndexOf(collection));
  const snaps = await db().getAll(...hashes.map((h) => cells.doc(h)));
  return snaps.map((s) => (s.exists ? (s.data() as CellDocument) : undefined));
}

export interface CellNearbyOptions<T> {
  center: LatLng;
  radiusM: number;
  /** Items wanted; Infinity reads the whole circle (within the budget). */
  limit: number;
  /** Documents one request may read: cells and records. */
  budget: number;
  /** The last record of the previous page (served or left out): only farther ones (same distance: larger id) come. */
  after?: NearbyPosition;
  readCells(hashes: readonly string[]): Promise<Array<CellDocument | undefined>>;
  /** The records by id, in order (gone: undefined). */
  readRecords(ids: readonly string[]): Promise<Array<T | undefined>>;
  /** Records to leave out (filtered): they still count as read. */
  keep?(item: T): boolean;
}

interface Node {
  hash: string;
  /** Records it holds (from its parent's counts); Infinity while unknown (the covering cells). */
  count: number;
  minM: number;
  maxM: number;
}
interface Entry {
  id: string;
  geohash: string;
  distanceM: number;
}

const nodeOf = (center: LatLng, hash: string, count: number): Node => ({ hash, count, ...cellSpan(center, hash) });

const byDistance = (a: Entry, b: Entry) => a.distanceM - b.distanceM || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The distance within which `need` more records lie for certain: the known ones at their distance, each counted cell
 * at its farthest corner. Every cell nearer than that may hold one of them and is read; the others wait.
 */
function reachFor(need: number, known: readonly Entry[], nodes: readonly Node[], radiusM: number): number {
  const marks = [...known.map((e) => ({ at: e.distanceM, n: 1 })), ...nodes.filter((n) => Number.isFinite(n.count)).map((n) => ({ at: n.maxM, n: n.count }))];
  marks.sort((a, b) => a.at - b.at);
  let sum = 0;
  for (const m of marks) if ((sum += m.n) >= need) return Math.min(m.at, radiusM);
  return radiusM;
}

/**
 * One page of the indexed records within `radiusM` of `center`, nearest first (distance: the geohash cell centre's,
 * then id), reading at most `budget` documents. Each round trip reads the records certain to come next and, beside
 * them, the cells that may hold nearer ones than those still wanted. The next page goes on after the last record read.
 */
export async function nearbyByCells<T extends { id: string; geohash?: string }>(options: CellNearbyOptions<T>): Promise<NearbyPageResult<T>> {
  const { center, radiusM, limit, budget, after } = options;
  const beyond = (distanceM: number, id: string) => !after || distanceM > after.distanceM || (distanceM === after.distanceM && id > after.id);
  const wanted = (n: Node) => n.minM <= radiusM && (!after || n.maxM >= after.distanceM);
  let nodes = coverCells(center, radiusM, LEAF_PRECISION, TOP_PRECISION)
    .map((h) => nodeOf(center, h, Number.POSITIVE_INFINITY))
    .filter(wanted);
  let pending: Entry[] = [];
  const listed = new Set<string>();
  const items: Array<Located<T>> = [];
  let reads = 0;
  let truncated = false;
  let last: Entry | undefined;
  while (items.length < limit) {
    const edge = nodes.reduce((m, n) => Math.min(m, n.minM), Number.POSITIVE_INFINITY);
    pending.sort(byDistance);
    let settled = 0;
    while (settled < pending.length && pending[settled].distanceM < edge) settled++;
    if (settled === 0 && nodes.length === 0) break;
    const room = budget - reads;
    if (room <= 0) {
      truncated = true;
      break;
    }
    const missing = limit - items.length;
    const fetch = pending.slice(0, Math.min(settled, missing, room));
    let expand: Node[] = [];
    if (fetch.length < missing && nodes.length > 0 && fetch.length < room) {
      const reach = reachFor(missing - fetch.length, pending.slice(fetch.length), nodes, radiusM);
      nodes.sort((a, b) => a.minM - b.minM);
      expand = nodes.filter((n, i) => i === 0 || n.minM <= reach).slice(0, room - fetch.length);
      if (fetch.length > 0) expand = expand.filter((n) => n.minM <= reach);
    }
    if (fetch.length === 0 && expand.length === 0) break;
    nodes = nodes.filter((n) => !expand.includes(n));
    pending = pending.slice(fetch.length);
    const [records, cells] = await Promise.all([
      fetch.length > 0 ? options.readRecords(fetch.map((e) => e.id)) : [],
      expand.length > 0 ? options.readCells(expand.map((n) => n.hash)) : [],
    ]);
    reads += fetch.length + expand.length;
    fetch.forEach((entry, i) => {
      last = entry;
      const record = records[i];
      // A record listed where it no longer is (moved behind the index's back) comes from its own cell, not this one.
      const there = record !== undefined && (record.geohash === undefined || record.geohash === entry.geohash);
      if (there && (!options.keep || options.keep(record))) items.push({ item: record, distanceM: entry.distanceM });
    });
    expand.forEach((node, i) => {
      const cell = cells[i];
      if (node.hash.length >= LEAF_PRECISION) {
        for (const [id, geohash] of Object.entries(cell?.e ?? {})) {
          if (typeof geohash !== 'string' || geohash.length <= LEAF_PRECISION) continue;
          const distanceM = geohashDistance(center, geohash);
          if (distanceM <= radiusM && beyond(distanceM, id) && !listed.has(id)) {
            listed.add(id);
            pending.push({ id, geohash, distanceM });
          }
        }
        return;
      }
      for (const [k, count] of Object.entries(cell?.c ?? {})) {
        if (!(count > 0) || k.length !== 1 || !BASE32.includes(k)) continue;
        const child = nodeOf(center, node.hash + k, count);
        if (wanted(child)) nodes.push(child);
      }
    });
  }
  const left = pending.length > 0 || nodes.length > 0;
  const edge = Math.min(radiusM, ...nodes.map((n) => n.minM), ...pending.map((e) => e.distanceM));
  // Everything up to the last record read is served or left out: the next page starts after it.
  const next = left && last ? { distanceM: last.distanceM, id: last.id, ring: '' } : undefined;
  return { items, next, stuck: left && !last, reads, truncated, settledM: left ? edge : radiusM };
}
