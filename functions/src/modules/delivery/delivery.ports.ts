import type { Transaction } from 'firebase-admin/firestore';
import type { AppError } from '../../platform/core/errors/app-error';
import type { ErrorCode } from '../../platform/core/errors/codes';
import {
  checkHandoverCode,
  codeProof,
  handoverCodeError,
  newHandoverCodeState,
  photoProof,
  type HandoverCodeCheck,
  type HandoverCodeState,
  type HandoverPhotoLookup,
  type HandoverProof,
} from '../../platform/kits/handover/handover';
import type { paymentCommands } from '../payments';

// The neighbours a parcel depends on, as ports shaped like their faces (the driver module's `jobPool`, the handover
// kit): delivery.wiring.ts binds the faces, tests pass doubles.

/** A driver's live state as the driver module keeps it: opaque here, only handed back to the port. */
export type DriverState = object;
export type JobKind = 'ORDER' | 'DELIVERY';
export type JobCapability = 'COURIER' | 'DELIVERY';

/** driver's `jobPool`: free drivers near a point, and a driver claimed, shared and released in a parcel's transaction. */
export interface JobPoolPort {
  nearbyAvailable(
    center: { lat: number; lng: number },
    radiusM: number,
    capability: JobCapability,
    limit: number,
    at: number,
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
  txRelease(tx: Transaction, loc: DriverState | undefined, jobId: string, at: number): void;
  currentJob(driverId: string): Promise<{ kind: JobKind; id: string } | null>;
}

export type { HandoverCodeCheck, HandoverCodeState, HandoverPhoto, HandoverPhotoLookup, HandoverProof } from '../../platform/kits/handover/handover';

/** The handover kit (platform/kits/handover): codes with an attempts limit, and photo proofs. */
export interface HandoverPort {
  newCodeState(): HandoverCodeState;
  /** WRONG and LOCKED carry the state to store (and commit) before answering the error. */
  checkCode(state: HandoverCodeState, given: string, at: number, maxAttempts?: number): HandoverCodeCheck;
  codeError(check: HandoverCodeCheck, codes: { wrong: ErrorCode; locked: ErrorCode }): AppError | undefined;
  codeProof(by: string, at: number): HandoverProof;
  /** Only the courier's own READY image counts; undefined otherwise. */
  photoProof(lookup: HandoverPhotoLookup, courierId: string, photoId: string, at: number, tx?: Transaction): Promise<HandoverProof | undefined>;
}

/** The port bound to the kit (tests may pass another). */
export const handoverKit: HandoverPort = {
  newCodeState: newHandoverCodeState,
  checkCode: checkHandoverCode,
  codeError: handoverCodeError,
  codeProof,
  photoProof,
};

export type PaymentsPort = Pick<ReturnType<typeof paymentCommands>, 'hold' | 'capture' | 'release' | 'charge' | 'get'>;

export interface DeliveryPorts {
  jobs: JobPoolPort;
  handover: HandoverPort;
  /** The media face's `attachableImage`. */
  photos: HandoverPhotoLookup;
  payments: PaymentsPort;
}
