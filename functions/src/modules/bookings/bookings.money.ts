import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { percentOf, subtractVnd, vnd, type Vnd } from '../../platform/kits/money/money';
import type { paymentCommands } from '../payments';
import { partnerMembers } from '../partners';
import { ledger, SYSTEM_ACCOUNTS, systemAccount, userAccount } from '../wallet';
import type { BookingRecord } from './bookings.model';

// A booking's money after its last move, each step once whoever runs it (the trigger, at least once): what the
// consumer is owed back is refunded through payments (one refund per booking, by its key), and what the partner
// earned (a stay or a visit, a no-show's payment, a late cancellation's fee) is paid to its owner's earnings out of
// platform revenue, less the platform's commission (one ledger operation per booking, by its id).

export type PaymentCommands = ReturnType<typeof paymentCommands>;

/** What the consumer gets back and what the partner earned, by the booking's end. */
export function settlementOf(b: BookingRecord): { refundVnd: Vnd; earnedVnd: Vnd } {
  const paid = vnd(b.payment.paidVnd);
  switch (b.status) {
    case 'CANCELLED':
      return { refundVnd: vnd(b.cancellation?.refundVnd ?? paid), earnedVnd: vnd(b.cancellation?.feeVnd ?? 0) };
    case 'REJECTED':
    case 'EXPIRED':
      return { refundVnd: paid, earnedVnd: vnd(0) };
    case 'COMPLETED':
    case 'NO_SHOW':
      return { refundVnd: vnd(0), earnedVnd: paid };
    default:
      return { refundVnd: vnd(0), earnedVnd: vnd(0) };
  }
}

/** A refusal retrying cannot change (the payment is gone or not refundable): an operator settles it, the trigger does not loop. */
const isRefusal = (err: unknown) => err instanceof AppError && err.statusCode < 500;
function stuck(b: BookingRecord, step: 'refund' | 'payout', why: string): void {
  logger.error('booking settlement left to an operator', { bookingId: b.id, step, why });
}

export function createBookingMoney(payments: PaymentCommands, commissionBp: number, now: () => number) {
  async function payOut(b: BookingRecord, earned: Vnd): Promise<void> {
    const net = subtractVnd(earned, percentOf(earned, commissionBp));
    if (net <= 0) return;
    const owner = (await partnerMembers(b.partnerId)).find((m) => m.role === 'OWNER');
    if (!owner) return stuck(b, 'payout', `partner ${b.partnerId} has no owner to pay`);
    const operationId = `booking-${b.id}-payout`;
    await inTransaction(async (tx) => {
      if ((await ledger.posted(operationId, tx)).length > 0) return;
      await ledger.post(
        tx,
        [
          {
            kind: 'PAYMENT',
            debit: systemAccount(SYSTEM_ACCOUNTS.platformRevenue),
            credit: userAccount('EARNINGS', owner.userId),
            amount: net,
            memo: `Booking ${b.id}: ${b.resource.parentName ?? b.resource.name}`,
          },
        ],
        { operationId, by: 'system:bookings', now: now(), paymentId: b.payment.paymentId, ref: { type: 'BOOKING', id: b.id } },
      );
    });
  }

  return {
    /** Settles an ended booking's money (idempotent: the refund by its key, the payout by its operation). */
    async settle(b: BookingRecord): Promise<{ refundVnd: number; earnedVnd: number }> {
      const { refundVnd, earnedVnd } = settlementOf(b);
      if (refundVnd > 0 && b.payment.paymentId)
        await payments
          .refund(b.payment.paymentId, {
            amount: refundVnd,
            reason: `Booking ${b.status.toLowerCase()}`,
            by: 'system:bookings',
            idempotencyKey: `booking-${b.id}-refund`,
          })
          .catch((err: unknown) => (isRefusal(err) ? stuck(b, 'refund', (err as Error).message) : Promise.reject(err)));
      if (earnedVnd > 0) await payOut(b, earnedVnd);
      return { refundVnd, earnedVnd };
    },
    /** A payment that came too late for its booking (expired, cancelled) or for one paid already: all of it back. */
    async refundStray(bookingId: string, payment: { paymentId: string; amountVnd: number }): Promise<void> {
      await payments.refund(payment.paymentId, {
        amount: vnd(payment.amountVnd),
        reason: `Booking ${bookingId} was no longer waiting for this payment`,
        by: 'system:bookings',
        idempotencyKey: `booking-${bookingId}-stray-${payment.paymentId}`,
      });
    },
  };
}
