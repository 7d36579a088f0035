import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { stableId } from '../../platform/kits/ids/stable-id';
import { vnd } from '../../platform/kits/money/money';
import type { CartContext } from './cart.context';
import { checkoutDeadline, createLeftovers, dueView, SWEEP_LEASE_MS } from './cart.leftovers';
import { cartIdOf, outstanding, pricingOf, voucherReferenceOf, type CheckoutPayment, type CheckoutRecord, type Pricing } from './cart.model';
import { assess, assessUnpriced, completeAssessment, refusalOf, refusedUnpriced, type Assessment, type UnpricedAssessment } from './cart.pricing';
import type { SellerRef } from './cart.ports';
import { cartRepo } from './cart.repo';
import type { PaymentView } from '../payments';
import type { Reservation } from '../promotions';
import { asCartRefusal, changed, draftOf, paymentAnswer, type CheckoutInput } from './cart.checkout.parts';
import { busy, createPlaceAtOnce, writtenAnswer } from './cart.checkout.once';
import { createCartPlacing, LinesRefused, type CartPlaced } from './cart.checkout.placing';
import { settled } from '../../platform/core/errors/settled';
import type { ClaimedRun } from '../../platform/core/http/route';

export type { CheckoutInput, PaymentChoice } from './cart.checkout.parts';

// Checkout. Read first, beside the route's Idempotency-Key claim (claimBeside; refusals write nothing), then wait for
// the claim. The key's first attempt when nothing taken could outlive a failure (CASH or WALLET without a voucher) is
// one transaction (cart.checkout.once, cart.checkout.placing): the replay check, the cart, the stock and the lines
// priced, the store and the consumer's pending orders, the wallet hold of the total; then order, hold, cart and record
// written together.
// Otherwise (a voucher, a gateway payment, a retry after a failed attempt), priced first, then in the order that never
// leaves money or a voucher use without an order: record the attempt and arm its check → reserve the voucher → take
// the payment (a wallet hold, a gateway payment) → the same placing transaction. A failure gives back what this
// attempt took at once; a crash in between is covered by the check (cart.leftovers).

/** What this attempt has taken so far (what a failure gives back). */
interface Attempt {
  record: CheckoutRecord;
  entry: CheckoutPayment | null;
  heldBefore: boolean;
  /** Where the payment stands: not asked for, asked (made or not: the key tells), refused (nothing made), made. */
  payment: 'none' | 'asked' | 'refused' | 'made';
  paymentId: string | null;
}

/** This attempt's payment entry once its order is placed: taken when a payment was made, else settled (none needed). */
const paidWith = (attempt: Attempt, p: CheckoutPayment): CheckoutPayment => ({
  ...p,
  id: attempt.paymentId,
  taken: attempt.paymentId !== null,
  settled: attempt.paymentId === null,
});

