import type { AppConfig } from '../../platform/core/config';
import { logger } from '../../platform/core/logging/logger';
import { PAYMENT_DEADLINE } from './payments.model';
import { paymentsRepo } from './payments.repo';
import { paymentsServiceFor } from './payments.wiring';

/**
 * The `paymentExpiry` task (PAYMENT_DEADLINE): expires the payment if it is still PENDING at its deadline. Delivered
 * early it fails, and Cloud Tasks retries it later; reads expire overdue payments too, so a late or lost task leaves
 * nothing stuck. Safe to deliver twice.
 */
export async function onPaymentExpiry({ paymentId }: { paymentId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await PAYMENT_DEADLINE.run(paymentId, { load: (id) => paymentsRepo.get(id), expire: (id) => paymentsServiceFor(config).expire(id) });
  logger.info('payment expiry handled', { paymentId, outcome });
}
