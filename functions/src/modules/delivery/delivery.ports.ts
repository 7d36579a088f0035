import type { Transaction } from 'firebase-admin/firestore';
import type { HandoverPhotoLookup } from '../../platform/kits/handover/handover';
import type { paymentCommands } from '../payments';

// The neighbours a parcel depends on, as ports shaped like their faces (the driver module's `jobPool`, the media
// face's images): delivery.wiring.ts binds the faces, tests pass doubles. Hand-overs use the handover kit directly.

/** A driver's live state as the driver module keeps it: opaque here, only handed back to the port. */
export type DriverState = object;
/** Every kind of the driver's jobs (a driver's current job may be another module's). */
export type JobKind = 'ORDER' | 'DELIVERY' | 'SCHOOL_TRIP';
export type JobCapability = 'COURIER' | 'DELIVERY';

/** driver's `jobPool`: free drivers near a point, and a driver claimed, shared and released in a parcel's transaction. */
export interface JobPoolPort {
  nearbyAvailable(
    center: { lat: number; lng: number },
    radiusM: number,
    capability: JobCapability,
    limit: number,
    at: number,
    /** `exclude`: never these (the customer, the couriers who left the job). */
    options?: { exclude?: readonly string[] },
  ): Promise<Array<{ userId: string; lat: number; lng: number; distanceM: number }>>;
  txRead(tx: Transaction, driverId: string): Promise<DriverState | undefined>;
  /** Undefined: taken, offline, stale or without the capability. */
  txClaim(
    tx: Transaction,
    loc: DriverState | undefined,
    job: { kind: JobKind; jobId: string; customerId: string; capability: JobCapability; at: number },
  ): { lat: number; lng: number } | undefined;
  /** From now on the job's customer sees the driver's live position. */
  txShareWithCustomer(tx: Transaction, loc: DriverState | undefined, jobId: string, at: number): void;
  /** `gaveUp`: the courier gave the job up themselves (counted; offered no job until `cooldownUntil`). */
  txRelease(tx: Transaction, loc: DriverState | undefined, jobId: string, at: number, gaveUp?: { cooldownUntil: number }): void;
  currentJob(driverId: string): Promise<{ kind: JobKind; id: string } | null>;
  /** The driver's last reported position (`at`: when written), null before any: a photo proof's place check. */
  lastPosition(driverId: string, tx?: Transaction): Promise<{ lat: number; lng: number; at: number } | null>;
}

export type { HandoverCodeCheck, HandoverCodeState, HandoverPhoto, HandoverPhotoLookup, HandoverProof } from '../../platform/kits/handover/handover';

export type PaymentsPort = Pick<ReturnType<typeof paymentCommands>, 'hold' | 'capture' | 'release' | 'charge' | 'get'>;

export interface DeliveryPorts {
  jobs: JobPoolPort;
  /** The media face's `attachableImage`. */
  photos: HandoverPhotoLookup;
  payments: PaymentsPort;
}