export function createCheckout(ctx: CartContext) {
  const { payments, promotions, orders, sellers, now } = ctx;
  const leftovers = createLeftovers(ctx);
  const deadline = checkoutDeadline(ctx.settings.checkoutCheckSec);
  const placeAtOnce = createPlaceAtOnce(ctx);
  const placeCart = createCartPlacing(ctx);

  async function answer(orderId: string, userId: string, paymentId: string | null) {
    const [order, p] = await Promise.all([orders.view(orderId, userId), paymentId ? payments.get(paymentId) : null]);
    if (order === undefined) throw new Error(`order ${orderId} was placed but cannot be read`);
    return { order: order as { id: string; status: string } & Record<string, unknown>, payment: paymentAnswer(p) };
  }
  const takenPayment = (r: CheckoutRecord) => r.payments.find((p) => p.taken)?.id ?? null;

  /**
   * Records the attempt (its payment's key first, so a crash cannot hide the payment): 'placed' when the order exists.
   * The store and the pending orders are checked here too: refused, nothing is written, reserved or paid (the placing
   * transaction checks them again).
   */
  async function begin(orderId: string, userId: string, input: CheckoutInput, a: Assessment): Promise<Attempt | 'placed'> {
    const at = now();
    return inTransaction(async (tx) => {
      // The order itself is read too: its record may be gone (a TTL) while the order stands, and a fresh attempt would
      // then reserve, and on its failure give back, the voucher use the order holds.
      const [r, exists, checked] = await Promise.all([
        cartRepo.getCheckout(orderId, tx),
        orders.txExists(tx, orderId),
        settled(orders.txCheckPlacing(tx, { consumerId: userId, seller: input.seller })),
      ]);
      if (r?.placed || exists) return 'placed' as const;
      if (r?.sweepingAt != null && at - r.sweepingAt < SWEEP_LEASE_MS) throw busy();
      if ('err' in checked) throw checked.err;
      const entry: CheckoutPayment | null =
        input.payment.method === 'CASH'
          ? null
          : {
              key: `${orderId}:${at}`,
              method: input.payment.method,
              provider: input.payment.method === 'GATEWAY' ? input.payment.provider : null,
              amount: a.pricing.totalVnd,
              id: null,
              taken: false,
              settled: false,
            };
      const record: CheckoutRecord = {
        id: orderId,
        userId,
        attemptAt: at,
        placed: false,
        voucher: (r?.voucher ?? false) || input.voucherCode !== undefined,
        payments: [...(r?.payments ?? []), ...(entry ? [entry] : [])],
        sweepingAt: null,
        createdAt: r?.createdAt ?? at,
        updatedAt: at,
      };
      cartRepo.putCheckout(tx, record);
      return { record, entry, heldBefore: r?.voucher ?? false, payment: 'none' as const, paymentId: null };
    });
  }

  /** One use of the code under `ORDER:<id>`, for the items as priced now (a use an earlier attempt left is taken anew). */
  async function reserve(orderId: string, userId: string, code: string, a: Assessment, heldBefore: boolean): Promise<Reservation> {
    const reference = voucherReferenceOf(orderId);
    if (heldBefore) await promotions.releaseFor(reference, 'The checkout was retried');
    const input = { userId, code, vertical: 'ORDER' as const, partnerId: a.seller.partnerId, amount: a.pricing.itemsVnd, reference };
    const reserved = await promotions.reserve(input);
    if (reserved.amount === input.amount) return reserved;
    await promotions.releaseFor(reference, 'The checkout was priced again');
    return promotions.reserve(input);
  }

  async function pay(attempt: Attempt, a: Assessment, pricing: Pricing, clientIp: string) {
    const { entry, record } = attempt;
    if (!entry || pricing.totalVnd === 0) return null;
    const base = {
      payerId: record.userId,
      amount: vnd(pricing.totalVnd),
      purpose: 'ORDER' as const,
      ref: { type: 'ORDER', id: record.id },
      description: `Order at ${a.seller.name}`,
      idempotencyKey: entry.key,
    };
    attempt.payment = 'asked';
    try {
      const made =
        entry.method === 'WALLET' ? await payments.hold(base) : await payments.charge({ ...base, method: 'GATEWAY', provider: entry.provider!, clientIp });
      attempt.payment = 'made';
      attempt.paymentId = made.id;
      return made;
    } catch (err) {
      if (err instanceof AppError && err.statusCode < 500) attempt.payment = 'refused';
      throw err;
    }
  }

  /**
   * Gives back at once what no order took, this attempt's and any earlier one's, as the stored record tells (a placed
   * order keeps its voucher use and payment, even when the answer of its transaction was lost); whatever fails here is
   * left to the check.
   */
  async function undo(attempt: Attempt, reason: string): Promise<void> {
    const orderId = attempt.record.id;
    try {
      const current = (await cartRepo.getCheckout(orderId)) ?? attempt.record;
      // This attempt's payment: none made when it was never asked for or refused; asked without an answer, the key tells.
      const mine = (p: CheckoutPayment) =>
        p.key === attempt.entry?.key && !p.taken
          ? { ...p, id: attempt.paymentId ?? p.id, settled: attempt.payment === 'none' || attempt.payment === 'refused' }
          : p;
      await leftovers.record(orderId, await leftovers.giveBack({ ...current, payments: current.payments.map(mine) }, reason), { endSweep: false });
    } catch (err) {
      logger.warn('checkout left for its check', { orderId, error: (err as Error).message });
    }
  }

  /**
   * `run.claimed`: resolves once the request holds its Idempotency-Key (the route's claim runs beside the reads);
   * `run.answerInCommit`: the route's, to store the answer with the order when it is placed at once.
   */
  async function checkout(userId: string, idempotencyKey: string, input: CheckoutInput, clientIp: string, run: ClaimedRun) {
    const { claimed, answerInCommit } = run;
    const orderId = stableId({ scope: 'cart.checkout', caller: userId, key: idempotencyKey });
    // The store is read beside the replay check and the cart (one round trip less); a replay does not wait for it.
    const seller = sellers.get(input.seller);
    seller.catch(() => undefined);
    const [earlier, cart] = await Promise.all([cartRepo.getCheckout(orderId), cartRepo.get(cartIdOf(userId, input.seller))]);
    if (earlier?.placed) {
      // A replay of the key answers the stored answer (the claim is not held): nothing to read for it here.
      await claimed();
      return answer(orderId, userId, takenPayment(earlier));
    }
    const assessInput = { seller: input.seller, address: input.address, prescriptionMediaId: input.prescriptionMediaId, cart };
    if (earlier === undefined && input.voucherCode === undefined && input.payment.method !== 'GATEWAY') {
      // The key's first attempt, all at once: the lines are priced in the placing transaction. What stands in the way
      // is explained as the quote explains it (its first problem), with the lines priced again: a line refused in the
      // transaction costs that transaction (the store's queue slot included), its rollback and the pricing.
      const unpriced = await assessUnpriced(ctx, userId, assessInput, seller);
      if (refusedUnpriced(unpriced) || !cart) throw refusalOf((await completeAssessment(ctx, input.seller, unpriced)).problems[0]);
      await claimed();
      const once = await placeAtOnce(orderId, userId, input, { ...unpriced, cart }, answerInCommit).catch(async (err: unknown) => {
        if (!(err instanceof LinesRefused)) throw err;
        throw await explained(input.seller, unpriced, err.refusal);
      });
      if (once.outcome === 'placed' && outstanding(once.record)) await leftovers.settleRaced(once.record);
      if (once.outcome === 'placed') return writtenAnswer(once) ?? answer(orderId, userId, once.payment?.id ?? null);
      return answer(orderId, userId, once.record ? takenPayment(once.record) : null);
    }
    const a = await assess(ctx, userId, assessInput, seller);
    if (a.problems.length > 0) throw refusalOf(a.problems[0]);
    await claimed();
    return inSteps(orderId, userId, input, a, clientIp);
  }

  /**
   * The refusal of lines the placing transaction refused, as the quote gives it (its first problem); the
   * transaction's own when the lines priced again pass, or cannot be priced now.
   */
  async function explained(ref: SellerRef, unpriced: UnpricedAssessment, refusal: AppError): Promise<AppError> {
    try {
      const { problems } = await completeAssessment(ctx, ref, unpriced);
      return problems.length > 0 ? refusalOf(problems[0]) : refusal;
    } catch (err) {
      logger.warn('a refused checkout could not be priced again to explain it', { error: (err as Error).message });
      return refusal;
    }
  }

  /** Checkout with its check: the attempt recorded, the voucher reserved, the payment taken, then the placing transaction. */
  async function inSteps(orderId: string, userId: string, input: CheckoutInput, a: Assessment, clientIp: string) {
    const attempt = await begin(orderId, userId, input, a);
    if (attempt === 'placed') {
      const record = await cartRepo.getCheckout(orderId);
      return answer(orderId, userId, record ? takenPayment(record) : null);
    }
    await deadline.arm(ctx.scheduler, dueView(attempt.record), attempt.record.attemptAt, String(attempt.record.attemptAt));
    let placed: CartPlaced<null>;
    let payment: PaymentView | null;
    try {
      const voucher = input.voucherCode === undefined ? null : await reserve(orderId, userId, input.voucherCode, a, attempt.heldBefore);
      const { totalVnd: _undiscounted, ...parts } = a.pricing;
      const pricing = pricingOf({ ...parts, discountVnd: voucher?.discount ?? 0 });
      payment = await pay(attempt, a, pricing, clientIp);
      const at = now();
      placed = await placeCart({
        orderId,
        userId,
        input,
        assessed: { ...a, cart: a.cart! },
        pricing: { paidFor: a.pricing.itemsVnd },
        admit: (r) => {
          if (!r) throw changed();
        },
        write: ({ record: r, lines }) => ({
          draft: draftOf(orderId, userId, input, a, { lines, pricing, voucher, payment, at }),
          record: { ...r!, placed: true, payments: r!.payments.map((p) => (p.key === attempt.entry?.key ? paidWith(attempt, p) : p)), updatedAt: now() },
        }),
      });
    } catch (err) {
      await undo(attempt, `The checkout failed (${err instanceof AppError ? err.code : 'error'})`);
      throw err;
    }
    // What an earlier attempt (or, replayed, this one) left is given back now rather than at the check.
    const { outcome } = placed;
    const record = placed.record ?? attempt.record;
    if (outcome === 'replayed' || outstanding(record))
      await undo(attempt, outcome === 'replayed' ? 'The order was placed by another attempt' : 'The checkout was retried');
    // A wallet hold is answered as made and the order as written; a gateway payment's order is read (its outcome may have moved it).
    if (outcome === 'placed' && placed.order !== undefined && input.payment.method !== 'GATEWAY')
      return { order: placed.order as { id: string; status: string } & Record<string, unknown>, payment: paymentAnswer(payment) };
    return answer(orderId, userId, takenPayment(record) ?? (outcome === 'placed' ? attempt.paymentId : null));
  }

  /** The checkout check's task: waits for the latest attempt's due time, then gives back what no order took. */
  const runCheck = (orderId: string) =>
    deadline.run(orderId, {
      load: async (id) => {
        const r = await cartRepo.getCheckout(id);
        return r && dueView(r);
      },
      expire: (id) => leftovers.sweep(id, ctx.settings.checkoutCheckSec),
      now,
    });

  return {
    checkout: (...args: Parameters<typeof checkout>) =>
      checkout(...args).catch((err: unknown) => {
        throw asCartRefusal(err);
      }),
    runCheck,
  };
}

export type Checkout = ReturnType<typeof createCheckout>;
