// Public face of the driver module: driver profiles, created in one place (driverRepo.txOpenProfile).
import { driverRepo } from './driver.repo';

export type { Capability, DriverLocation, RideClass, Vehicle } from './driver.model';
export { CAPABILITIES, RIDE_CLASSES, LOCATION_STALE_MS } from './driver.model';

/** Driver availability and positions for ride dispatch (search, claim, release, trip distance). */
export { dispatchPool } from './driver.dispatch';

export const driverProfiles = {
  /** Gives an account a driver profile if it has none (an administrator granting DRIVER). Reads, then writes. */
  txEnsure: (tx: FirebaseFirestore.Transaction, userId: string, now: number) => driverRepo.txOpenProfile(tx, userId, { now }),
};
