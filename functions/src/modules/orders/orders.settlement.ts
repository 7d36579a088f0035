import { ConflictError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { vnd } from '../../platform/kits/money/money';
import { ledger } from '../wallet';
import type { OrdersCore } from './orders.context';
import { recordNote } from '../../platform/kits/state-machine/state-machine';
import { isCalledOff, type OrderAction, type OrderStatus } from './orders.machine';
import type { OrderRecord } from './orders.model';
import { payoutLegs, splitOf } from './orders.money';
import { ordersRepo, type OrderSettlement } from './orders.repo';

// An order's money after its last move, each step once (the request that moved it runs it, the trigger again):
// called off, the hold is released or the paid gateway payment refunded and the voucher given back (the stock went
// back in the move's own transaction); delivered, the hold is captured, the gateway payment stands or the cash is
// recorded, and the store and the courier are paid out through the ledger.

const CAPTURED: readonly string[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const PAID: readonly string[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED'];
/** Settlements whose money was taken for the delivery (what a payout may come from). */
const TAKEN: readonly string[] = ['PAID', 'CAPTURED', 'COLLECTED'];

export function createOrderSettlement(core: OrdersCore) {
  const { deps, ports, settings, now } = core;
  const { payments } = deps;

  const mark = (order: OrderRecord, change: Partial<OrderSettlement>) => ordersRepo.markSettled(order.id, change, now());
  const isTransition = (err: unknown) => (err as { code?: string }).code === 'PAYMENT_TRANSITION';

  /** The money of a called-off order back to the consumer; undefined while a gateway payment is still open. */
  async function giveMoneyBack(order: OrderRecord): Promise<OrderSettlement['payment'] | undefined> {
    const { method, paymentId } = order.payment;
    if (method === 'CASH' || !paymentId) return 'NONE';
    if (method === 'WALLET') {
      try {
        await payments.release(paymentId, `Order ${order.status.toLowerCase()}`);
        return 'RELEASED';
      } catch (err) {
        if (!isTransition(err)) throw err;
        const held = await payments.get(paymentId);
        if (held.status === 'CANCELLED') return 'RELEASED';
        if (!CAPTURED.includes(held.status)) return 'NONE';
      }
    }
    const paid = await payments.get(paymentId);
    if (paid.status === 'PENDING') return undefined;
    if (paid.status === 'REFUNDED') return 'REFUNDED';
    if (!PAID.includes(paid.status)) return 'NONE';
    await payments.refund(paymentId, { reason: `Order ${order.status.toLowerCase()}`, by: 'system:orders', idempotencyKey: `${order.id}-refund` });
    return 'REFUNDED';
  }

  /** Called off: money and voucher back (idempotent; the stock went back with the move). */
  async function compensate(order: OrderRecord): Promise<OrderRecord> {
    if (!isCalledOff(order.status)) return order;
    let settlement = order.settlement;
    if (settlement.payment === null || settlement.payment === 'NONE') {
      const back = await giveMoneyBack(order);
      if (back !== undefined && back !== settlement.payment) {
        settlement = { ...settlement, payment: back, paymentId: order.payment.paymentId };
        await mark(order, { payment: back, paymentId: order.payment.paymentId });
      }
    }
    if (order.voucher && !settlement.voucherReleased) {
      await ports.promotions.releaseFor(`ORDER:${order.id}`, `Order ${order.status.toLowerCase()}`);
      settlement = { ...settlement, voucherReleased: true };
      await mark(order, { voucherReleased: true });
    }
    return { ...order, settlement };
  }

  /** The consumer's payment of a delivered order: the hold captured, the gateway's taken, or the cash recorded. */
  async function takePayment(order: OrderRecord): Promise<{ payment: OrderSettlement['payment']; paymentId: string | null; unpaid?: string }> {
    const { method, paymentId } = order.payment;
    const total = vnd(order.pricing.totalVnd);
    if (method === 'CASH') {
      if (total === 0) return { payment: 'COLLECTED', paymentId: null };
      const cash = await payments.charge({
        payerId: order.consumerId,
        amount: total,
        purpose: 'ORDER',
        ref: { type: 'ORDER', id: order.id },
        method: 'CASH',
        payeeId: null,
        description: `Order ${order.id} paid in cash`,
        idempotencyKey: `${order.id}-cash`,
      });
      return { payment: 'COLLECTED', paymentId: cash.id };
    }
    if (!paymentId) throw new Error(`order ${order.id}: a ${method} order without its payment`);
    if (method === 'WALLET') {
      await payments.capture(paymentId, { amount: total, payeeId: null, feeBp: 0 }).catch(async (err: unknown) => {
        if (!isTransition(err)) throw err;
        const held = await payments.get(paymentId);
        if (!CAPTURED.includes(held.status))
          throw new ConflictError('The order’s wallet hold was not captured', { paymentId, status: held.status }).withCode('ORDER_TRANSITION');
      });
      return { payment: 'CAPTURED', paymentId };
    }
    const paid = await payments.get(paymentId);
    // Only money still whole is paid out: a payment refunded (even in part) before delivery is an operator's call.
    if (paid.status !== 'SUCCEEDED') return { payment: 'NONE', paymentId, unpaid: paid.status };
    return { payment: 'PAID', paymentId };
  }

  /**
   * A delivered gateway order whose payment never came in: no payout of money never received. Once, in one
   * transaction: the order marked `settlement.payment` NONE (nothing taken, so nothing paid out) and a `payoutHeld`
   * line in its history naming the payment and its status (GET /orders/{id}/events), for an operator to settle by hand.
   */
  async function holdPayout(order: OrderRecord, paymentId: string, status: string): Promise<void> {
    const held = await inTransaction(async (tx) => {
      const current = await ordersRepo.get(order.id, tx);
      if (!current || current.settlement.payment !== null) return false;
      const at = now();
      recordNote<OrderStatus, OrderAction | 'payoutHeld'>(tx, ordersRepo.ref(order.id), {
        action: 'payoutHeld',
        status: current.status,
        by: 'system:orders',
        at,
        reason: `Gateway payment ${paymentId} is ${status}: no payout until an operator settles it`,
      });
      await ordersRepo.markSettled(order.id, { payment: 'NONE', paymentId }, at, tx);
      return true;
    });
    if (held) logger.error('payout held: a delivered order whose gateway payment is not paid', { orderId: order.id, paymentId, status });
  }

  /** Pays the store owner and the courier once: the payout's legs and the order's mark in one transaction. */
  async function payOut(order: OrderRecord): Promise<void> {
    const owner = (await ports.partners.members(order.partnerId)).find((m) => m.role === 'OWNER');
    if (!owner) throw new Error(`order ${order.id}: partner ${order.partnerId} has no owner to pay`);
    const split = splitOf(order, settings);
    await inTransaction(async (tx) => {
      const current = await ordersRepo.get(order.id, tx);
      if (!current || current.settlement.paidOut) return;
      const legs = payoutLegs(current, split, owner.userId);
      const at = now();
      if (legs.length > 0)
        await ledger.post(tx, legs, {
          operationId: `order-${order.id}-payout`,
          by: 'system:orders',
          now: at,
          paymentId: current.settlement.paymentId,
          ref: { type: 'ORDER', id: order.id },
        });
      await ordersRepo.markSettled(order.id, { paidOut: true }, at, tx);
    });
  }

  /** Delivered: the payment taken, then the payouts (idempotent). */
  async function settleDelivery(order: OrderRecord): Promise<OrderRecord> {
    if (order.status !== 'DELIVERED' || !order.driverId) return order;
    let settlement = order.settlement;
    if (settlement.payment === null) {
      const { unpaid, ...taken } = await takePayment(order);
      if (unpaid !== undefined) {
        await holdPayout(order, taken.paymentId!, unpaid);
        return { ...order, settlement: { ...settlement, ...taken } };
      }
      settlement = { ...settlement, ...taken };
      await mark(order, taken);
    }
    // Paid out only from money taken for this delivery: not NONE (held above), nor money already given back (an order
    // called off and refunded or released, whatever its status says now).
    if (!settlement.paidOut && settlement.payment !== null && TAKEN.includes(settlement.payment)) {
      await payOut({ ...order, settlement });
      settlement = { ...settlement, paidOut: true };
    }
    return { ...order, settlement };
  }

  /** Whatever the order's status asks of its money now. */
  const settle = (order: OrderRecord) => (order.status === 'DELIVERED' ? settleDelivery(order) : compensate(order));

  return { compensate, settleDelivery, settle };
}

export type OrderSettlementPart = ReturnType<typeof createOrderSettlement>;
