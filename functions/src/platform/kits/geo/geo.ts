import { z } from 'zod';

// Located records carry a geohash (geofire-common) so that "near me" is a few range queries on one
// indexed field instead of a scan. Every `nearby` route shares the query schema below, so bad
// coordinates are the same 400 everywhere.
type GeofireCommon = typeof import('geofire-common');
let geofireModule: GeofireCommon | undefined;
/** geofire-common, kept once loaded: distances are computed per candidate record, and a require() per call resolves the path anew. */
export const geofire = () => (geofireModule ??= require('geofire-common') as GeofireCommon);

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

/**
 * Points for a public map, none exact: each snapped to a grid of `gridDeg` degrees (0.001°: about 100 m), its distance
 * measured from the snapped position and rounded to `roundM`, and the list ordered by that (then position), so neither
 * the distances nor the order tell the exact position back.
 */
export function blurredForMap(center: LatLng, points: readonly LatLng[], gridDeg = 0.001, roundM = 50): Array<LatLng & { distanceM: number }> {
  const snap = (v: number) => Math.round(Math.round(v / gridDeg) * gridDeg * 1e6) / 1e6;
  return points
    .map((p) => ({ lat: snap(p.lat), lng: snap(p.lng) }))
    .map((p) => ({ ...p, exact: distanceMeters(center, p) }))
    .sort((a, b) => a.exact - b.exact || a.lat - b.lat || a.lng - b.lng)
    .map(({ exact, ...p }) => ({ ...p, distanceM: Math.round(exact / roundM) * roundM }));
}
