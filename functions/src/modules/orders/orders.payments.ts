import type { AppConfig } from '../../platform/core/config';
import type { PaymentOutcome } from '../payments';
import type { OrdersService } from './orders.service';
import { ordersServiceFor } from './orders.wiring';

/**
 * An order's gateway payment reached an outcome (at least once): an order awaiting it is PLACED when paid and
 * CANCELLED otherwise; money paid for an order already called off is refunded. Holds and cash are the order's own.
 */
export async function onOrderPayment(
  outcome: PaymentOutcome,
  config: Readonly<AppConfig>,
  orders: Pick<OrdersService, 'paymentOutcome'> = ordersServiceFor(config),
): Promise<string> {
  if (outcome.method !== 'GATEWAY') return 'not a gateway payment';
  const order = await orders.paymentOutcome(outcome.ref.id, outcome.paymentId, outcome.status === 'SUCCEEDED');
  return order ? order.status : 'no such order';
}
