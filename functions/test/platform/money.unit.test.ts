import {
  addVnd,
  allocate,
  clampVnd,
  exactVnd,
  MAX_VND,
  maxExact,
  percentOf,
  percentToBp,
  rateTimes,
  roundExact,
  roundToStep,
  subtractVnd,
  sumExact,
  timesBp,
  vnd,
} from '../../src/platform/kits/money/money';
import { PriceSchema, priceRange, VndSchema } from '../../src/platform/kits/money/money.schemas';

describe('platform/kits/money: integer VND', () => {
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
    for (const [amount, weights] of [
      [1_000_003, [3, 7, 11]],
      [7, [1, 1, 1, 1]],
      [999_999_999, [1, 2, 3, 4, 5]],
    ] as const) {
      const parts = allocate(vnd(amount), weights);
      expect(parts.reduce((s, p) => s + p, 0)).toBe(amount);
      expect(parts.every(Number.isInteger)).toBe(true);
    }
    expect(() => allocate(vnd(1), [0, 0])).toThrow();
  });

  it('prices: 0 allowed, a range of its own when given, never a fraction', () => {
    expect(PriceSchema.parse(0)).toBe(0);
    for (const bad of [-1, 0.5, MAX_VND + 1]) expect(PriceSchema.safeParse(bad).success).toBe(false);
    const litre = priceRange(1_000, 200_000);
    expect(litre.parse(1_000)).toBe(1_000);
    for (const bad of [999, 200_001, 1_500.5]) expect(litre.safeParse(bad).success).toBe(false);
    expect(() => priceRange(10, 5)).toThrow();
    expect(() => priceRange(-1, 5)).toThrow();
  });

  it('percents become basis points; caps and floors clamp', () => {
    expect(percentToBp(15)).toBe(1_500);
    for (const bad of [-1, 101, 12.5]) expect(() => percentToBp(bad)).toThrow();
    expect(clampVnd(vnd(50_000), { max: vnd(30_000) })).toBe(30_000);
    expect(clampVnd(vnd(5_000), { min: vnd(13_000), max: vnd(30_000) })).toBe(13_000);
    expect(clampVnd(vnd(20_000), { min: vnd(13_000), max: vnd(30_000) })).toBe(20_000);
    expect(clampVnd(vnd(20_000), {})).toBe(20_000);
    expect(() => clampVnd(vnd(1), { min: vnd(5), max: vnd(4) })).toThrow();
  });

  it('rate × quantity sums exactly and rounds once, to a step, the stated way', () => {
    // 4,300 VND/km × 2,345 m = 10,083.5; 300 VND/min × 59 s = 295
    const trip = sumExact(exactVnd(vnd(10_000)), rateTimes(vnd(4_300), 2_345, 1_000), rateTimes(vnd(300), 59, 60));
    expect(roundExact(trip, 'down')).toBe(20_378);
    expect(roundExact(trip, 'half-up')).toBe(20_379); // 20,378.5
    expect(roundExact(trip, 'up', 1_000)).toBe(21_000);
    expect(roundExact(trip, 'half-up', 1_000)).toBe(20_000);
    expect(roundExact(timesBp(trip, 15_000), 'up', 1_000)).toBe(31_000); // 30,567.75
    expect(roundExact(maxExact(trip, exactVnd(vnd(25_000))), 'up')).toBe(25_000);
    expect(roundExact(maxExact(trip, exactVnd(vnd(13_000))), 'up')).toBe(20_379);
    // what floats get wrong: 0.1 + 0.2 of a đồng per unit is 0.3 exactly here
    expect(roundExact(sumExact(rateTimes(vnd(1), 1, 10), rateTimes(vnd(2), 1, 10)), 'up', 1)).toBe(1);
    expect(roundExact(timesBp(sumExact(rateTimes(vnd(1), 1, 10), rateTimes(vnd(2), 1, 10)), 100_000), 'up')).toBe(3);
    expect(roundToStep(vnd(36_000), 1_000, 'up')).toBe(36_000);
    expect(roundToStep(vnd(36_001), 1_000, 'up')).toBe(37_000);
    expect(roundToStep(vnd(36_499), 1_000, 'half-up')).toBe(36_000);
    expect(roundToStep(vnd(36_500), 1_000, 'half-up')).toBe(37_000);
    expect(roundToStep(vnd(36_999), 1_000, 'down')).toBe(36_000);
    for (const bad of [
      () => rateTimes(vnd(1), 1.5, 1),
      () => rateTimes(vnd(1), -1, 1),
      () => rateTimes(vnd(1), 1, 0),
      () => timesBp(trip, -1),
      () => roundToStep(vnd(1), 0, 'up'),
    ])
      expect(bad).toThrow();
  });
});
