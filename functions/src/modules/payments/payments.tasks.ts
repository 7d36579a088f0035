import type { AppConfig } from '../../platform/config';
import { logger } from '../../platform/logging/logger';
import { paymentsServiceFor } from './payments.wiring';

/**
 * The `paymentExpiry` task: expires the payment if it is still PENDING at its deadline. Delivered early (the Tasks
 * emulator ignores schedule times) it fails, and Cloud Tasks retries it later; reads expire overdue payments too,
 * so a late or lost task leaves nothing stuck. Safe to deliver twice.
 */
export async function onPaymentExpiry({ paymentId }: { paymentId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await paymentsServiceFor(config).expireIfDue(paymentId);
  if (outcome === 'not-due') throw new Error(`payment ${paymentId} is not due yet: retry later`);
  logger.info('payment expiry handled', { paymentId, outcome });
}
