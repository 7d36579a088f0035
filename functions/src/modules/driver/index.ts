// Public face of the driver module: driver profiles, created in one place (driverRepo.txOpenProfile).
import { driverRepo } from './driver.repo';

export type { Capability, DriverLocation, JobCapability, JobKind, RideClass, Vehicle } from './driver.model';
export { CAPABILITIES, JOB_CAPABILITIES, JOB_KINDS, RIDE_CLASSES, LOCATION_STALE_MS } from './driver.model';

/** Driver availability and positions for ride dispatch (search, claim, release, trip distance). */
export { dispatchPool } from './driver.dispatch';

/**
 * Drivers for jobs (orders: COURIER; parcels: DELIVERY; school trips: SCHOOL_TRIP): search, claim, share the live position with the customer,
 * release. A driver is never on a ride and a job at once.
 */
export { jobPool, JOB_SEARCH_BUDGET, type JobClaim, type NearbyJobOptions } from './driver.jobs';

/**
 * A courier leaving a job before pickup, shared by orders and parcels: who left it (never offered it again), the
 * give-up's retry answer, the pickup window's deadline (one task per assignment) and its task, the give-up's body.
 */
export {
  assignmentOf,
  definePickupWindow,
  formerAfterLeaving,
  giveUpJob,
  isFormerCourier,
  JobGiveUpBodySchema,
  JobGiveUpsSchema,
  ReleaseNotDue,
  releaseUnlessNotDue,
  runPickupTimeout,
  type ReleasableJob,
} from './driver.release';

export const driverProfiles = {
  /** The profile's capabilities as an administrator last set them ([] without a profile), in the caller's transaction. */
  txCapabilities: async (tx: FirebaseFirestore.Transaction, userId: string) => (await driverRepo.get(userId, tx))?.capabilities ?? [],
  /** The profile's capabilities and vehicle (undefined without a profile), in the caller's transaction. */
  txProfile: async (tx: FirebaseFirestore.Transaction, userId: string) => {
    const profile = await driverRepo.get(userId, tx);
    return profile ? { capabilities: profile.capabilities ?? [], vehicle: profile.vehicle ?? null } : undefined;
  },
  /** Gives an account a driver profile if it has none (an administrator granting DRIVER). Reads, then writes. */
  txEnsure: (tx: FirebaseFirestore.Transaction, userId: string, now: number) => driverRepo.txOpenProfile(tx, userId, { now }),
};
