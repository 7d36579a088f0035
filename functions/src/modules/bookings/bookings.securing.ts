import type { Transaction } from 'firebase-admin/firestore';
import { AppError } from '../../platform/core/errors/app-error';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { bookingMachine, type BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { bookingsRepo } from './bookings.repo';
import { notFound } from './bookings.rules';

// Securing a booking: what a payment (or nothing due) makes of a HELD one, whether it comes later (`engine.paid`) or
// in the very transaction that holds it (a wallet charge: `securedAtOnce`).

export interface Receipt {
  paymentId: string;
  amountVnd: number;
}

/** A payment prepared in the hold's transaction (a WALLET charge): its reads and refusal done, `write()` after every read. */
export interface PreparedPayment {
  receipt: Receipt;
  write(): void;
}

/** Paying in the hold's transaction: the payment for the new booking prepared (refusing throws, nothing written). */
export type PayInHold = (tx: Transaction, booking: BookingRecord) => Promise<PreparedPayment>;

/** When the partner's answer is due: `answerHours` from `at`, never past the start, at least a minute away. */
export const answerByOf = (startsAt: number, at: number, answerHours: number) => Math.max(at + 60_000, Math.min(at + answerHours * 3_600_000, startsAt));

/** The booking paid (`receipt`; none when nothing is due): CONFIRMED, or PENDING_PARTNER until its answer is due. */
export function securedBy(b: BookingRecord, to: BookingStatus, at: number, receipt: Receipt | undefined, answerBy: number): BookingRecord {
  return {
    ...b,
    status: to,
    payment: { ...b.payment, paidVnd: receipt?.amountVnd ?? 0, paymentId: receipt?.paymentId ?? null },
    holdUntil: null,
    answerBy: to === 'PENDING_PARTNER' ? answerBy : null,
    updatedAt: at,
  };
}

/**
 * What the payment in the hold's transaction answered when it refused (no money, a wallet that may not pay: any 4xx
 * of the payments module): the booking is held all the same, as when a charge after the hold is refused, and the
 * refusal is answered after the commit. Anything else (5xx, an outage) aborts the whole transaction.
 */
export const isPaymentRefusal = (err: unknown): err is AppError => err instanceof AppError && err.statusCode < 500;

/**
 * A new booking paid in the transaction that holds it: made HELD and secured by the move `paid` makes (`confirm` or
 * `submit`, the one line of its history), its units taken at once (CONFIRMED) or held until the partner's answer is
 * due, the payment written beside them.
 */
export async function securedAtOnce(
  tx: Transaction,
  record: BookingRecord,
  take: (as: 'CONFIRMED' | { until: number }) => void,
  payment: PreparedPayment,
  answerHours: number,
): Promise<BookingRecord> {
  const at = record.createdAt;
  const answerBy = answerByOf(record.startsAt, at, answerHours);
  const moved = await transition(
    bookingMachine,
    {
      load: async () => record,
      save: (t, next) => bookingsRepo.create(t, next),
      ref: () => bookingsRepo.ref(record.id),
      alongside: (_t, next) => {
        take(next.status === 'CONFIRMED' ? 'CONFIRMED' : { until: answerBy });
        payment.write();
      },
    },
    {
      action: record.needsPartnerAnswer ? 'submit' : 'confirm',
      by: 'system:bookings',
      rolesOf: () => ['SYSTEM'],
      apply: (b, to) => securedBy(b, to, at, payment.receipt, answerBy),
      now: at,
      missing: notFound,
    },
    tx,
  );
  return moved.after;
}
