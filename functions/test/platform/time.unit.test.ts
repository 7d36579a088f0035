import { iso, isoOrNull } from '../../src/platform/kits/time/time';

describe('platform/kits/time', () => {
  it('answers ISO strings for epoch ms and Timestamps alike', () => {
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(iso(1_795_000_000_123)).toBe('2026-11-18T11:06:40.123Z');
    expect(iso({ toMillis: () => 1_795_000_000_123 })).toBe('2026-11-18T11:06:40.123Z');
  });

  it('isoOrNull keeps absence as null', () => {
    expect([isoOrNull(null), isoOrNull(undefined), isoOrNull(0)]).toEqual([null, null, null]);
    expect(isoOrNull(1000)).toBe('1970-01-01T00:00:01.000Z');
  });
});
