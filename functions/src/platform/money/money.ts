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
