import type { Transaction } from 'firebase-admin/firestore';
import { settled } from '../../platform/core/errors/settled';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { changed, type CheckoutInput } from './cart.checkout.parts';
import { oneAtATime } from '../../platform/kits/firestore/one-at-a-time';
import { sellerQueueKey, storeBusy } from './cart.checkout.queue';
import type { CartContext } from './cart.context';
import { cartIdOf, lineRequestOf, type CartRecord, type CheckoutRecord } from './cart.model';
import type { OrderDraft, PricedLine } from './cart.ports';
import type { AppError } from '../../platform/core/errors/app-error';
import { assessLines, isRefusal, refusalOf, type Assessment, type UnpricedAssessment } from './cart.pricing';
import { cartRepo } from './cart.repo';

// The placing transaction both ways of checking out end in (cart.checkout.once: all at once, the lines priced here;
// cart.checkout: after the voucher and the payment were taken for the items as priced before). One store's placings run
// one at a time in this instance (cart.checkout.queue). Three round trips (reads together, platform/core/firebase):
// one getAll of the attempt record, whether the order exists, the cart, the store, and the store's stock for the lines
// of the cart read before the transaction (the cart read here must be that one); then the placing checks' queries (the
// consumer's unconfirmed orders) beside the caller's own reads once the lines are priced (a wallet hold of the total);
// then the commit. The store's stock is held from its read to the commit (a placing refused, or a replay, holds it
// until its rollback). An order placed already (an earlier request with the key) is answered as a replay, whatever
// would refuse.

/** What a placing knows when it writes: the attempt record as read, the checkout assessed with the stock taken (priced now), the caller's read. */
export interface PlacingStep<S> {
  record: CheckoutRecord | undefined;
  a: Assessment;
  lines: PricedLine[];
  /** What `alongside` read; null without one. */
  side: S | null;
}

export interface CartPlacing<S, A = never> {
  orderId: string;
  userId: string;
  input: CheckoutInput;
  /** What was assessed before the transaction; its cart's lines are the ones taken (a cart changed since: CART_CHANGED). */
  assessed: UnpricedAssessment & { cart: CartRecord };
  /**
   * `here`: the lines are priced in the transaction, and whatever the assessment then finds is refused as
   * `LinesRefused`. `{ paidFor }`: the items' total the caller priced and took payment for; the stock's prices must come
   * to it (CART_CHANGED otherwise).
   */
  pricing: 'here' | { paidFor: number };
  /** The caller's own read once the lines are priced (a wallet hold of the total); its refusal counts after every other. */
  alongside?: (tx: Transaction, a: Assessment) => Promise<S>;
  /** Refuses the attempt record as read, after the replay check and before the placing checks. */
  admit(record: CheckoutRecord | undefined): void;
  /** Writes the caller's own (a hold) and answers the order's draft and the attempt record to store. */
  write(step: PlacingStep<S>): { draft: OrderDraft; record: CheckoutRecord };
  /**
   * The request's answer made from what this transaction writes, stored in it (the route's `answerInCommit`);
   * undefined where it cannot be (the order needs a read to show). Returned as the placing's `answer`.
   */
  answer?(tx: Transaction, written: { order: unknown; side: S | null }): A | undefined;
}

export type CartPlaced<S, A = never> =
  { outcome: 'placed'; record: CheckoutRecord; order: unknown; side: S | null; answer?: A } | { outcome: 'replayed'; record: CheckoutRecord | undefined };

/** The lines, priced inside the placing transaction, stood in the way (the seller's refusal or the assessment's first problem). */
export class LinesRefused extends Error {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
  }
}

export function createCartPlacing(ctx: Pick<CartContext, 'orders' | 'sellers' | 'settings'>) {
  const { orders, sellers, settings } = ctx;
  return function placeCart<S = null, A = never>(p: CartPlacing<S, A>): Promise<CartPlaced<S, A>> {
    const pricedHere = p.pricing === 'here';
    const asked = p.assessed.cart;
    return oneAtATime(sellerQueueKey(p.input.seller), storeBusy, () =>
      inTransaction(
        async (tx): Promise<CartPlaced<S, A>> => {
          // The stock for the lines of the cart read before, in the first round trip with the other reads, then assessed.
          const priced = (async () => {
            const taking = sellers.txTake(tx, p.input.seller, asked.lines.map(lineRequestOf));
            const taken = await (pricedHere ? taking.catch((err: unknown) => Promise.reject(isRefusal(err) ? new LinesRefused(err) : err)) : taking);
            const a = assessLines(
              settings,
              p.assessed,
              asked.lines.map((line, i) => ({ line, priced: taken.lines[i], problem: null })),
              [],
            );
            if (pricedHere && a.problems.length > 0) throw new LinesRefused(refusalOf(a.problems[0]));
            return { taken, a };
          })();
          const [r, exists, cart, checked, stock, side] = await Promise.all([
            cartRepo.getCheckout(p.orderId, tx),
            orders.txExists(tx, p.orderId),
            cartRepo.get(cartIdOf(p.userId, p.input.seller), tx),
            settled(orders.txCheckPlacing(tx, { consumerId: p.userId, seller: p.input.seller })),
            settled(priced),
            // The caller's read once the lines are priced (beside the placing checks' queries).
            settled(priced.then(({ a }) => (p.alongside ? p.alongside(tx, a) : null))),
          ]);
          // In this order: a replay answers whatever would refuse; the cart must be the one priced, since a line's
          // refusal is explained from it (cart.checkout); the lines come before the store's and the consumer's guards
          // as in the quote; the hold last, as it holds the total of lines that passed.
          if (r?.placed || exists) return { outcome: 'replayed', record: r };
          p.admit(r);
          if (!sameCart(cart, asked)) throw changed();
          if ('err' in stock) throw stock.err;
          if ('err' in checked) throw checked.err;
          if ('err' in side) throw side.err;
          const { taken, a } = stock.value;
          if (p.pricing !== 'here' && a.pricing.itemsVnd !== p.pricing.paidFor) throw changed();
          const { draft, record } = p.write({ record: r, a, lines: taken.lines, side: side.value });
          taken.take();
          const order = orders.txPlace(tx, draft);
          cartRepo.remove(tx, cart.id);
          cartRepo.putCheckout(tx, record);
          const answer = p.answer?.(tx, { order, side: side.value });
          return { outcome: 'placed', record, order, side: side.value, ...(answer !== undefined ? { answer } : {}) };
        },
        { readsTogether: true },
      ),
    );
  };
}

/**
 * The cart read in the transaction is the one read before: same revision and same lines (a cart emptied, so deleted,
 * and filled again starts at revision 0 again; its lines' ids are new).
 */
function sameCart(cart: CartRecord | undefined, asked: CartRecord): cart is CartRecord {
  return (
    cart !== undefined &&
    cart.revision === asked.revision &&
    cart.lines.length === asked.lines.length &&
    cart.lines.every((line, i) => line.id === asked.lines[i].id && line.quantity === asked.lines[i].quantity)
  );
}
