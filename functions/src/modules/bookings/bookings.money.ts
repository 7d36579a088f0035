import { AppError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { percentOf, subtractVnd, vnd, type Vnd } from '../../platform/kits/money/money';
import type { paymentCommands } from '../payments';
import { partnerMembers } from '../partners';
import { ledger, SYSTEM_ACCOUNTS, systemAccount, userAccount } from '../wallet';
import type { BookingStatus } from './bookings.machine';
import type { BookingRecord, BookingSettlement } from './bookings.model';
import { bookingsRepo } from './bookings.repo';
import { recordNote } from '../../platform/kits/state-machine/state-machine';

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
      return { refundVnd: vnd(0), earnedVnd: vnd(paid + (b.settlement?.extra === 'DONE' ? (b.extraCharge?.feeVnd ?? 0) : 0)) };
    default:
      return { refundVnd: vnd(0), earnedVnd: vnd(0) };
  }
}

/** A refusal retrying cannot change (the payment is gone or not refundable): an operator settles it, the trigger does not loop. */
const isRefusal = (err: unknown) => err instanceof AppError && err.statusCode < 500;
const REFUSED = Symbol('refused');

export function createBookingMoney(payments: PaymentCommands, commissionBp: number, now: () => number) {
  /** A step an operator must finish: FAILED on the booking, a line in its history, an error in the log. */
  async function failed(b: BookingRecord, step: keyof BookingSettlement, why: string): Promise<void> {
    logger.error('booking settlement left to an operator', { bookingId: b.id, step, why });
    await inTransaction(async (tx) => {
      const current = await bookingsRepo.get(b.id, tx);
      if (!current || current.settlement?.[step] === 'FAILED') return;
      bookingsRepo.markSettled(tx, b.id, { [step]: 'FAILED' }, now());
      recordNote<BookingStatus, 'settlementFailed'>(tx, bookingsRepo.ref(b.id), {
        action: 'settlementFailed',
        status: current.status,
        by: 'system:bookings',
        at: now(),
        reason: `${step}: ${why}`,
      });
    });
  }

  /** The partner owner's earnings, once: the ledger operation and the booking's mark in one transaction. */
  async function payOut(b: BookingRecord, earned: Vnd): Promise<void> {
    const net = subtractVnd(earned, percentOf(earned, commissionBp));
    const owner = (await partnerMembers(b.partnerId)).find((m) => m.role === 'OWNER');
    if (!owner) return failed(b, 'payout', `partner ${b.partnerId} has no owner to pay`);
    await inTransaction(async (tx) => {
      const current = await bookingsRepo.get(b.id, tx);
      if (!current || current.settlement?.payout === 'DONE') return;
      if (net > 0)
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
          { operationId: `booking-${b.id}-payout`, by: 'system:bookings', now: now(), paymentId: b.payment.paymentId, ref: { type: 'BOOKING', id: b.id } },
        );
      bookingsRepo.markSettled(tx, b.id, { payout: 'DONE' }, now());
    });
  }

  /** The extra charge (an overstay) from the consumer's wallet, once by its key; refused (no money): owed, FAILED. */
  async function chargeExtra(b: BookingRecord): Promise<boolean> {
    const extra = b.extraCharge!;
    const paid = await payments
      .charge({
        payerId: b.consumerId,
        amount: vnd(extra.feeVnd),
        purpose: 'BOOKING',
        // Its own reference type: the booking's payment outcomes (what secures a booking) never hear of it.
        ref: { type: 'BOOKING_EXTRA', id: b.id },
        method: 'WALLET',
        description: `${b.resource.parentName ?? b.resource.name}: ${extra.units} ${b.unitKind === 'HOUR' ? 'h' : 'd'} over`,
        idempotencyKey: `booking-${b.id}-extra`,
      })
      .catch((err: unknown) => (isRefusal(err) ? REFUSED : Promise.reject(err)));
    if (paid === REFUSED || paid.status !== 'SUCCEEDED') {
      await failed(b, 'extra', `the ${extra.reason.toLowerCase()} of ${extra.feeVnd} ₫ was not paid from the wallet: owed to the partner`);
      return false;
    }
    await inTransaction(async (tx) => {
      if (await bookingsRepo.get(b.id, tx)) bookingsRepo.markSettled(tx, b.id, { extra: 'DONE' }, now());
    });
    return true;
  }

  async function refund(b: BookingRecord, amount: Vnd): Promise<void> {
    const done = await payments
      .refund(b.payment.paymentId!, { amount, reason: `Booking ${b.status.toLowerCase()}`, by: 'system:bookings', idempotencyKey: `booking-${b.id}-refund` })
      .catch((err: unknown) => (isRefusal(err) ? REFUSED : Promise.reject(err)));
    if (done === REFUSED) return failed(b, 'refund', 'the payment refused the refund (see the payment)');
    await inTransaction(async (tx) => {
      if (await bookingsRepo.get(b.id, tx)) bookingsRepo.markSettled(tx, b.id, { refund: 'DONE' }, now());
    });
  }

  async function markNone(id: string, none: Partial<BookingSettlement>): Promise<void> {
    if (Object.keys(none).length === 0) return;
    await inTransaction(async (tx) => {
      if (await bookingsRepo.get(id, tx)) bookingsRepo.markSettled(tx, id, none, now());
    });
  }

  return {
    /**
     * Settles an ended booking's money, each step once (the refund by its key, the payout by its mark in the
     * ledger's transaction); a step marked DONE or FAILED is not tried again. What nothing is due for is NONE.
     */
    async settle(b: BookingRecord): Promise<{ refundVnd: number; earnedVnd: number }> {
      // The marks as they stand now, not as the trigger's snapshot saw them (a rerun after a step).
      const marks: Partial<BookingSettlement> = (await bookingsRepo.get(b.id))?.settlement ?? {};
      const { refundVnd, earnedVnd } = settlementOf({ ...b, settlement: marks });
      const refundDue = refundVnd > 0 && b.payment.paymentId !== null;
      const extra = b.extraCharge?.feeVnd ?? 0;
      // The steps nothing is due for are marked first: a reader who sees the payout DONE sees every other mark too.
      const none: Partial<BookingSettlement> = {};
      if (!refundDue && marks.refund === undefined) none.refund = 'NONE';
      if (extra <= 0 && marks.extra === undefined) none.extra = 'NONE';
      await markNone(b.id, none);
      if (refundDue && marks.refund === undefined) await refund(b, refundVnd);
      let earned = earnedVnd;
      if (extra > 0 && marks.extra === undefined && (await chargeExtra(b))) earned = vnd(earned + extra);
      if (earned > 0) {
        if (marks.payout === undefined) await payOut(b, earned);
      } else if (marks.payout === undefined) await markNone(b.id, { payout: 'NONE' });
      return { refundVnd, earnedVnd: earned };
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
