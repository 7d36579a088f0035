import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { plainCollection, readRecord } from '../../platform/kits/firestore/records';
import { storedFields } from '../../platform/kits/firestore/documents';
import { DRIVER_JOB_GIVE_UPS } from './driver.collections';
import {
  DEFAULT_CAPABILITIES,
  dispatchKeyOf,
  jobKeysOf,
  DRIVER_LOCATIONS,
  DRIVER_PROFILES,
  driverLocationDocument,
  rideClassOf,
  type Capability,
  type DriverLocation,
  type DriverProfile,
  type JobCapability,
  type RideClass,
  type Vehicle,
} from './driver.model';

const profiles = () => db().collection(DRIVER_PROFILES);
const locations = () => plainCollection<DriverLocation>(DRIVER_LOCATIONS, driverLocationDocument);

export const driverRepo = {
  ref: (userId: string) => profiles().doc(userId),
  async get(userId: string, tx?: Transaction): Promise<DriverProfile | undefined> {
    return readRecord(plainCollection<DriverProfile>(DRIVER_PROFILES).doc(userId), tx);
  },
  /**
   * The one way a driver profile comes to be (approval of an application, or an administrator granting
   * DRIVER). Reads, then writes: call it after the transaction's other reads. A missing profile is created
   * OFFLINE with `capabilities` (default RIDE, COURIER, DELIVERY); an existing one keeps status and location
   * and takes the given capabilities and vehicle, if any.
   */
  async txOpenProfile(tx: Transaction, userId: string, opts: { capabilities?: Capability[]; vehicle?: Vehicle | null; now: number }): Promise<void> {
    const ref = profiles().doc(userId);
    const exists = (await tx.get(ref)).exists;
    const capabilities = opts.capabilities ? [...new Set(opts.capabilities)] : undefined;
    // Dispatch reads capabilities and vehicle from the location document: a re-approval changes both at once.
    const location = exists && capabilities ? await readRecord(locations().doc(userId), tx) : undefined;
    if (!exists) {
      const profile: DriverProfile = {
        userId,
        capabilities: capabilities ?? [...DEFAULT_CAPABILITIES],
        vehicle: opts.vehicle ?? null,
        status: 'OFFLINE',
        lastLocation: null,
        approvedAt: opts.now,
        createdAt: opts.now,
        updatedAt: opts.now,
      };
      tx.create(ref, profile);
    } else if (capabilities) {
      tx.set(ref, { capabilities, vehicle: opts.vehicle ?? null, approvedAt: opts.now, updatedAt: opts.now }, { merge: true });
      if (location) {
        const synced = { ...location, capabilities, rideClass: rideClassOf(opts.vehicle ?? null) };
        tx.update(
          locations().doc(userId),
          storedFields(driverLocationDocument, {
            capabilities,
            rideClass: synced.rideClass,
            dispatchKey: dispatchKeyOf(synced),
            jobKeys: jobKeysOf(synced),
            updatedAt: opts.now,
          }),
        );
      }
    }
  },
  async update(userId: string, patch: Partial<DriverProfile>): Promise<void> {
    await profiles().doc(userId).update(patch);
  },
  // Backfill: approved drivers whose capabilities are missing or empty, in pages.
  async *withoutCapabilities(pageSize = 300): AsyncGenerator<FirebaseFirestore.QueryDocumentSnapshot[]> {
    let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
    for (;;) {
      let query = profiles().orderBy('__name__').limit(pageSize);
      if (last) query = query.startAfter(last);
      const snap = await query.get();
      if (snap.empty) return;
      last = snap.docs[snap.size - 1];
      yield snap.docs.filter((d) => {
        const caps = d.get('capabilities') as unknown;
        return d.get('approvedAt') && (!Array.isArray(caps) || caps.length === 0);
      });
    }
  },
};

export const locationsRepo = {
  ref: (userId: string) => locations().doc(userId),
  get: (userId: string, tx?: Transaction) => readRecord(locations().doc(userId), tx),
  /** Available drivers of a class in one geohash range (the search's range query). */
  async availableInRange(rideClass: RideClass, start: string, end: string, max?: number): Promise<Array<DriverLocation & { id: string }>> {
    const range = locations().where('dispatchKey', '==', rideClass).orderBy('geohash').startAt(start).endAt(end);
    const snap = await (max === undefined ? range : range.limit(max)).get();
    return snap.docs.map((d) => ({ ...d.data(), id: d.id }));
  },
  /**
   * At most `max` drivers available for jobs of a capability in one geohash range, by geohash then id (the geo kit
   * pages by distance over these); `afterId` / `endId` resume or stop inside a geohash. Index (jobKeys, geohash, __name__).
   */
  async availableForJobs(capability: JobCapability, start: string, end: string, max: number, afterId?: string, endId?: string) {
    const { FieldPath } = firestoreApi();
    const ordered = locations().where('jobKeys', 'array-contains', capability).orderBy('geohash').orderBy(FieldPath.documentId());
    const started = afterId !== undefined ? ordered.startAfter(start, afterId) : ordered.startAt(start);
    const snap = await (endId !== undefined ? started.endAt(end, endId) : started.endAt(end)).limit(max).get();
    return snap.docs.map((d) => ({ ...d.data(), id: d.id }));
  },
  async countAvailable(rideClass: RideClass): Promise<number> {
    return (await locations().where('dispatchKey', '==', rideClass).count().get()).data().count;
  },
  async countAvailableInCell(rideClass: RideClass, cell: string): Promise<number> {
    const snap = await locations().where('dispatchKey', '==', rideClass).orderBy('geohash').startAt(cell).endAt(`${cell}~`).count().get();
    return snap.data().count;
  },
  /** The whole document (`npm run module -- driver:drop-retired-cooldowns` cleared a field retired from it). */
  set(tx: Transaction, record: DriverLocation): void {
    tx.set(locations().doc(record.userId), record);
  },
};

const cooldownIn = (snap: DocumentSnapshot): number | null => {
  const until = snap.get('cooldownUntil') as unknown;
  return typeof until === 'number' ? until : null;
};

// `driver_job_give_ups/{userId}`, server-only (the location document is read by a rider or a job's customer): how many
// jobs the driver gave up, the last one, and until when they are offered no job (epoch ms, like `lastAt`). The count
// is written without a read (the caller's transaction is in its writes).
export const giveUpsRepo = {
  txCount(tx: Transaction, driverId: string, at: number, cooldownUntil: number): void {
    tx.set(db().collection(DRIVER_JOB_GIVE_UPS).doc(driverId), { count: firestoreApi().FieldValue.increment(1), lastAt: at, cooldownUntil }, { merge: true });
  },
  async get(driverId: string, tx?: Transaction): Promise<{ count: number; cooldownUntil: number | null }> {
    const ref = db().collection(DRIVER_JOB_GIVE_UPS).doc(driverId);
    const snap = tx ? await tx.get(ref) : await ref.get();
    return { count: (snap.get('count') as number | undefined) ?? 0, cooldownUntil: cooldownIn(snap) };
  },
  /** Until when each of these drivers is offered no job (absent: never gave one up). One batched read. */
  async cooldowns(driverIds: readonly string[]): Promise<Map<string, number>> {
    if (driverIds.length === 0) return new Map();
    const snaps = await db().getAll(...driverIds.map((id) => db().collection(DRIVER_JOB_GIVE_UPS).doc(id)));
    return new Map(snaps.flatMap((s) => (cooldownIn(s) === null ? [] : [[s.id, cooldownIn(s)!] as const])));
  },
};
