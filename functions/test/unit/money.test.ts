import { addVnd, allocate, MAX_VND, percentOf, subtractVnd, vnd } from '../../src/platform/money/money';
import { VndSchema } from '../../src/platform/money/money.schemas';

describe('platform/money: integer VND', () => {
  it('accepts whole non-negative amounts only', () => {
    expect(vnd(0)).toBe(0);
    expect(vnd(125_000)).toBe(125_000);
    for (const bad of [1.5, -1, Number.NaN, Infinity, MAX_VND + 1, 2 ** 53]) expect(() => vnd(bad)).toThrow(/not an amount/);
  });

  it('validates request amounts: positive integers up to the ledger maximum', () => {
    expect(VndSchema.parse(50_000)).toBe(50_000);
    for (const bad of [0, -5, 10.5, '1000', MAX_VND + 1]) expect(VndSchema.safeParse(bad).success).toBe(false);
  });

  it('adds and subtracts without going negative', () => {
    expect(addVnd(vnd(1), vnd(2), vnd(3))).toBe(6);
    expect(subtractVnd(vnd(10), vnd(4))).toBe(6);
    expect(() => subtractVnd(vnd(4), vnd(10))).toThrow();
  });

  it('takes percentages in basis points with explicit rounding, no float', () => {
    expect(percentOf(vnd(100_000), 1250)).toBe(12_500);
    expect(percentOf(vnd(99_999), 1250)).toBe(12_500); // 12,499.875 → half-up
    expect(percentOf(vnd(99_999), 1250, 'down')).toBe(12_499);
    expect(percentOf(vnd(10_001), 5000)).toBe(5_001); // 5,000.5 → half-up
    expect(percentOf(vnd(10_001), 5000, 'down')).toBe(5_000);
    expect(percentOf(vnd(1), 1, 'up')).toBe(1);
    expect(percentOf(vnd(MAX_VND), 10_000)).toBe(MAX_VND);
    expect(() => percentOf(vnd(1), 10_001)).toThrow();
  });

  it('allocates exactly: the parts always sum to the amount', () => {
    expect(allocate(vnd(100), [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(vnd(100_000), [80, 20])).toEqual([80_000, 20_000]);
    expect(allocate(vnd(5), [0, 1])).toEqual([0, 5]);
    for (const [amount, weights] of [[1_000_003, [3, 7, 11]], [7, [1, 1, 1, 1]], [999_999_999, [1, 2, 3, 4, 5]]] as const) {
      const parts = allocate(vnd(amount), weights);
      expect(parts.reduce((s, p) => s + p, 0)).toBe(amount);
      expect(parts.every(Number.isInteger)).toBe(true);
    }
    expect(() => allocate(vnd(1), [0, 0])).toThrow();
  });
});
