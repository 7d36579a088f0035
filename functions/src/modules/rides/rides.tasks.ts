import type { AppConfig } from '../../platform/core/config';
import { logger } from '../../platform/core/logging/logger';
import { ridesServiceFor } from './rides.wiring';

/**
 * The `rideExpiry` task: an active ride past its status's deadline (CONFIRMED 30 minutes, ARRIVED, IN_PROGRESS: see
 * deadlineOf) becomes EXPIRED (driver freed, hold released). Early it fails and Cloud Tasks retries later; reads
 * expire overdue rides too. Safe to deliver twice.
 */
export async function onRideExpiry({ rideId }: { rideId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await ridesServiceFor(config).runExpiry(rideId);
  logger.info('ride expiry handled', { rideId, outcome });
}

/** The `rideHoldCheck` task: a booking's hold that no ride took is released (safe to deliver twice; early, it fails and is retried). */
export async function onRideHoldCheck({ rideId, paymentId }: { rideId: string; paymentId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await ridesServiceFor(config).runHoldCheck(rideId, paymentId);
  logger.info('ride hold check handled', { rideId, outcome });
}
