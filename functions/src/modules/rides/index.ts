// Public face of the rides module: ride statuses for modules that show or link rides, and a ride as a payable.
import type { AppConfig } from '../../platform/core/config';
import { ownRecord, type OwnRecords } from '../../platform/core/module/own-records';
import { paymentCommands } from '../payments';
import type { RideStatus as Status } from './rides.model';

export { RIDE_STATUSES, RIDE_CLASSES, type RideStatus, type RideClass } from './rides.model';

/**
 * A ride as something a voucher is used on (promotions): whose it is, what it costs as the server knows it (the final
 * fare once completed, the quote before), and whether it was called off (cancelled, no driver, expired) or its
 * payment refunded. Rides have no seller partner. Undefined when there is no such ride. Read only.
 */
export interface RidePayable {
  id: string;
  ownerId: string;
  partnerId: null;
  amount: number;
  status: Status;
  /** Cancelled, never served, or refunded: a voucher use on it may be given back. */
  voided: boolean;
  /** Completed: its fare is charged, a voucher comes too late. */
  settled: boolean;
}

const CALLED_OFF: readonly Status[] = ['CANCELLED', 'NO_DRIVER', 'EXPIRED'];

export async function ridePayable(config: Readonly<AppConfig>, rideId: string): Promise<RidePayable | undefined> {
  const { ridesRepo } = require('./rides.repo') as typeof import('./rides.repo');
  const ride = await ridesRepo.get(rideId);
  if (!ride) return undefined;
  let voided = CALLED_OFF.includes(ride.status);
  if (!voided && ride.status === 'COMPLETED' && ride.paymentId) voided = (await paymentCommands(config).get(ride.paymentId)).status === 'REFUNDED';
  return {
    id: ride.id,
    ownerId: ride.riderId,
    partnerId: null,
    amount: ride.fare ?? ride.quote.fare,
    status: ride.status,
    voided,
    settled: ride.status === 'COMPLETED',
  };
}

type RidesService = ReturnType<typeof import('./rides.wiring').ridesServiceFor>;
export type RiderRideView = Awaited<ReturnType<RidesService['get']>>;

/** The user's own rides as their rider reads them (GET /rides, GET /rides/{id}); another's ride reads as absent. */
export function ridesOfRider(config: Readonly<AppConfig>): OwnRecords<RiderRideView> {
  const service = () => (require('./rides.wiring') as typeof import('./rides.wiring')).ridesServiceFor(config);
  return {
    recent: async (userId, limit) => (await service().list({ riderId: userId }, { limit }, userId)).items as RiderRideView[],
    // As a plain party: an administrator asking through the assistant or a ticket reads only their own rides.
    get: async (userId, id) => {
      const ride = await ownRecord(id, () => service().get({ userId, admin: false }, id));
      // The rider's own: its driver may read it too, but it is not theirs to link or ask about.
      return ride?.riderId === userId ? ride : undefined;
    },
  };
}
