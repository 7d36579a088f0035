// Money is an integer number of Vietnamese đồng (VND has no minor unit in use): never a float, never a
// string of digits with a decimal point. A branded type keeps plain numbers (counts, percentages) from
// being passed where an amount is meant; every amount enters through `vnd()` or the zod schema.
export type Vnd = number & { readonly __brand: 'VND' };

/** The largest amount the ledger accepts: far above any real payment, far below 2^53 (exact integer math). */
export const MAX_VND = 1_000_000_000_000; // 1,000 billion đồng

export class MoneyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyError';
  }
}

/** An amount from a trusted integer (0..MAX_VND). Throws for a fraction, a negative, NaN or an overflow. */
export function vnd(amount: number): Vnd {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > MAX_VND) throw new MoneyError(`not an amount of VND: ${amount}`);
  return amount as Vnd;
}

export function addVnd(...amounts: Vnd[]): Vnd {
  return vnd(amounts.reduce((sum, a) => sum + a, 0));
}

/** a − b; never negative (a balance that cannot go below zero is checked before, with a 409). */
export function subtractVnd(a: Vnd, b: Vnd): Vnd {
  if (b > a) throw new MoneyError(`cannot subtract ${b} from ${a}`);
  return (a - b) as Vnd;
}

export type Rounding = 'half-up' | 'down' | 'up';

/**
 * A share of an amount given in basis points (1 bp = 0.01 %), e.g. a 12.5 % commission = 1250 bp, rounded
 * to whole đồng (half-up unless said otherwise). Integer arithmetic only: no float ever touches money.
 */
export function percentOf(amount: Vnd, basisPoints: number, rounding: Rounding = 'half-up'): Vnd {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) throw new MoneyError(`basis points must be 0..10000: ${basisPoints}`);
  const product = BigInt(amount) * BigInt(basisPoints);
  const whole = product / 10_000n;
  const rest = product % 10_000n;
  const up = rounding === 'up' ? rest > 0n : rounding === 'half-up' ? rest * 2n >= 10_000n : false;
  return vnd(Number(whole + (up ? 1n : 0n)));
}

/**
 * Splits an amount into parts proportional to `weights`, each a whole đồng, summing exactly to the amount:
 * the đồng left over by rounding down go one each to the largest remainders (ties: earlier parts first).
 */
export function allocate(amount: Vnd, weights: readonly number[]): Vnd[] {
  if (weights.length === 0 || weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new MoneyError('weights must be non-negative integers');
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) throw new MoneyError('weights must not all be zero');
  const exact = weights.map((w) => BigInt(amount) * BigInt(w));
  const parts = exact.map((e) => e / BigInt(total));
  let left = BigInt(amount) - parts.reduce((s, p) => s + p, 0n);
  const order = exact.map((e, i) => ({ i, rest: e % BigInt(total) })).sort((a, b) => (b.rest === a.rest ? a.i - b.i : b.rest > a.rest ? 1 : -1));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map((p) => vnd(Number(p)));
}

/** A share given in whole percents (an API's field) as basis points: 15 % = 1500 bp. */
export function percentToBp(percent: number): number {
  if (!Number.isSafeInteger(percent) || percent < 0 || percent > 100) throw new MoneyError(`a percent must be a whole number 0..100: ${percent}`);
  return percent * 100;
}

/** The amount within `min` and `max` (either may be absent): a cap, a floor, or both. */
export function clampVnd(amount: Vnd, bounds: { min?: Vnd; max?: Vnd }): Vnd {
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) throw new MoneyError(`empty range ${bounds.min}..${bounds.max}`);
  if (bounds.max !== undefined && amount > bounds.max) return bounds.max;
  if (bounds.min !== undefined && amount < bounds.min) return bounds.min;
  return amount;
}

/**
 * An amount not rounded yet: an exact fraction of đồng (num / den, integers, den > 0). A tariff adds rate × quantity
 * terms and scales them (a surge) exactly, then rounds once (`roundExact`): the parts are never rounded on their own.
 */
export interface ExactVnd {
  readonly num: bigint;
  readonly den: bigint;
}

const count = (n: number, what: string, min = 0): bigint => {
  if (!Number.isSafeInteger(n) || n < min) throw new MoneyError(`${what} must be an integer ≥ ${min}: ${n}`);
  return BigInt(n);
};

export const exactVnd = (amount: Vnd): ExactVnd => ({ num: BigInt(vnd(amount)), den: 1n });

/** `rate` đồng per `per` units, times `quantity` units, exactly: 4,300 VND per 1,000 m × 2,345 m = 10,083.5 VND. */
export function rateTimes(rate: Vnd, quantity: number, per = 1): ExactVnd {
  return { num: BigInt(vnd(rate)) * count(quantity, 'a quantity'), den: count(per, 'a unit', 1) };
}

export function sumExact(...terms: ExactVnd[]): ExactVnd {
  return terms.reduce((a, b) => ({ num: a.num * b.den + b.num * a.den, den: a.den * b.den }), { num: 0n, den: 1n });
}

/** The larger of two exact amounts (a tariff's minimum). */
export function maxExact(a: ExactVnd, b: ExactVnd): ExactVnd {
  return a.num * b.den >= b.num * a.den ? a : b;
}

/** × basis points, any non-negative integer (a surge of 1.5× = 15,000 bp), exactly. */
export function timesBp(x: ExactVnd, basisPoints: number): ExactVnd {
  return { num: x.num * count(basisPoints, 'basis points'), den: x.den * 10_000n };
}

/** Rounds to a whole multiple of `step` đồng (1 unless said: fares go by 1,000) the stated way. */
export function roundExact(x: ExactVnd, rounding: Rounding, step = 1): Vnd {
  const unit = x.den * count(step, 'a step', 1);
  const whole = x.num / unit;
  const rest = x.num % unit;
  const up = rounding === 'up' ? rest > 0n : rounding === 'half-up' ? rest * 2n >= unit : false;
  return vnd(Number((whole + (up ? 1n : 0n)) * (unit / x.den)));
}

/** An amount rounded to a whole multiple of `step` (e.g. 1,000 VND) the stated way. */
export function roundToStep(amount: Vnd, step: number, rounding: Rounding): Vnd {
  return roundExact(exactVnd(amount), rounding, step);
}
