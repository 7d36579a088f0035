import { AppError, ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { cartContext, type CartContext, type CartDeps } from './cart.context';
import { createCheckout } from './cart.checkout';
import { cartIdOf, lineIdentity, normalizeOptions, pricingOf, type CartLineRecord, type CartRecord } from './cart.model';
import { assess, priceLines, sellerGone, type AddressInput, type Problem } from './cart.pricing';
import { cartRepo } from './cart.repo';
import type { LineOption, SellerRef } from './cart.ports';
import { checkOrderLines, mergeReordered, noSuchOrder, sellerGoneForReorder, type Skipped } from './cart.reorder';
import { cartView, quoteView } from './cart.views';

// The consumer's carts: one per seller, lines merged when identical, limits checked in the transaction that reads the
// consumer's carts (so parallel adds cannot pass them), every read priced by the seller now.

export interface LineInput {
  itemKey: string;
  quantity: number;
  options?: LineOption[];
  note?: string;
}

/** A seller's 400 about a line (`lines.0.options.1`) names the field of this request's body (`body.options.1`). */
function asBodyError(err: unknown): never {
  if (err instanceof ValidationError && Array.isArray(err.details)) {
    const details = (err.details as Array<{ field: string; message: string; code?: string }>).map((d) => ({
      ...d,
      field: `body.${d.field.replace(/^(body\.)?lines(\[\d+\]|\.\d+)\.?/, '')}`.replace(/\.$/, ''),
    }));
    throw new ValidationError(`Validation failed: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, details);
  }
  throw err;
}

const findLine = (carts: CartRecord[], lineId: string) => {
  for (const cart of carts) {
    const index = cart.lines.findIndex((l) => l.id === lineId);
    if (index >= 0) return { cart, index };
  }
  throw new NotFoundError('No such line in your carts');
};

export function createCartService(ctx: CartContext) {
  const { settings, sellers, now } = ctx;
  const cartsOf = (userId: string, tx?: FirebaseFirestore.Transaction) => cartRepo.ofUser(userId, settings.maxCarts + 1, tx);

  async function view(cart: CartRecord) {
    const seller = await sellers.get(cart.seller);
    if (!seller)
      return cartView(
        cart,
        undefined,
        cart.lines.map((line) => ({ line, priced: null, problem: null })),
        [problemOfGone(cart.seller)],
      );
    const priced = await priceLines(sellers, cart.seller, cart.lines);
    return cartView(cart, seller, priced.lines, priced.problems);
  }
  const emptyView = (userId: string, seller: SellerRef) => {
    const t = now();
    return view({ id: cartIdOf(userId, seller), userId, seller, lines: [], revision: 0, createdAt: t, updatedAt: t });
  };

  /** The line as the seller reads it now (unknown item or option: the seller's 4xx, fields named in this body). */
  async function checkLine(seller: SellerRef, line: Pick<CartLineRecord, 'itemKey' | 'quantity' | 'options' | 'note'>): Promise<void> {
    if (!(await sellers.get(seller))) throw sellerGone(seller);
    await sellers
      .quote(seller, [
        {
          itemKey: line.itemKey,
          quantity: line.quantity,
          ...(line.options.length ? { options: line.options } : {}),
          ...(line.note ? { note: line.note } : {}),
        },
      ])
      .catch(asBodyError);
  }

  const quantityLimit = () =>
    new UnprocessableError(`A line holds at most ${settings.maxQuantity} units`, { maxQuantity: settings.maxQuantity }).withCode('CART_QUANTITY_LIMIT');

  /** Writes the cart after a change: identical lines merged (within the quantity limit), gone when it has no line left. */
  function store(tx: FirebaseFirestore.Transaction, cart: CartRecord, lines: CartLineRecord[], at: number): CartRecord {
    const merged: CartLineRecord[] = [];
    for (const line of lines) {
      const same = merged.find((m) => lineIdentity(m) === lineIdentity(line));
      if (!same) merged.push(line);
      else if (same.quantity + line.quantity > settings.maxQuantity) throw quantityLimit();
      else same.quantity += line.quantity;
    }
    const next = { ...cart, lines: merged, revision: cart.revision + 1, updatedAt: at };
    if (merged.length === 0) cartRepo.remove(tx, cart.id);
    else cartRepo.put(tx, next, settings.ttlDays);
    return next;
  }

  async function addItem(userId: string, input: LineInput & { seller: SellerRef }) {
    const line: CartLineRecord = {
      id: cartRepo.newLineId(),
      itemKey: input.itemKey,
      quantity: input.quantity,
      options: normalizeOptions(input.options),
      note: input.note ?? null,
      addedAt: now(),
    };
    await checkLine(input.seller, line);
    const cart = await inTransaction(async (tx) => {
      const carts = await cartsOf(userId, tx);
      const id = cartIdOf(userId, input.seller);
      const current = carts.find((c) => c.id === id);
      if (!current && carts.length >= settings.maxCarts)
        throw new ConflictError(`You have ${settings.maxCarts} carts already: empty one first`, { maxCarts: settings.maxCarts }).withCode('CART_LIMIT');
      const base = current ?? { id, userId, seller: input.seller, lines: [], revision: 0, createdAt: line.addedAt, updatedAt: line.addedAt };
      const joins = base.lines.some((l) => lineIdentity(l) === lineIdentity(line));
      if (!joins && base.lines.length >= settings.maxLines)
        throw new ConflictError(`A cart holds at most ${settings.maxLines} lines`, { maxLines: settings.maxLines }).withCode('CART_LINES_LIMIT');
      return store(tx, base, [...base.lines.map((l) => ({ ...l })), line], line.addedAt);
    });
    return view(cart);
  }

  async function updateItem(userId: string, lineId: string, patch: { quantity?: number; options?: LineOption[]; note?: string | null }) {
    const apply = (line: CartLineRecord): CartLineRecord => ({
      ...line,
      ...(patch.quantity !== undefined ? { quantity: patch.quantity } : {}),
      ...(patch.options !== undefined ? { options: normalizeOptions(patch.options) } : {}),
      ...(patch.note !== undefined ? { note: patch.note } : {}),
    });
    const { cart, index } = findLine(await cartsOf(userId), lineId);
    await checkLine(cart.seller, apply(cart.lines[index]));
    const next = await inTransaction(async (tx) => {
      const found = findLine(await cartsOf(userId, tx), lineId);
      return store(
        tx,
        found.cart,
        found.cart.lines.map((l, i) => (i === found.index ? apply(l) : { ...l })),
        now(),
      );
    });
    return view(next);
  }

  async function removeItem(userId: string, lineId: string) {
    const next = await inTransaction(async (tx) => {
      const found = findLine(await cartsOf(userId, tx), lineId);
      return store(
        tx,
        found.cart,
        found.cart.lines.filter((_, i) => i !== found.index),
        now(),
      );
    });
    return view(next);
  }

  async function clear(userId: string, seller?: SellerRef) {
    const removed = await inTransaction(async (tx) => {
      const carts = (await cartsOf(userId, tx)).filter((c) => !seller || c.id === cartIdOf(userId, seller));
      for (const cart of carts) cartRepo.remove(tx, cart.id);
      return carts.length;
    });
    return { deleted: true as const, carts: removed };
  }

  async function list(userId: string, seller?: SellerRef) {
    if (seller) {
      const cart = await cartRepo.get(cartIdOf(userId, seller));
      return { items: [cart ? await view(cart) : await emptyView(userId, seller)] };
    }
    return { items: await Promise.all((await cartsOf(userId)).map(view)) };
  }

  /**
   * One of the caller's orders back in the cart at its store (cart.reorder): lines the store refuses now are skipped
   * and listed, the rest merged in the transaction that reads the caller's carts (limits as for an added item).
   */
  async function reorder(userId: string, orderId: string): Promise<Awaited<ReturnType<typeof view>> & { skipped: Skipped[] }> {
    const order = await ctx.orders.linesFor(orderId, userId);
    if (!order) throw noSuchOrder();
    if (!(await sellers.get(order.seller))) throw sellerGoneForReorder(order.seller);
    const at = now();
    const checked = await checkOrderLines(sellers, order.seller, order.lines, cartRepo.newLineId, at);
    const { cart, skipped } = await inTransaction(async (tx) => {
      const carts = await cartsOf(userId, tx);
      const id = cartIdOf(userId, order.seller);
      const current = carts.find((c) => c.id === id);
      const merged = mergeReordered(current?.lines ?? [], checked.accepted, settings);
      if (!merged.changed) return { cart: current, skipped: merged.skipped };
      if (!current && carts.length >= settings.maxCarts)
        throw new ConflictError(`You have ${settings.maxCarts} carts already: empty one first`, { maxCarts: settings.maxCarts }).withCode('CART_LIMIT');
      const base = current ?? { id, userId, seller: order.seller, lines: [], revision: 0, createdAt: at, updatedAt: at };
      return { cart: store(tx, base, merged.lines, now()), skipped: merged.skipped };
    });
    const shown = cart ? await view(cart) : await emptyView(userId, order.seller);
    return { ...shown, skipped: [...checked.skipped, ...skipped] };
  }

  /** What checking out would charge now, and what stands in the way; nothing is written or reserved. */
  async function quote(userId: string, input: { seller: SellerRef; address?: AddressInput; voucherCode?: string; prescriptionMediaId?: string }) {
    const cart = await cartRepo.get(cartIdOf(userId, input.seller));
    const a = await assess(ctx, userId, { ...input, cart });
    let voucher: { code: string; promotionId: string; title: string; discountVnd: number } | null = null;
    const extra: Problem[] = [];
    if (input.voucherCode !== undefined) {
      try {
        const v = await ctx.promotions.preview({
          userId,
          code: input.voucherCode,
          vertical: 'ORDER',
          partnerId: a.seller.partnerId,
          amount: Math.max(1, a.pricing.itemsVnd),
        });
        voucher = { code: v.code, promotionId: v.promotionId, title: v.title, discountVnd: v.discount };
      } catch (err) {
        if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
        extra.push({ status: err.statusCode, code: err.code, message: err.message, lineId: null, details: err.details ?? null });
      }
    }
    const { totalVnd: _undiscounted, ...parts } = a.pricing;
    return quoteView(a, pricingOf({ ...parts, discountVnd: voucher?.discountVnd ?? 0 }), voucher, extra);
  }

  return { list, addItem, updateItem, removeItem, clear, quote, reorder };
}

const problemOfGone = (ref: SellerRef): Problem => {
  const err = sellerGone(ref);
  return { status: err.statusCode, code: err.code, message: err.message, lineId: null, details: err.details ?? null };
};

export type CartService = ReturnType<typeof createCartService>;

/** The cart's services over its ports (cart.wiring binds the faces; tests bind doubles). */
export function createCart(deps: CartDeps) {
  const ctx = cartContext(deps);
  return { cart: createCartService(ctx), checkout: createCheckout(ctx) };
}
export type CartServices = ReturnType<typeof createCart>;
