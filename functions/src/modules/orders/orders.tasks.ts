import type { AppConfig } from '../../platform/core/config';
import { ordersServiceFor } from './orders.wiring';

/** The confirmation timer (at least once): waits for the due time, then cancels the order unless it moved meanwhile. */
export async function onConfirmTimeout(payload: { orderId: string }, config: Readonly<AppConfig>): Promise<void> {
  await ordersServiceFor(config).runConfirmTimeout(payload.orderId);
}

/** The courier search (at least once): nobody free throws, and the queue retries it. */
export async function onCourierSearch(payload: { orderId: string }, config: Readonly<AppConfig>): Promise<void> {
  await ordersServiceFor(config).runCourierSearch(payload.orderId);
}
