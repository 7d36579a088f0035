import { AppError } from '../../platform/core/errors/app-error';
import { vnd } from '../../platform/kits/money/money';
import type { PaymentView } from '../payments';
import { draftOf, paymentAnswer, type CheckoutInput } from './cart.checkout.parts';
import { createCartPlacing } from './cart.checkout.placing';
import type { CartContext } from './cart.context';
import { SWEEP_LEASE_MS } from './cart.leftovers';
import type { CheckoutPayment, CheckoutRecord } from './cart.model';
import type { CartRecord } from './cart.model';
import type { Assessment, UnpricedAssessment } from './cart.pricing';
import type { AnswerInCommit } from '../../platform/kits/idempotency/idempotency';

// Checkout in one transaction, when nothing it takes could outlive a failure: CASH or WALLET, no voucher. The lines
// are priced in it and the wallet hold of the total is written with the order (the placing transaction's own read and
// write, cart.checkout.placing), so no attempt record or check is needed before it: a transaction that fails or never
// commits leaves no hold, no stock taken, no order. The answer is built from what was written.

/** What the transaction did: placed now (with what it wrote), or found placed by an earlier request with the key. */
export type Once =
  | { outcome: 'placed'; record: CheckoutRecord; order: unknown; payment: PaymentView | null; answer?: ReturnType<typeof placedBody> }
  | { outcome: 'replayed'; record: CheckoutRecord | undefined };

export const busy = () =>
  new AppError(409, 'An earlier attempt of this checkout is being undone: retry in a few seconds', undefined, { 'Retry-After': '5' }).withCode(
    'CART_CHECKOUT_BUSY',
  );

export function createPlaceAtOnce(ctx: CartContext) {
  const { payments, now } = ctx;
  const placeCart = createCartPlacing(ctx);

  /** `answerInCommit`: the route's, to store the request's answer in the placing's commit. */
  return async function placeAtOnce(
    orderId: string,
    userId: string,
    input: CheckoutInput,
    assessed: UnpricedAssessment & { cart: CartRecord },
    answerInCommit?: AnswerInCommit,
  ): Promise<Once> {
    const at = now();
    const key = `${orderId}:${at}`;
    const hold = (a: Assessment) => ({
      payerId: userId,
      amount: vnd(a.pricing.totalVnd),
      purpose: 'ORDER' as const,
      ref: { type: 'ORDER', id: orderId },
      description: `Order at ${a.seller.name}`,
      idempotencyKey: key,
    });
    const placed = await placeCart({
      orderId,
      userId,
      input,
      assessed,
      pricing: 'here',
      // The hold of the total as priced in the transaction, read (and refused) beside the order's checks and written
      // with the order.
      alongside: input.payment.method === 'WALLET' ? (tx, a) => (a.pricing.totalVnd > 0 ? payments.txHold(tx, hold(a)) : Promise.resolve(null)) : undefined,
      admit: (r) => {
        if (r?.sweepingAt != null && at - r.sweepingAt < SWEEP_LEASE_MS) throw busy();
      },
      write: ({ record: r, a, lines, side: held }) => {
        const payment = held?.payment ?? null;
        held?.write();
        const entry: CheckoutPayment[] = payment
          ? [{ key, method: 'WALLET', provider: null, amount: a.pricing.totalVnd, id: payment.id, taken: true, settled: false }]
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
        return { draft: draftOf(orderId, userId, input, a, { lines, pricing: a.pricing, voucher: null, payment, at }), record };
      },
      // The answer as written (writtenAnswer's), stored with the order: no write after the commit.
      answer: answerInCommit
        ? (tx, { order, side: held }) => (order === undefined ? undefined : answerInCommit(tx, placedBody(order, held?.payment ?? null)))
        : undefined,
    });
    return placed.outcome === 'placed' ? { ...placed, payment: placed.side?.payment ?? null } : placed;
  };
}

/**
 * The answer of a placing: the order and payment as written (null: read them back); the one stored in its commit when
 * there is one (that very object: the route knows it by it).
 */
export const writtenAnswer = (placed: Pick<Extract<Once, { outcome: 'placed' }>, 'order' | 'payment' | 'answer'>) =>
  placed.answer ?? (placed.order === undefined ? null : placedBody(placed.order, placed.payment));
/** The checkout's answer body for an order as written. */
const placedBody = (order: unknown, payment: PaymentView | null) => ({
  order: order as { id: string; status: string } & Record<string, unknown>,
  payment: paymentAnswer(payment),
});
