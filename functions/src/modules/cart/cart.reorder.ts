import { AppError, ConflictError, NotFoundError, ValidationError } from '../../platform/core/errors/app-error';
import type { CartSettings } from './cart.config';
import { lineIdentity, normalizeOptions, type CartLineRecord } from './cart.model';
import type { OrderLineRequest, SellerRef, SellersPort } from './cart.ports';

// Reorder: the lines of a past order put back in the cart at its store, each checked by the store now (the cart keeps
// no price: every read prices it anew). Setting, never adding: a line the cart holds already keeps the larger of the
// two quantities, so reordering twice leaves the cart as reordering once; the cart's other lines stay.

export const SKIP_REASONS = ['ITEM_GONE', 'OPTIONS_CHANGED', 'ITEM_UNAVAILABLE', 'OUT_OF_STOCK', 'CART_LINES_LIMIT'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
export interface Skipped {
  itemKey: string;
  name: string;
  reason: SkipReason;
}

export const noSuchOrder = () => new NotFoundError('No such order');
export const sellerGoneForReorder = (ref: SellerRef) =>
  new ConflictError('The store of that order is no longer on the platform', { seller: ref }).withCode('CART_SELLER_GONE');

/** Why the store refuses a line now; anything but a refusal (a 5xx) is thrown on. */
function reasonOf(err: unknown): SkipReason {
  if (err instanceof ValidationError) {
    const fields = Array.isArray(err.details) ? (err.details as Array<{ field: string }>).map((d) => d.field) : [];
    return fields.some((f) => /itemKey$/.test(f)) ? 'ITEM_GONE' : 'OPTIONS_CHANGED';
  }
  if (err instanceof AppError && (err.code === 'ITEM_UNAVAILABLE' || err.code === 'OUT_OF_STOCK')) return err.code;
  if (err instanceof AppError && err.statusCode < 500) return 'ITEM_GONE';
  throw err;
}

/** Each of the order's lines checked alone by the store now: the ones it takes (as cart lines) and the ones it refuses. */
export async function checkOrderLines(
  sellers: Pick<SellersPort, 'quote'>,
  seller: SellerRef,
  lines: OrderLineRequest[],
  lineId: () => string,
  at: number,
): Promise<{ accepted: Array<{ line: CartLineRecord; name: string }>; skipped: Skipped[] }> {
  const checked = await Promise.all(
    lines.map(async ({ name, ...request }) => {
      try {
        await sellers.quote(seller, [request]);
        const line: CartLineRecord = {
          id: lineId(),
          itemKey: request.itemKey,
          quantity: request.quantity,
          options: normalizeOptions(request.options),
          note: request.note ?? null,
          addedAt: at,
        };
        return { line, name };
      } catch (err) {
        return { skip: { itemKey: request.itemKey, name, reason: reasonOf(err) } };
      }
    }),
  );
  return {
    accepted: checked.flatMap((c) => ('line' in c && c.line ? [{ line: c.line, name: c.name }] : [])),
    skipped: checked.flatMap((c) => ('skip' in c && c.skip ? [c.skip] : [])),
  };
}

/**
 * The cart's lines with the order's merged in: an identical line takes the larger quantity (at most the limit), a new
 * one joins while the cart has room. `changed` is false when the cart already held all of it.
 */
export function mergeReordered(
  current: CartLineRecord[],
  accepted: Array<{ line: CartLineRecord; name: string }>,
  settings: Pick<CartSettings, 'maxLines' | 'maxQuantity'>,
): { lines: CartLineRecord[]; skipped: Skipped[]; changed: boolean } {
  const lines = current.map((l) => ({ ...l }));
  const skipped: Skipped[] = [];
  let changed = false;
  for (const { line, name } of accepted) {
    const same = lines.find((l) => lineIdentity(l) === lineIdentity(line));
    const quantity = Math.min(line.quantity, settings.maxQuantity);
    if (same) {
      if (quantity > same.quantity) [same.quantity, changed] = [quantity, true];
    } else if (lines.length >= settings.maxLines) skipped.push({ itemKey: line.itemKey, name, reason: 'CART_LINES_LIMIT' });
    else {
      lines.push({ ...line, quantity });
      changed = true;
    }
  }
  return { lines, skipped, changed };
}
