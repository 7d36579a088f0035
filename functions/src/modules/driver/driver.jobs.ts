import type { Transaction } from 'firebase-admin/firestore';
import type { LatLng } from '../../platform/kits/geo/geo';
import { nearbyPage } from '../../platform/kits/geo/nearby-page';
import { accounts } from '../users';
import { forget } from './driver.dispatch';
import { currentJobOf, isFresh, jobKeysOf, mayDrive, withKeys, type DriverLocation, type JobCapability, type JobKind } from './driver.model';
import { giveUpsRepo, locationsRepo } from './driver.repo';

// Jobs for drivers with the COURIER (food and grocery orders), DELIVERY (parcels) or SCHOOL_TRIP capability, on the same location
// document as rides: `jobKeys` (the capabilities a free driver can take a job by) is recomputed with `dispatchKey` on
// every write, and each is empty while the driver is on a ride or a job, so a driver is never given both. A claim is
// a write in the caller's transaction after `txRead`: two claims of one driver (a ride and a job, or two jobs) are
// serialised by Firestore, and the second one sees the first.

/** Positions one job search reads at most (the geo kit's paging by distance), plus the cooldowns of those it keeps (COOLING_SLACK). */
export const JOB_SEARCH_BUDGET = 200;

/** What a job search leaves out beyond the pool's rules. */
export interface NearbyJobOptions {
  /** Never these drivers (a job's customer, the couriers who left it). */
  exclude?: readonly string[];
  /** Documents read at most (JOB_SEARCH_BUDGET). */
  budget?: number;
}

/** Locations `txRead` returned for an account that may not drive now (locked, DRIVER removed): never claimed. */
const barred = new WeakSet<DriverLocation>();
/** Until when the driver of a location `txRead` returned is offered no job (their last give-up's cooldown). */
const cooldownOf = new WeakMap<DriverLocation, number>();
const coolingDown = (loc: DriverLocation, at: number): boolean => (cooldownOf.get(loc) ?? 0) > at;

/**
 * How many more drivers than asked a job search takes, so that drivers cooling down after a give-up (known only after
 * the search) do not leave it short: it comes back short only when more than (COOLING_SLACK − 1) × `limit` of the
 * nearest are cooling down at once, and costs at most this × `limit` cooldown reads.
 */
const COOLING_SLACK = 3;

export interface JobClaim {
  kind: JobKind;
  jobId: string;
  customerId: string;
  capability: JobCapability;
  at: number;
  /** Shared with the customer from the claim on (a school trip: the parent follows the car from when it sets off). */
  shareAtOnce?: boolean;
}

