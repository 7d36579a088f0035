import { z } from 'zod';
import { MAX_VND, type Vnd } from './money';

// Apart from money.ts, whose arithmetic the ledger model (loaded at cold start) uses without zod's classic API.
/** Request bodies: a positive integer amount in VND (400 otherwise, through the route's validation). */
export const VndSchema = z
  .number()
  .int({ message: 'must be a whole number of VND' })
  .min(1)
  .max(MAX_VND)
  .transform((n) => n as Vnd)
  .meta({ id: 'Vnd', description: 'An amount in Vietnamese đồng: a positive integer (no decimals).' });

/** A price, fee or delta that may be free: a whole number of VND from 0 (400 for a fraction or a negative). */
export const PriceSchema = z
  .number()
  .int({ message: 'must be a whole number of VND' })
  .min(0)
  .max(MAX_VND)
  .transform((n) => n as Vnd)
  .meta({ id: 'Price', description: 'A price in Vietnamese đồng: an integer from 0 (free) upward, no decimals.' });
