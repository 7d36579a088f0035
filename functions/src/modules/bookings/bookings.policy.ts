import { percentOf, vnd } from '../../platform/kits/money/money';

// What cancelling costs: free until a number of hours before the start, then a share of the price (basis points),
// kept out of what was paid (never more). Only the consumer's own cancellation is charged; a partner's or an
// administrator's is free to the consumer, and so is a booking nothing was paid for (held, or paid at the venue).

export interface CancellationPolicy {
  /** Free when cancelled at least this many hours before the start. */
  freeUntilHours: number;
  /** The fee of a later cancellation, in basis points of the price (10000 = all of it). */
  lateFeeBp: number;
}

export const FREE_CANCELLATION: CancellationPolicy = { freeUntilHours: 0, lateFeeBp: 0 };

/**
 * The fee of cancelling a booking of `priceVnd` starting at `startsAt`, at `now`, by `by`, out of `paidVnd` (what was
 * paid through the app; a fee is never more than that), and the refund of the rest.
 */
export function cancellationFee(
  policy: CancellationPolicy,
  c: { priceVnd: number; paidVnd: number; startsAt: number; now: number; by: 'CONSUMER' | 'PARTNER' | 'ADMIN' },
): { feeVnd: number; refundVnd: number; free: boolean; freeUntil: number } {
  const freeUntil = c.startsAt - policy.freeUntilHours * 3_600_000;
  const free = c.by !== 'CONSUMER' || c.paidVnd === 0 || c.now <= freeUntil || policy.lateFeeBp === 0 || c.priceVnd === 0;
  const feeVnd = free ? 0 : Math.min(c.paidVnd, percentOf(vnd(c.priceVnd), policy.lateFeeBp, 'half-up'));
  return { feeVnd, refundVnd: c.paidVnd - feeVnd, free, freeUntil };
}
