import { geohashOf, distanceMeters, mergeRanges, nearby, NearbyQuerySchema } from '../../src/platform/kits/geo/geo';

// Ho Chi Minh City, District 1 (Bến Thành market) and points around it.
const BEN_THANH = { lat: 10.7725, lng: 106.698 };

describe('platform/kits/geo', () => {
  it('hashes a position and measures true distance', () => {
    expect(geohashOf(BEN_THANH)).toMatch(/^w3gv[0-9a-z]{6}$/);
    const hanoi = { lat: 21.0285, lng: 105.8542 };
    expect(distanceMeters(BEN_THANH, hanoi) / 1000).toBeGreaterThan(1130);
    expect(distanceMeters(BEN_THANH, hanoi) / 1000).toBeLessThan(1150);
  });

  it('validates nearby queries the same way everywhere (numbers in range)', () => {
    expect(NearbyQuerySchema.parse({ lat: '10.77', lng: '106.7' })).toEqual({ lat: 10.77, lng: 106.7, radiusM: 3000, limit: 20 });
    for (const bad of [
      { lat: 'abc', lng: '1' },
      { lat: '91', lng: '1' },
      { lat: '1', lng: '-181' },
      { lat: '1', lng: '1', radiusM: '0' },
      { lat: '1', lng: '1', radiusM: '50001' },
      { lng: '1' },
      { lat: '1', lng: '' },
      { lat: ' ', lng: '1' },
    ]) {
      expect(NearbyQuerySchema.safeParse(bad).success).toBe(false);
    }
  });

  it('merges the parallel ranges, drops corner false positives, sorts by distance and limits after merging', async () => {
    const points = [
      { id: 'a', lat: 10.7735, lng: 106.698 }, // ~110 m north
      { id: 'b', lat: 10.7725, lng: 106.7005 }, // ~270 m east
      { id: 'c', lat: 10.782, lng: 106.708 }, // ~1.5 km north-east: outside 1 km
      { id: 'd', lat: 10.7715, lng: 106.6975 }, // ~120 m south-west
    ];
    const hashed = points.map((p) => ({ ...p, geohash: geohashOf(p) }));
    const ranges: Array<[string, string]> = [];
    // An in-memory "collection": every range returns what its geohash interval holds; the same record
    // can come back from two ranges.
    const rangeQuery = async (start: string, end: string) => {
      ranges.push([start, end]);
      return hashed.filter((p) => p.geohash >= start && p.geohash <= end + '\uf8ff');
    };
    const found = await nearby(BEN_THANH, 1000, 2, rangeQuery, (p) => p);
    expect(ranges.length).toBeGreaterThanOrEqual(4);
    expect(found.map((f) => f.item.id)).toEqual(['a', 'd']);
    const all = await nearby(BEN_THANH, 1000, 10, rangeQuery, (p) => p);
    expect(all.map((f) => f.item.id)).toEqual(['a', 'd', 'b']);
    expect(all.every((f, i) => i === 0 || f.distanceM >= all[i - 1].distanceM)).toBe(true);
  });

  it('merges touching and overlapping geohash ranges into one query each, keeping separate ones apart', () => {
    const bounds: Array<[string, string]> = [
      ['w3gvk0', 'w3gvkh'],
      ['w3gv70', 'w3gv7h'],
      ['w3gvkh', 'w3gvk~'],
      ['w3gv7h', 'w3gv7~'],
      ['w3gvhh', 'w3gvh~'],
      ['w3gv5h', 'w3gv5~'],
    ];
    expect(mergeRanges(bounds)).toEqual([
      ['w3gv5h', 'w3gv5~'],
      ['w3gv70', 'w3gv7~'],
      ['w3gvhh', 'w3gvh~'],
      ['w3gvk0', 'w3gvk~'],
    ]);
    expect(
      mergeRanges([
        ['a', 'c'],
        ['b', 'z'],
        ['d', 'e'],
      ]),
    ).toEqual([['a', 'z']]);
    expect(mergeRanges([])).toEqual([]);
  });
});
