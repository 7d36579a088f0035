import type { Transaction } from 'firebase-admin/firestore';
import type { SellerRef } from '../merchants';

// The neighbours an order depends on, as ports shaped like their faces: orders.wiring.ts binds the faces, tests pass
// doubles.

export type { PricedLine, SellerKind, SellerRef } from '../merchants';

/** merchants' `sellers`: the store itself, who manages it, and its stock given back when an order is called off. */
export interface SellersPort {
  /** Undefined when there is no such seller or it is not ACTIVE; `accepting`: ACTIVE, not paused, open now. */
  get(ref: SellerRef, tx?: Transaction): Promise<{ name: string; accepting: boolean; openNow: boolean; paused: boolean } | undefined>;
  staffRole(ref: SellerRef, userId: string, tx?: Transaction): Promise<'OWNER' | 'STAFF' | undefined>;
  /** Reads first; the returned function writes. */
  txGiveBack(tx: Transaction, ref: SellerRef, lines: Array<{ itemKey: string; quantity: number }>): Promise<() => void>;
}

/** A driver's live state as the driver module keeps it: opaque here, only handed back to the port. */
export type CourierState = object;
/** Every kind of the driver's jobs (a driver's current job may be another module's). */
export type JobKind = 'ORDER' | 'DELIVERY' | 'SCHOOL_TRIP';

/** driver's `jobPool`: free couriers near a point, and a courier claimed, shared and released in an order's transaction. */
export interface CouriersPort {
  nearbyAvailable(
    center: { lat: number; lng: number },
    radiusM: number,
    capability: 'COURIER' | 'DELIVERY',
    limit: number,
    at: number,
    /** `exclude`: never these (the customer, the couriers who left the job). */
    options?: { exclude?: readonly string[] },
  ): Promise<Array<{ userId: string; lat: number; lng: number; distanceM: number }>>;
  txRead(tx: Transaction, driverId: string): Promise<CourierState | undefined>;
  /** Undefined: taken, offline, stale or without the capability. */
  txClaim(
    tx: Transaction,
    loc: CourierState | undefined,
    job: { kind: JobKind; jobId: string; customerId: string; capability: 'COURIER' | 'DELIVERY'; at: number },
  ): { lat: number; lng: number } | undefined;
  txShareWithCustomer(tx: Transaction, loc: CourierState | undefined, jobId: string, at: number): void;
  /** `gaveUp`: the courier gave the job up themselves (counted; offered no job until `cooldownUntil`). */
  txRelease(tx: Transaction, loc: CourierState | undefined, jobId: string, at: number, gaveUp?: { cooldownUntil: number }): void;
  currentJob(driverId: string): Promise<{ kind: JobKind; id: string } | null>;
  /** The driver's last reported position (`at`: when written), null before any: a photo proof's place check. */
  lastPosition(driverId: string, tx?: Transaction): Promise<{ lat: number; lng: number; at: number } | null>;
}

/** promotions' `promotionCommands(config)`: a voucher's use given back (idempotent per reference). */
export interface PromotionsPort {
  releaseFor(reference: string, reason: string): Promise<void>;
}

/** partners: the members of a partner (its owner is paid, owner and staff are told of new orders). */
export interface PartnersPort {
  members(partnerId: string): Promise<Array<{ userId: string; role: 'OWNER' | 'STAFF' }>>;
}

export interface OrderPorts {
  sellers: SellersPort;
  couriers: CouriersPort;
  promotions: PromotionsPort;
  partners: PartnersPort;
}
