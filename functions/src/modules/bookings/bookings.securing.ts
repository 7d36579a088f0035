import type { Transaction } from 'firebase-admin/firestore';
import { AppError } from '../../platform/core/errors/app-error';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { bookingMachine, type BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { bookingsRepo } from './bookings.repo';
import { notFound } from './bookings.rules';

// Securing a booking: what a payment (or nothing due) makes of a HELD one, whether it comes later (`engine.paid`) or
// in the very transaction that holds it (a wallet charge: `securedAtOnce`, one transaction instead of three).

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

/** When the partner's answer is due: `answerHours` from now, never past the start, at least a minute away. */
export const answerByOf = (answerHours: number) => (b: BookingRecord, at: number) => Math.max(at + 60_000, Math.min(at + answerHours * 3_600_000, b.startsAt));

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

/** A refusal of the payment (no money, a wallet locked): the booking is held all the same and the refusal answered after. */
export const isPaymentRefusal = (err: unknown): err is AppError => err instanceof AppError && err.statusCode < 500;

/**
 * A new booking paid in the transaction that holds it: created HELD and secured by the same move `paid` makes (both
 * in its history), its units taken at once (CONFIRMED) or held until the partner's answer is due, the payment written.
 */
export async function securedAtOnce(
  tx: Transaction,
  record: BookingRecord,
  take: (as: { state: 'HELD' | 'CONFIRMED'; until: number | null }) => void,
  payment: PreparedPayment,
  answerHours: number,
): Promise<BookingRecord> {
  const at = record.createdAt;
  const answerBy = answerByOf(answerHours)(record, at);
  const moved = await transition(
    bookingMachine,
    {
      load: async () => record,
      save: (t, next) => bookingsRepo.create(t, next),
      ref: () => bookingsRepo.ref(record.id),
      alongside: (_t, next) => {
        take(next.status === 'CONFIRMED' ? { state: 'CONFIRMED', until: null } : { state: 'HELD', until: answerBy });
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
