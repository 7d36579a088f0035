import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { PAYMENT_EVENTS } from './payments.events';
import { PAYMENT_TEXTS } from './payments.texts';
import { paymentDocument, type PaymentRecord } from './payments.model';

/** The payer's notices of one change of a payment: a top-up's outcome, and each new refund. */
export function paymentNotices(before: PaymentRecord | undefined, after: PaymentRecord | undefined): DispatchInput[] {
  if (!after) return [];
  const payer = [{ userId: after.payerId, surface: 'CON' as const }];
  const notices: DispatchInput[] = [];
  if (after.purpose === 'TOPUP' && before?.status !== after.status) {
    if (after.status === 'SUCCEEDED') {
      notices.push(
        PAYMENT_EVENTS.notice({
          event: 'wallet.topup.succeeded',
          recipients: payer,
          entityId: after.id,
          text: PAYMENT_TEXTS.text('wallet.topup.succeeded', { amount: after.amount }),
          params: { paymentId: after.id },
        }),
      );
    } else if (after.status === 'FAILED') {
      notices.push(
        PAYMENT_EVENTS.notice({
          event: 'wallet.topup.failed',
          recipients: payer,
          entityId: after.id,
          text: PAYMENT_TEXTS.text('wallet.topup.failed', { amount: after.amount }),
          params: { paymentId: after.id },
        }),
      );
    }
  }
  const known = new Set((before?.refunds ?? []).map((r) => r.id));
  for (const refund of after.refunds.filter((r) => !known.has(r.id))) {
    notices.push(
      PAYMENT_EVENTS.notice({
        event: 'payment.refunded',
        recipients: payer,
        entityId: after.id,
        occurrence: refund.id,
        text: PAYMENT_TEXTS.text('payment.refunded', { amount: refund.amount, topUp: after.purpose === 'TOPUP', reason: refund.reason }),
        params: { paymentId: after.id },
      }),
    );
  }
  return notices;
}

// At least once: notification ids derive from event, payment, payer and refund id, so a repeat sends nothing new.
export const onPaymentWritten = typedTrigger(
  collectionRecords<PaymentRecord>(paymentDocument),
  async ({ before, after }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) => {
    const notices = paymentNotices(before, after);
    for (const notice of notices) await hub.dispatch(notice);
    return notices.length;
  },
);
