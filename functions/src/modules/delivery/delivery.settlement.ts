import { ConflictError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { vnd } from '../../platform/kits/money/money';
import { ledger, operationIdFor, userAccount, type Leg } from '../wallet';
import type { DeliveryCore } from './delivery.context';
import type { DeliveryRecord } from './delivery.model';
import { deliveryRepo } from './delivery.repo';

// A parcel's money, after the move that ends it and again from the trigger (idempotent). DELIVERED: the fee is
// captured from the wallet hold, or recorded as cash the driver took (the platform's commission then owed from the
// driver's earnings), and the cash collected on delivery is credited to the sender's wallet and owed by the driver
// (one ledger leg: the driver's earnings → the sender's wallet). CANCELLED after a driver was assigned: the
// cancellation fee to the driver (from the hold, or the wallet of a cash sender who holds it). Otherwise the hold
// goes back.

const CAPTURED_STATUSES: readonly string[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const refOf = (d: DeliveryRecord) => ({ type: 'DELIVERY', id: d.id });

/** The ledger legs of the cash collected on delivery: owed by the driver (earnings may go below zero), the sender's. */
export function codLegs(d: Pick<DeliveryRecord, 'codVnd' | 'driverId' | 'senderId'>): Leg[] {
  if (d.codVnd <= 0 || !d.driverId) return [];
  return [
    {
      kind: 'PAYMENT',
      debit: userAccount('EARNINGS', d.driverId),
      credit: userAccount('WALLET', d.senderId),
      amount: vnd(d.codVnd),
      allowOverdraft: true,
      memo: 'Cash collected on delivery for the sender',
    },
  ];
}

export function createDeliverySettlement({ deps, now }: DeliveryCore) {
  const { payments, settings } = deps;

  async function releaseHold(holdPaymentId: string | null, reason: string): Promise<void> {
    if (!holdPaymentId) return;
    await payments.release(holdPaymentId, reason).catch((err: { code?: string }) => {
      if (err.code !== 'PAYMENT_TRANSITION') throw err; // released or captured already: a repeat
    });
  }

  /** Captures the hold for the driver; a hold captured already (a repeat) is read back, never one released. */
  async function captureOnce(holdPaymentId: string, amount: number, driverId: string) {
    return payments.capture(holdPaymentId, { amount: vnd(amount), payeeId: driverId, feeBp: settings.commissionBp }).catch(async (err: { code?: string }) => {
      if (err.code !== 'PAYMENT_TRANSITION') throw err;
      const payment = await payments.get(holdPaymentId);
      if (CAPTURED_STATUSES.includes(payment.status)) return payment;
      logger.error('delivery hold not captured and not capturable', { paymentId: holdPaymentId, status: payment.status, amount });
      throw new ConflictError('The wallet hold of the delivery was not captured', { paymentId: holdPaymentId, status: payment.status });
    });
  }

  async function feeOnDelivery(d: DeliveryRecord & { driverId: string }): Promise<string> {
    if (d.payment.holdPaymentId) return (await captureOnce(d.payment.holdPaymentId, d.feeVnd, d.driverId)).id;
    const recorded = await payments.charge({
      payerId: d.senderId,
      amount: vnd(d.feeVnd),
      purpose: 'DELIVERY',
      ref: refOf(d),
      method: 'CASH',
      payeeId: d.driverId,
      feeBp: settings.commissionBp,
      description: 'Parcel delivery paid in cash',
      idempotencyKey: `${d.id}-fee`,
    });
    return recorded.id;
  }

  /** The cash collected on delivery, posted once: the parcel records it in the same transaction as the leg. */
  async function codOnDelivery(id: string): Promise<void> {
    await inTransaction(async (tx) => {
      const d = await deliveryRepo.get(id, tx);
      if (!d || d.status !== 'DELIVERED' || d.codSettledAt !== null) return;
      const legs = codLegs(d);
      if (legs.length === 0) return;
      const at = now();
      await ledger.post(tx, legs, { operationId: operationIdFor('delivery.cod', d.senderId, d.id), by: 'system:delivery', now: at, ref: refOf(d) });
      deliveryRepo.patch(tx, id, { codSettledAt: at });
    });
  }

  async function cancellationFee(d: DeliveryRecord & { driverId: string }): Promise<string | null> {
    if (d.payment.holdPaymentId) return (await captureOnce(d.payment.holdPaymentId, d.cancellationFeeVnd, d.driverId)).id;
    // A cash sender pays the fee from the wallet when it holds it; otherwise it stays on the parcel as owed.
    const paid = await payments
      .charge({
        payerId: d.senderId,
        amount: vnd(d.cancellationFeeVnd),
        purpose: 'DELIVERY',
        ref: refOf(d),
        method: 'WALLET',
        payeeId: d.driverId,
        feeBp: settings.commissionBp,
        description: 'Parcel delivery cancellation fee',
        idempotencyKey: `${d.id}-cancel-fee`,
      })
      .catch((err: { code?: string }) => {
        if (err.code === 'WALLET_INSUFFICIENT_FUNDS') return undefined;
        throw err;
      });
    return paid?.id ?? null;
  }

  /** Money of a parcel that ended (idempotent: the trigger settles again); the payment ids are recorded on it. */
  async function settle(d: DeliveryRecord): Promise<DeliveryRecord> {
    const payment = { ...d.payment };
    if (d.status === 'DELIVERED' && d.driverId) {
      payment.feePaymentId ??= await feeOnDelivery({ ...d, driverId: d.driverId });
      await codOnDelivery(d.id);
    } else if (d.status === 'CANCELLED' && d.cancellationFeeVnd > 0 && d.driverId) {
      payment.cancelFeePaymentId ??= await cancellationFee({ ...d, driverId: d.driverId });
    } else if (d.status === 'CANCELLED' || d.status === 'NO_DRIVER') {
      await releaseHold(d.payment.holdPaymentId, d.status === 'CANCELLED' ? 'Delivery cancelled' : 'No driver took the delivery');
    }
    if (payment.feePaymentId === d.payment.feePaymentId && payment.cancelFeePaymentId === d.payment.cancelFeePaymentId) return d;
    await deliveryRepo.recordPayments(d.id, payment);
    return { ...d, payment };
  }

  /** Settles after a move; a failure is logged and left to the trigger's retry (the move itself stands). */
  async function settleAfterMove(d: DeliveryRecord): Promise<DeliveryRecord> {
    try {
      return await settle(d);
    } catch (err) {
      logger.warn('delivery money not settled after its move: the trigger settles it again', { deliveryId: d.id, error: (err as Error).message });
      return d;
    }
  }

  /**
   * A hold whose parcel was never stored (the placing request died in between, and no retry came): given back once
   * the no-driver window has passed since it was made (a placing still under way stores its parcel well before).
   */
  async function releaseOrphanHold(holdPaymentId: string, windowSec: number): Promise<void> {
    const hold = await payments.get(holdPaymentId);
    const age = now() - Date.parse(hold.createdAt);
    if (age < windowSec * 1_000) throw new Error(`hold ${holdPaymentId} of a delivery not stored is not due yet (${Math.round(age / 1000)} s): retry later`);
    await releaseHold(holdPaymentId, 'The delivery was never placed');
  }

  return { settle, settleAfterMove, releaseHold, releaseOrphanHold };
}

export type DeliverySettlement = ReturnType<typeof createDeliverySettlement>;
