import type { LatLng } from '../../platform/kits/geo/geo';

// Distance and duration of a trip. An offline estimator by default (great-circle distance × a road factor, speed by
// vehicle class and Vietnam hour); OSRM over HTTP when configured. Both answer the same shape.

/** The ride classes: what a trip is routed, priced and dispatched for. The one list (driver and rides import it from here). */
export const RIDE_CLASSES = ['MOTORBIKE', 'CAR', 'CAR_7'] as const;
export type RideClass = (typeof RIDE_CLASSES)[number];

export interface RouteEstimate {
  distanceM: number;
  durationSec: number;
  /** Google encoded polyline (precision 5) of the path. */
  polyline: string;
  provider: 'estimator' | 'osrm';
}

/** Streets wind: the road distance is about 1.35× the straight line in Vietnamese cities. */
export const ROAD_FACTOR = 1.35;

/** km/h by vehicle class, off-peak and at rush hour (7–9 and 16–19, Vietnam time). */
const SPEED_KMH: Record<RideClass, { normal: number; rush: number }> = {
  MOTORBIKE: { normal: 26, rush: 17 },
  CAR: { normal: 24, rush: 13 },
  CAR_7: { normal: 23, rush: 12 },
};

export function isRushHour(ms: number): boolean {
  const hour = new Date(ms + 7 * 3600_000).getUTCHours();
  return (hour >= 7 && hour < 9) || (hour >= 16 && hour < 19);
}

export function haversineM(a: LatLng, b: LatLng): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Google's encoded polyline algorithm (precision 1e-5). */
export function encodePolyline(points: readonly LatLng[]): string {
  let out = '';
  let prevLat = 0;
  let prevLng = 0;
  const encode = (value: number) => {
    let v = value < 0 ? ~(value << 1) : value << 1;
    let chunk = '';
    while (v >= 0x20) {
      chunk += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>= 5;
    }
    return chunk + String.fromCharCode(v + 63);
  };
  for (const p of points) {
    const lat = Math.round(p.lat * 1e5);
    const lng = Math.round(p.lng * 1e5);
    out += encode(lat - prevLat) + encode(lng - prevLng);
    prevLat = lat;
    prevLng = lng;
  }
  return out;
}

export function decodePolyline(encoded: string): LatLng[] {
  const points: LatLng[] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = () => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    lat += next();
    lng += next();
    points.push({ lat: lat / 1e5, lng: lng / 1e5 });
  }
  return points;
}

/** The estimator: road distance from the straight line, time from the class's speed at that hour. */
export function estimateRoute(from: LatLng, to: LatLng, vehicle: RideClass, at: number): RouteEstimate {
  const distanceM = Math.round(haversineM(from, to) * ROAD_FACTOR);
  const speed = SPEED_KMH[vehicle][isRushHour(at) ? 'rush' : 'normal'];
  const durationSec = distanceM === 0 ? 0 : Math.max(60, Math.round((distanceM / 1000 / speed) * 3600));
  // A straight path in 8 legs: apps draw it until a real router is configured.
  const points = Array.from({ length: 9 }, (_, i) => ({ lat: from.lat + ((to.lat - from.lat) * i) / 8, lng: from.lng + ((to.lng - from.lng) * i) / 8 }));
  return { distanceM, durationSec, polyline: encodePolyline(points), provider: 'estimator' };
}
