import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { paymentDocument, type PaymentMethod, type PaymentRecord, type PaymentStatus } from './payments.model';

// Other modules hear the outcome of their own payments (by `ref.type`) through a trigger of theirs on the payments
// collection, declared with `paymentOutcomeTrigger` (index.ts): this module reads its documents, the subscriber
// gets only the outcome. At least once: subscribers are idempotent.

export const PAYMENT_OUTCOMES = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type PaymentOutcomeStatus = (typeof PAYMENT_OUTCOMES)[number];

/** A payment of the subscriber's that reached an outcome. */
export interface PaymentOutcome {
  paymentId: string;
  ref: { type: string; id: string };
  /** SUCCEEDED: paid (or a hold captured); FAILED, CANCELLED (a hold released too), EXPIRED: no money taken. */
  status: PaymentOutcomeStatus;
  /** The status it came from (null: created with its outcome). */
  previous: PaymentStatus | null;
  method: PaymentMethod;
  amount: number;
  payerId: string;
}

export type PaymentOutcomeHandler = (outcome: PaymentOutcome, config: Readonly<AppConfig>) => Promise<unknown>;

const isOutcome = (status: PaymentStatus): status is PaymentOutcomeStatus => (PAYMENT_OUTCOMES as readonly string[]).includes(status);

/** The outcome a change of a payment brings to the subscriber of `refType`, if any. */
export function outcomeOf(before: PaymentRecord | undefined, after: PaymentRecord | undefined, refType: string): PaymentOutcome | undefined {
  if (!after || after.ref?.type !== refType || before?.status === after.status || !isOutcome(after.status)) return undefined;
  return {
    paymentId: after.id,
    ref: after.ref,
    status: after.status,
    previous: before?.status ?? null,
    method: after.method,
    amount: after.amount,
    payerId: after.payerId,
  };
}

/** The subscriber's trigger handler: the payment read as this module reads it, the outcome handed on. */
export function outcomeTrigger(refType: string, handler: PaymentOutcomeHandler) {
  return typedTrigger(collectionRecords<PaymentRecord>(paymentDocument), async ({ before, after }, config: Readonly<AppConfig>) => {
    const outcome = outcomeOf(before, after, refType);
    if (!outcome) return 'no outcome';
    await handler(outcome, config);
    return outcome.status;
  });
}
