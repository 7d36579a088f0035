import { z } from 'zod';
import { MAX_VND, type Vnd } from './money';

// Apart from money.ts, whose arithmetic the ledger model (loaded at cold start) uses without zod's classic API.

/**
 * A whole number of VND within the given bounds (400 otherwise): a price list's own range (a parking rate up to
 * 10 million, a litre of fuel from 1,000). The bounds show in OpenAPI as minimum and maximum.
 */
export function priceRange(min: number, max: number) {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max > MAX_VND || min > max) throw new Error(`not a range of VND: ${min}..${max}`);
  return z
    .number()
    .int({ message: 'must be a whole number of VND' })
    .min(min)
    .max(max)
    .transform((n) => n as Vnd);
}

/** Request bodies: a positive integer amount in VND (400 otherwise, through the route's validation). */
export const VndSchema = priceRange(1, MAX_VND).meta({ id: 'Vnd', description: 'An amount in Vietnamese đồng: a positive integer (no decimals).' });

/** A price, fee or delta that may be free: a whole number of VND from 0 (400 for a fraction or a negative). */
export const PriceSchema = priceRange(0, MAX_VND).meta({
  id: 'Price',
  description: 'A price in Vietnamese đồng: an integer from 0 (free) upward, no decimals.',
});
