import type { Transaction } from 'firebase-admin/firestore';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { changed, type CheckoutInput } from './cart.checkout.parts';
import { oneAtATime } from '../../platform/kits/firestore/one-at-a-time';
import { sellerQueueKey, storeBusy } from './cart.checkout.queue';
import type { CartContext } from './cart.context';
import { cartIdOf, lineRequestOf, type CartRecord, type CheckoutRecord } from './cart.model';
import type { OrderDraft, PricedLine } from './cart.ports';
import { itemsTotal, type Assessment } from './cart.pricing';
import { cartRepo } from './cart.repo';

// The placing transaction both ways of checking out end in (cart.checkout.once: all at once; cart.checkout: after the
// voucher and the payment were taken). One store's placings run one at a time in this instance (cart.checkout.queue).
// Three round trips (reads together, platform/core/firebase): the documents that need no cart in one getAll (the
// attempt record, whether the order exists, the cart, the store, and the caller's own reads, such as a wallet hold's
// accounts), then the stock (once the cart is known) beside the placing checks' queries (the consumer's unconfirmed
// orders), then the commit: the store's stock is held from its read to the commit, one round trip (a placing refused
// by those checks, or a replay, reads it too, and holds it until its rollback). An order placed already (an earlier
// request with the key) is answered as a replay, whatever would refuse.

/** A promise's outcome, kept: a refusal read beside the others counts only once the order is known not to exist. */
export const settled = <T>(p: Promise<T>): Promise<{ value: T } | { err: unknown }> =>
  p.then(
    (value) => ({ value }),
    (err: unknown) => ({ err }),
  );

/** What a placing knows when it writes: the attempt record as read, the stock taken (priced now), the caller's read. */
export interface PlacingStep<S> {
  record: CheckoutRecord | undefined;
  lines: PricedLine[];
  /** What `alongside` read; null without one. */
  side: S | null;
}

export interface CartPlacing<S> {
  orderId: string;
  userId: string;
  input: CheckoutInput;
  a: Assessment;
  /** The caller's own read beside the first ones (a wallet hold); its refusal counts after the replay check. */
  alongside?: (tx: Transaction) => Promise<S>;
  /** Refuses the attempt record as read, after the replay check and before the placing checks. */
  admit(record: CheckoutRecord | undefined): void;
  /** Writes the caller's own (a hold) and answers the order's draft and the attempt record to store. */
  write(step: PlacingStep<S>): { draft: OrderDraft; record: CheckoutRecord };
}

export type CartPlaced<S> =
  { outcome: 'placed'; record: CheckoutRecord; order: unknown; side: S | null } | { outcome: 'replayed'; record: CheckoutRecord | undefined };

export function createCartPlacing(ctx: Pick<CartContext, 'orders' | 'sellers'>) {
  const { orders, sellers } = ctx;
  return function placeCart<S = null>(p: CartPlacing<S>): Promise<CartPlaced<S>> {
    return oneAtATime(sellerQueueKey(p.input.seller), storeBusy, () =>
      inTransaction(
        async (tx): Promise<CartPlaced<S>> => {
          const cartRead = cartRepo.get(cartIdOf(p.userId, p.input.seller), tx);
          const unchanged = (cart: CartRecord | undefined): cart is CartRecord => cart !== undefined && cart.revision === p.a.cart?.revision;
          const [r, exists, cart, checked, side, stock] = await Promise.all([
            cartRepo.getCheckout(p.orderId, tx),
            orders.txExists(tx, p.orderId),
            cartRead,
            settled(orders.txCheckPlacing(tx, { consumerId: p.userId, seller: p.input.seller })),
            // Started inside the promise chain: even a synchronous throw counts only after the replay check.
            settled(Promise.resolve().then(() => (p.alongside ? p.alongside(tx) : null))),
            // The stock as soon as the cart is known, beside the placing checks' queries.
            settled(
              cartRead.then((c) => {
                if (!unchanged(c)) throw changed();
                return sellers.txTake(tx, p.input.seller, c.lines.map(lineRequestOf));
              }),
            ),
          ]);
          if (r?.placed || exists) return { outcome: 'replayed', record: r };
          p.admit(r);
          if ('err' in checked) throw checked.err;
          if ('err' in side) throw side.err;
          if ('err' in stock) throw stock.err;
          const { value: taken } = stock;
          if (!unchanged(cart)) throw changed();
          if (itemsTotal(taken.lines.map((priced) => ({ priced }))) !== p.a.pricing.itemsVnd) throw changed();
          const { draft, record } = p.write({ record: r, lines: taken.lines, side: side.value });
          taken.take();
          const order = orders.txPlace(tx, draft);
          cartRepo.remove(tx, cart.id);
          cartRepo.putCheckout(tx, record);
          return { outcome: 'placed', record, order, side: side.value };
        },
        { readsTogether: true },
      ),
    );
  };
}
