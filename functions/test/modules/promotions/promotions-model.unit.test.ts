import { vnd } from '../../../src/platform/kits/money/money';
import { applyDiscount, discountFor, discountOf, normalizeCode, shardSizes } from '../../../src/modules/promotions/promotions.model';

describe('voucher arithmetic', () => {
  it('percent discounts round down to whole đồng and respect the cap and the amount', () => {
    expect(discountFor({ kind: 'PERCENT', value: 15, maxDiscount: null }, 99_999)).toBe(14_999);
    expect(discountFor({ kind: 'PERCENT', value: 20, maxDiscount: 30_000 }, 500_000)).toBe(30_000);
    expect(discountFor({ kind: 'PERCENT', value: 100, maxDiscount: null }, 42_000)).toBe(42_000);
    expect(discountFor({ kind: 'FIXED', value: 50_000, maxDiscount: null }, 30_000)).toBe(30_000);
    expect(discountFor({ kind: 'FIXED', value: 20_000, maxDiscount: 10_000 }, 30_000)).toBe(10_000);
  });

  it('percent vouchers compute in basis points (the API keeps whole percents), rounding down', () => {
    expect(discountOf({ kind: 'PERCENT', value: 15, maxDiscount: null })).toEqual({ kind: 'PERCENT', basisPoints: 1_500, cap: null });
    expect(discountOf({ kind: 'FIXED', value: 20_000, maxDiscount: 10_000 })).toEqual({ kind: 'FIXED', amount: 20_000, cap: 10_000 });
    expect(applyDiscount({ kind: 'PERCENT', basisPoints: 1_250, cap: null }, vnd(99_999))).toBe(12_499); // 12,499.875
    expect(applyDiscount({ kind: 'PERCENT', basisPoints: 1_250, cap: vnd(5_000) }, vnd(99_999))).toBe(5_000);
    expect(applyDiscount({ kind: 'FIXED', amount: vnd(50_000), cap: vnd(80_000) }, vnd(30_000))).toBe(30_000);
    expect(discountFor({ kind: 'PERCENT', value: 10, maxDiscount: 0 }, 50_000)).toBe(0);
    for (const bad of [101, 12.5, -1]) expect(() => discountFor({ kind: 'PERCENT', value: bad, maxDiscount: null }, 50_000)).toThrow();
    expect(() => discountFor({ kind: 'PERCENT', value: 10, maxDiscount: null }, 10.5)).toThrow();
  });

  it('splits uses over shards without losing one', () => {
    expect(shardSizes(10, 10)).toEqual(Array(10).fill(1));
    expect(shardSizes(47, 20).reduce((a, b) => a + b)).toBe(47);
    expect(shardSizes(47, 20).slice(0, 8)).toEqual([...Array(7).fill(3), 2]);
    expect(shardSizes(3, 3)).toEqual([1, 1, 1]);
  });

  it('codes ignore case and spaces', () => {
    expect(normalizeCode(' tet 2027 ')).toBe('TET2027');
  });
});