/** What the orders, parcel delivery and schools modules read and change of drivers, each in the caller's transaction where it says so. */
export const jobPool = {
  /**
   * ONLINE drivers with the capability, free (no ride, no job), heard from in the last 10 minutes, not cooling down
   * after a give-up, within `radiusM`, nearest first, reading at most `budget` positions and COOLING_SLACK × `limit`
   * cooldowns. `exclude`: never these (a job's customer, the couriers who left it); they do not count against `limit`.
   */
  async nearbyAvailable(center: LatLng, radiusM: number, capability: JobCapability, limit: number, at: number, options: NearbyJobOptions = {}) {
    const exclude = new Set(options.exclude ?? []);
    // The cooldowns are server-only (not on the location document): the search takes COOLING_SLACK× `limit` drivers
    // within its one budget, reads their cooldowns in one batch and keeps the first `limit` not cooling down.
    const found = await nearbyPage({
      center,
      radiusM,
      limit: limit * COOLING_SLACK,
      budget: options.budget ?? JOB_SEARCH_BUDGET,
      read: async (start, end, max, afterId, endId) =>
        (await locationsRepo.availableForJobs(capability, start, end, max, afterId, endId)) as Array<DriverLocation & { id: string; geohash: string }>,
      pointOf: (l) => ({ lat: l.lat!, lng: l.lng! }),
      keep: (l) => !exclude.has(l.userId) && isFresh(l, at) && jobKeysOf(l).includes(capability),
    });
    const until = await giveUpsRepo.cooldowns(found.items.map(({ item }) => item.userId));
    return found.items
      .filter(({ item }) => (until.get(item.userId) ?? 0) <= at)
      .slice(0, limit)
      .map(({ item, distanceM }) => ({ userId: item.userId, lat: item.lat!, lng: item.lng!, distanceM: Math.round(distanceM) }));
  },

  /** Reads the driver's location document, account and give-ups in the caller's transaction (before its writes). */
  async txRead(tx: Transaction, driverId: string): Promise<DriverLocation | undefined> {
    const [loc, account, giveUps] = await Promise.all([locationsRepo.get(driverId, tx), accounts.get(driverId, tx), giveUpsRepo.get(driverId, tx)]);
    if (loc && !mayDrive(account)) barred.add(loc);
    if (loc && giveUps.cooldownUntil !== null) cooldownOf.set(loc, giveUps.cooldownUntil);
    return loc;
  },

  /**
   * Gives the driver the job if they are still free, ONLINE, fresh, capable and allowed to drive (pass what `txRead`
   * returned), and are not the job's customer (nobody earns from carrying their own order); undefined otherwise. A
   * driver already on this very job is answered with their position and nothing is written: a repeated claim (a
   * retried command, a trigger delivered twice) is not a refusal.
   */
  txClaim(tx: Transaction, loc: DriverLocation | undefined, job: JobClaim): LatLng | undefined {
    if (!loc || loc.lat === null || loc.lng === null) return undefined;
    if (loc.currentJobId === job.jobId && loc.currentJobKind === job.kind) return { lat: loc.lat, lng: loc.lng };
    if (barred.has(loc) || loc.userId === job.customerId || !jobKeysOf(loc).includes(job.capability) || !isFresh(loc, job.at)) return undefined;
    if (coolingDown(loc, job.at)) return undefined;
    forget(loc.userId);
    locationsRepo.set(
      tx,
      withKeys({
        ...loc,
        currentJobId: job.jobId,
        currentJobKind: job.kind,
        jobCustomerId: job.customerId,
        sharedWithId: job.shareAtOnce ? job.customerId : null,
        updatedAt: job.at,
      }),
    );
    return { lat: loc.lat, lng: loc.lng };
  },

  /**
   * From now on the job's customer reads the driver's location document (firestore.rules) and hears each written
   * position as `courier:location` (e.g. from pickup). A no-op unless the driver is on this job (or already sharing).
   */
  txShareWithCustomer(tx: Transaction, loc: DriverLocation | undefined, jobId: string, at: number): void {
    if (!loc || loc.currentJobId !== jobId || !loc.jobCustomerId || loc.sharedWithId === loc.jobCustomerId) return;
    forget(loc.userId);
    locationsRepo.set(tx, { ...loc, sharedWithId: loc.jobCustomerId, updatedAt: at });
  },

  /**
   * Frees the driver of this job and stops sharing (a no-op if they are on something else). `gaveUp`: they gave it up
   * themselves: counted, and offered no job until `cooldownUntil`.
   */
  txRelease(tx: Transaction, loc: DriverLocation | undefined, jobId: string, at: number, gaveUp?: { cooldownUntil: number }): void {
    if (!loc || loc.currentJobId !== jobId) return;
    forget(loc.userId);
    locationsRepo.set(tx, withKeys({ ...loc, currentJobId: null, currentJobKind: null, jobCustomerId: null, sharedWithId: null, updatedAt: at }));
    if (gaveUp) giveUpsRepo.txCount(tx, loc.userId, at, Math.max(gaveUp.cooldownUntil, cooldownOf.get(loc) ?? 0));
  },

  /** The jobs the driver gave up before pickup, ever, and until when they are offered none (operators' view). */
  giveUps: (driverId: string): Promise<{ count: number; cooldownUntil: number | null }> => giveUpsRepo.get(driverId),

  /** The driver's last reported position and when it was written (null before the first report): a handover photo's check. */
  async lastPosition(driverId: string, tx?: Transaction): Promise<{ lat: number; lng: number; at: number } | null> {
    const loc = await locationsRepo.get(driverId, tx);
    if (!loc || loc.lat === null || loc.lng === null || loc.locatedAt === null) return null;
    return { lat: loc.lat, lng: loc.lng, at: loc.locatedAt };
  },

  /** The driver's current job, if any (the courier app's "current job" screen). */
  async currentJob(driverId: string): Promise<{ kind: JobKind; id: string } | null> {
    return currentJobOf(await locationsRepo.get(driverId));
  },
};
