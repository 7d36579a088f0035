import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { vnd } from '../../platform/kits/money/money';
import { CART_CHECKOUT_CHECK_QUEUE } from './cart.collections';
import type { CartContext } from './cart.context';
import { outstanding, voucherReferenceOf, type CheckoutPayment, type CheckoutRecord } from './cart.model';
import { cartRepo } from './cart.repo';

// Giving back what a checkout took when no order took it: the wallet hold released, a paid gateway payment refunded, the
// voucher use returned. Done at once when an attempt fails, and by the checkout check (a deadline per attempt) when an
// attempt died in between (a crash, a timeout): a checkout never keeps money or a voucher use without an order.

/** A check that started giving things back holds the record this long; a new attempt meanwhile is 409 CART_CHECKOUT_BUSY. */
export const SWEEP_LEASE_MS = 60_000;

/** The deadline's view of a record: due CART_CHECKOUT_CHECK_SEC after its latest attempt while something is left to give back. */
type CheckoutDue = CheckoutRecord & { status: 'OPEN' };

export function checkoutDeadline(checkSec: number) {
  return defineDeadline<CheckoutDue, 'OPEN', string, 'orderId'>({
    entity: 'checkout',
    queue: CART_CHECKOUT_CHECK_QUEUE,
    idField: 'orderId',
    taskId: (orderId, phase) => `cart-checkout-${orderId}-${phase ?? 'check'}`,
    dueAt: (r) => (outstanding(r) ? r.attemptAt + checkSec * 1000 : null),
  });
}

export const dueView = (r: CheckoutRecord): CheckoutDue => ({ ...r, status: 'OPEN' });

export function createLeftovers(ctx: CartContext) {
  const { payments, promotions, now } = ctx;

  /** The payment a key made, asking again with it (a payment made then is given back at once): null when none could be. */
  async function paymentOfKey(r: CheckoutRecord, p: CheckoutPayment): Promise<string | null> {
    const base = {
      payerId: r.userId,
      amount: vnd(p.amount),
      purpose: 'ORDER' as const,
      ref: { type: 'ORDER', id: r.id },
      description: 'Order (checkout not completed)',
      idempotencyKey: p.key,
    };
    try {
      const made = p.method === 'WALLET' ? await payments.hold(base) : await payments.charge({ ...base, method: 'GATEWAY', provider: p.provider ?? 'MOCK' });
      return made.id;
    } catch (err) {
      if (err instanceof AppError && err.code === 'WALLET_INSUFFICIENT_FUNDS') return null; // no hold exists under the key
      throw err;
    }
  }

  /** Gives one payment back: released (a hold), refunded (a paid gateway payment); a PENDING gateway payment waits for its expiry. */
  async function giveBackPayment(r: CheckoutRecord, p: CheckoutPayment, reason: string): Promise<CheckoutPayment> {
    const id = p.id ?? (await paymentOfKey(r, p));
    if (id === null) return { ...p, settled: true };
    const payment = await payments.get(id);
    if (payment.status === 'AUTHORIZED') await payments.release(id, reason);
    else if (payment.status === 'SUCCEEDED') await payments.refund(id, { reason, by: 'system:cart', idempotencyKey: `${id}-checkout-refund` });
    else if (payment.status === 'PENDING') return { ...p, id };
    return { ...p, id, settled: true };
  }

  /**
   * Gives back everything of the record no order took, each step on its own (a failing one is left for the check).
   * Answers the record as it stands after it.
   */
  async function giveBack(r: CheckoutRecord, reason: string): Promise<CheckoutRecord> {
    const after = await Promise.all(
      r.payments.map((p) =>
        p.taken || p.settled
          ? p
          : giveBackPayment(r, p, reason).catch((err: unknown) => {
              logger.warn('checkout payment not given back yet', { orderId: r.id, key: p.key, error: (err as Error).message });
              return p;
            }),
      ),
    );
    let voucher = r.voucher && !r.placed;
    if (voucher) {
      voucher = await promotions
        .releaseFor(voucherReferenceOf(r.id), reason)
        .then(() => false)
        .catch((err: unknown) => {
          logger.warn('checkout voucher not given back yet', { orderId: r.id, error: (err as Error).message });
          return true;
        });
    }
    return { ...r, payments: after, voucher: r.placed ? r.voucher : voucher };
  }

  /** Stores what was given back (payments by key): the record goes once nothing is left and no order was placed. */
  async function record(orderId: string, given: CheckoutRecord, opts: { endSweep: boolean }): Promise<CheckoutRecord | undefined> {
    return inTransaction(async (tx) => {
      const current = await cartRepo.getCheckout(orderId, tx);
      if (!current) return undefined;
      const payments = current.payments.map((p) => given.payments.find((g) => g.key === p.key && !p.taken) ?? p);
      const next: CheckoutRecord = {
        ...current,
        payments,
        voucher: current.placed ? current.voucher : given.voucher,
        sweepingAt: opts.endSweep ? null : current.sweepingAt,
        updatedAt: now(),
      };
      if (!next.placed && !outstanding(next)) cartRepo.removeCheckout(tx, orderId);
      else cartRepo.putCheckout(tx, next);
      return next;
    });
  }

  /**
   * The checkout check: due (no attempt within CART_CHECKOUT_CHECK_SEC), it takes the record's lease, gives back what no
   * order took and stores it. Something still pending (a gateway payment until it expires) throws, so the task retries.
   */
  async function sweep(orderId: string, checkSec: number): Promise<'settled' | 'swept' | 'busy'> {
    const at = now();
    const leased = await inTransaction(async (tx) => {
      const r = await cartRepo.getCheckout(orderId, tx);
      if (!r || !outstanding(r) || r.attemptAt + checkSec * 1000 > at) return 'settled' as const;
      if (r.sweepingAt !== null && at - r.sweepingAt < SWEEP_LEASE_MS) return 'busy' as const;
      const held = { ...r, sweepingAt: at, updatedAt: at };
      cartRepo.putCheckout(tx, held);
      return held;
    });
    if (typeof leased === 'string') return leased;
    const given = await giveBack(leased, 'The checkout did not complete');
    const stored = await record(orderId, given, { endSweep: true });
    if (stored && outstanding(stored)) throw new Error(`checkout ${orderId}: a payment is still pending or could not be given back: retry later`);
    return 'swept';
  }

  /** After a placing that found an earlier attempt's record (a race of two requests): gives back what that attempt left. */
  async function settleRaced(r: CheckoutRecord): Promise<void> {
    try {
      await record(r.id, await giveBack(r, 'The checkout was retried'), { endSweep: false });
    } catch (err) {
      logger.warn('checkout left for its check', { orderId: r.id, error: (err as Error).message });
    }
  }

  return { giveBack, record, sweep, settleRaced };
}

export type Leftovers = ReturnType<typeof createLeftovers>;
