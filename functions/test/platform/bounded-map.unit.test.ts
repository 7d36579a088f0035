import { BoundedMap } from '../../src/platform/kits/memo/bounded-map';

describe('BoundedMap (what an instance remembers, bounded)', () => {
  it('keeps at most max entries: a new key past that drops the one set longest ago', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1).set('b', 2).set('c', 3).set('d', 4);
    expect([map.size, map.has('a'), map.get('b'), map.get('d')]).toEqual([3, false, 2, 4]);
  });

  it('setting a key again makes it the newest and never drops another', () => {
    const map = new BoundedMap<string, number>(3);
    map.set('a', 1).set('b', 2).set('c', 3);
    map.set('a', 10);
    expect(map.size).toBe(3);
    map.set('d', 4);
    expect([map.get('a'), map.has('b'), map.get('c'), map.get('d')]).toEqual([10, false, 3, 4]);
  });

  it('delete frees a place; a size that is not a positive integer is refused', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.delete('a')).toBe(true);
    map.set('c', 3);
    expect([map.get('b'), map.get('c'), map.size]).toEqual([2, 3, 2]);
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new BoundedMap(bad)).toThrow(/positive integer/);
  });
});
