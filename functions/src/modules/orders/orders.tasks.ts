import type { AppConfig } from '../../platform/core/config';
import { ordersServiceFor } from './orders.wiring';

/** The confirmation timer (at least once): waits for the due time, then cancels the order unless it moved meanwhile. */
export async function onConfirmTimeout(payload: { orderId: string }, config: Readonly<AppConfig>): Promise<void> {
  await ordersServiceFor(config).runConfirmTimeout(payload.orderId);
}

/** A round of the courier search (at least once): nobody free arms the next round; a stale round does nothing. */
export async function onCourierSearch(payload: { orderId: string; attempt?: string }, config: Readonly<AppConfig>): Promise<void> {
  await ordersServiceFor(config).runCourierSearch(payload.orderId, payload.attempt);
}

/** The pickup timer (at least once): releases the courier of that assignment unless they picked the order up. */
export async function onPickupTimeout(payload: { orderId: string; assignment?: string }, config: Readonly<AppConfig>): Promise<void> {
  await ordersServiceFor(config).runPickupTimeout(payload.orderId, payload.assignment);
}
