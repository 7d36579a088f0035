import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { vnd } from '../../platform/kits/money/money';
import type { PaymentView } from '../payments';
import { changed, draftOf, paymentAnswer, type CheckoutInput } from './cart.checkout.parts';
import type { CartContext } from './cart.context';
import { SWEEP_LEASE_MS } from './cart.leftovers';
import { oneAtATime, sellerQueueKey, storeBusy } from './cart.checkout.queue';
import { cartIdOf, lineRequestOf, type CheckoutPayment, type CheckoutRecord } from './cart.model';
import { itemsTotal, type Assessment } from './cart.pricing';
import { cartRepo } from './cart.repo';

// Checkout in one transaction, when nothing it takes could outlive a failure: CASH or WALLET, no voucher. The wallet
// hold is written with the order, so no attempt record or check is needed before it: a transaction that fails or
// never commits leaves no hold, no stock taken, no order. Round trips: the reads that need no cart (replay, the store,
// the pending orders, the wallet), then the stock, then the commit; the answer is built from what was written.

/** What the transaction did: placed now (with what it wrote), or found placed by an earlier request with the key. */
export type Once =
  { outcome: 'placed'; record: CheckoutRecord; order: unknown; payment: PaymentView | null } | { outcome: 'replayed'; record: CheckoutRecord | undefined };

export const busy = () =>
  new AppError(409, 'An earlier attempt of this checkout is being undone: retry in a few seconds', undefined, { 'Retry-After': '5' }).withCode(
    'CART_CHECKOUT_BUSY',
  );

const settled = <T>(p: Promise<T>): Promise<{ value: T } | { err: unknown }> =>
  p.then(
    (value) => ({ value }),
    (err: unknown) => ({ err }),
  );

export function createPlaceAtOnce(ctx: CartContext) {
  const { payments, orders, sellers, now } = ctx;

  return async function placeAtOnce(orderId: string, userId: string, input: CheckoutInput, a: Assessment): Promise<Once> {
    const at = now();
    const key = `${orderId}:${at}`;
    const pricing = a.pricing;
    const holds = input.payment.method === 'WALLET' && pricing.totalVnd > 0;
    const hold = {
      payerId: userId,
      amount: vnd(pricing.totalVnd),
      purpose: 'ORDER' as const,
      ref: { type: 'ORDER', id: orderId },
      description: `Order at ${a.seller.name}`,
      idempotencyKey: key,
    };
    return oneAtATime(sellerQueueKey(input.seller), storeBusy, () =>
      inTransaction(async (tx): Promise<Once> => {
        // Everything but the stock first, side by side; the stock last, so the transaction holds it for one round trip.
        // A refusal (the store, the limit, the wallet) counts only once the order is known not to exist: a replay answers it.
        const [r, exists, cart, checked, held] = await Promise.all([
          cartRepo.getCheckout(orderId, tx),
          orders.txExists(tx, orderId),
          cartRepo.get(cartIdOf(userId, input.seller), tx),
          settled(orders.txCheckPlacing(tx, { consumerId: userId, seller: input.seller })),
          settled(holds ? payments.txHold(tx, hold) : Promise.resolve(null)),
        ]);
        if (r?.placed || exists) return { outcome: 'replayed', record: r };
        if (r?.sweepingAt != null && at - r.sweepingAt < SWEEP_LEASE_MS) throw busy();
        if ('err' in checked) throw checked.err;
        if ('err' in held) throw held.err;
        if (!cart || cart.revision !== a.cart?.revision) throw changed();
        const taken = await sellers.txTake(tx, input.seller, cart.lines.map(lineRequestOf));
        if (itemsTotal(taken.lines.map((priced) => ({ priced }))) !== pricing.itemsVnd) throw changed();
        const payment = held.value?.payment ?? null;
        held.value?.write();
        taken.take();
        const order = orders.txPlace(tx, draftOf(orderId, userId, input, a, { lines: taken.lines, pricing, voucher: null, payment, at }));
        cartRepo.remove(tx, cart.id);
        const entry: CheckoutPayment[] = payment
          ? [{ key, method: 'WALLET', provider: null, amount: pricing.totalVnd, id: payment.id, taken: true, settled: false }]
          : [];
        // An earlier attempt's record (its leftovers are given back after this commits) is kept with this one's payment.
        const record: CheckoutRecord = {
          id: orderId,
          userId,
          attemptAt: r?.attemptAt ?? at,
          placed: true,
          voucher: r?.voucher ?? false,
          payments: [...(r?.payments ?? []), ...entry],
          sweepingAt: r?.sweepingAt ?? null,
          createdAt: r?.createdAt ?? at,
          updatedAt: at,
        };
        cartRepo.putCheckout(tx, record);
        return { outcome: 'placed', record, order, payment };
      }),
    );
  };
}

/** The answer of a placing: the order and payment as written (null: read them back). */
export const writtenAnswer = (placed: Extract<Once, { outcome: 'placed' }>) =>
  placed.order === undefined
    ? null
    : { order: placed.order as { id: string; status: string } & Record<string, unknown>, payment: paymentAnswer(placed.payment) };
