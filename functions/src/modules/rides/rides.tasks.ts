import type { AppConfig } from '../../platform/config';
import { logger } from '../../platform/logging/logger';
import { ridesServiceFor } from './rides.wiring';

/**
 * The `rideExpiry` task: a ride still CONFIRMED 30 minutes after its driver was given becomes EXPIRED (driver freed,
 * hold released). Early (the Tasks emulator ignores schedule times) it fails and Cloud Tasks retries later; reads
 * expire overdue rides too. Safe to deliver twice.
 */
export async function onRideExpiry({ rideId }: { rideId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await ridesServiceFor(config).expireIfDue(rideId);
  if (outcome === 'not-due') throw new Error(`ride ${rideId} is not due yet: retry later`);
  logger.info('ride expiry handled', { rideId, outcome });
}
