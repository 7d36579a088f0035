import type { AppConfig } from '../../platform/core/config';
import { deliveryServiceFor } from './delivery.wiring';

/** The no-driver timer (at least once): a parcel still CREATED at the end of its window ends NO_DRIVER, its hold given back. */
export async function onDeliveryNoDriver(payload: { deliveryId: string; holdPaymentId?: string }, config: Readonly<AppConfig>): Promise<void> {
  await deliveryServiceFor(config).runNoDriver(payload);
}

/** A new search for a driver of a parcel nobody took yet (at least once: a parcel taken meanwhile is left alone). */
export async function onDeliveryDispatch(payload: { deliveryId: string }, config: Readonly<AppConfig>): Promise<void> {
  await deliveryServiceFor(config).runDispatch(payload.deliveryId);
}

/** The pickup timer (at least once): releases the driver of that assignment unless they picked the parcel up. */
export async function onDeliveryPickupTimeout(payload: { deliveryId: string; assignment?: string }, config: Readonly<AppConfig>): Promise<void> {
  await deliveryServiceFor(config).runPickupTimeout(payload.deliveryId, payload.assignment);
}
