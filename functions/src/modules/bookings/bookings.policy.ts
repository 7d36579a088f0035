import { percentOf, vnd } from '../../platform/kits/money/money';

// What cancelling costs: free until a number of hours before the start, then a share of the price (basis points).
// Only the consumer's own cancellation is charged; a partner's or an administrator's is free to the consumer, and so is
// anything cancelled before it was paid (HELD).

export interface CancellationPolicy {
  /** Free when cancelled at least this many hours before the start. */
  freeUntilHours: number;
  /** The fee of a later cancellation, in basis points of the price (10000 = all of it). */
  lateFeeBp: number;
}

export const FREE_CANCELLATION: CancellationPolicy = { freeUntilHours: 0, lateFeeBp: 0 };

/** The fee of cancelling a booking of `priceVnd` starting at `startsAt`, at `now`, by `by`. */
export function cancellationFee(
  policy: CancellationPolicy,
  c: { priceVnd: number; startsAt: number; now: number; by: 'CONSUMER' | 'PARTNER' | 'ADMIN'; paid: boolean },
): { feeVnd: number; free: boolean; freeUntil: number } {
  const freeUntil = c.startsAt - policy.freeUntilHours * 3_600_000;
  const free = c.by !== 'CONSUMER' || !c.paid || c.now <= freeUntil || policy.lateFeeBp === 0 || c.priceVnd === 0;
  return { feeVnd: free ? 0 : percentOf(vnd(c.priceVnd), policy.lateFeeBp, 'half-up'), free, freeUntil };
}
