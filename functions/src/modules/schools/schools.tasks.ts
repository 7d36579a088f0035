import type { AppConfig } from '../../platform/core/config';
import { createSchoolTripDays } from './schools.trips.days';

/** A school trip's timer (at least once): expired when still not set off, or not closed, by its due time. */
export async function onTripExpiry(payload: { tripId: string; armedFor?: string }, config: Readonly<AppConfig>): Promise<void> {
  await createSchoolTripDays(config).expire(payload.tripId, payload.armedFor === undefined ? undefined : Number(payload.armedFor));
}
