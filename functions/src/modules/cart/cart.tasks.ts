import type { AppConfig } from '../../platform/core/config';
import { logger } from '../../platform/core/logging/logger';
import { cartServicesFor } from './cart.wiring';

/**
 * The `cartCheckoutCheck` task: CART_CHECKOUT_CHECK_SEC after a checkout attempt, gives back the wallet hold, gateway
 * payment and voucher use that no order took (safe to deliver twice; early, it fails and is retried).
 */
export async function onCartCheckoutCheck({ orderId }: { orderId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await cartServicesFor(config).checkout.runCheck(orderId);
  logger.info('checkout check handled', { orderId, outcome });
}
