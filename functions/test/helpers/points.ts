import { geohashOf, type LatLng } from '../../src/platform/kits/geo/geo';
import { foldText, searchTermsOf } from '../../src/platform/kits/text/text';

// Points for the geo kit's tests: fixed positions (a sunflower spread over a disc), no randomness.

export const HCMC = { lat: 10.7769, lng: 106.7009 };

/** The point `north` and `east` metres from `center`. */
export const metres = (center: LatLng, north: number, east: number): LatLng => ({
  lat: center.lat + north / 111_320,
  lng: center.lng + east / (111_320 * Math.cos((center.lat * Math.PI) / 180)),
});

/** n points spread evenly over a disc of `radiusM` around `center`, ids `<prefix>00000`… in that order. */
export function scatter(n: number, center: LatLng, radiusM: number, prefix = 'p'): Array<LatLng & { id: string; geohash: string }> {
  return Array.from({ length: n }, (_, i) => {
    const r = radiusM * Math.sqrt((i + 0.5) / n);
    const a = i * 2.399963;
    const at = metres(center, r * Math.cos(a), r * Math.sin(a));
    return { id: `${prefix}${String(i).padStart(5, '0')}`, ...at, geohash: geohashOf(at) };
  });
}

/** A catalog record as the catalog stores it, written straight to Firestore by tests that need many (or one from before). */
export function catalogDocument(name: string, at: LatLng, details: Record<string, unknown>, options: { status?: string; at?: number } = {}) {
  const t = options.at ?? Date.now();
  return {
    partnerId: null,
    name,
    nameFolded: foldText(name),
    terms: searchTermsOf(name),
    description: null,
    address: null,
    phone: null,
    ...at,
    geohash: geohashOf(at),
    photos: [],
    hours: null,
    status: options.status ?? 'ACTIVE',
    statusReason: null,
    ratingAvg: 0,
    ratingCount: 0,
    details,
    createdBy: 'test',
    createdAt: t,
    updatedAt: t,
  };
}

/** A café of the places catalog (see catalogDocument). */
export const placeDocument = (name: string, at: LatLng, options: { status?: string; at?: number } = {}) =>
  catalogDocument(name, at, { category: 'CAFE' }, options);
