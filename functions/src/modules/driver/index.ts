// Public face of the driver module: driver profiles, created in one place (driverRepo.txOpenProfile).
import { driverRepo } from './driver.repo';

export type { Capability, Vehicle } from './driver.model';
export { CAPABILITIES } from './driver.model';

export const driverProfiles = {
  /** Gives an account a driver profile if it has none (an administrator granting DRIVER). Reads, then writes. */
  txEnsure: (tx: FirebaseFirestore.Transaction, userId: string, now: number) => driverRepo.txOpenProfile(tx, userId, { now }),
};
