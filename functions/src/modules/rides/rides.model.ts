import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LatLng } from '../../platform/geo/geo';
import { defineMachine } from '../../platform/state-machine/state-machine';
import * as z from 'zod/mini';
import { defineTaskQueue, documentTaskQueue } from '../../platform/tasks/tasks';

export const RIDES = 'rides';
/** `rider_rides/{riderId}`: the rider's active ride, so two requests cannot give one rider two cars. */
export const RIDER_ACTIVE = 'rider_rides';
/** `driver_ratings/{driverId}`: count and sum of the stars riders gave (average = sum / count). */
export const DRIVER_RATINGS = 'driver_ratings';
/** `rider_ratings/{riderId}`: the same for the stars drivers gave the rider. */
export const RIDER_RATINGS = 'rider_ratings';
/** `ride_rider_ratings/{rideId}`: the driver's rating of the rider, apart from the ride document the rider reads. */
export const RIDE_RIDER_RATINGS = 'ride_rider_ratings';
/** `ride_driver_ratings/{rideId}`: the rider's rating of the driver, apart from the ride document the driver reads. */
export const RIDE_DRIVER_RATINGS = 'ride_driver_ratings';
export const RIDE_SOS = 'ride_sos';

/** `ride_disputes/{rideId}`: a rider's dispute of a completed ride (one per ride), for the administrators' queue. */
export const RIDE_DISPUTES = 'ride_disputes';

export const RIDE_EXPIRY_QUEUE = documentTaskQueue('rideExpiry', 'rideId');
/** A booking's wallet hold, checked after RIDE_HOLD_EXPIRY_SEC: released when no ride took it. */
export const RIDE_HOLD_CHECK_QUEUE = defineTaskQueue('rideHoldCheck', z.object({ rideId: z.string().check(z.minLength(1), z.maxLength(100)), paymentId: z.string().check(z.minLength(1), z.maxLength(200)) }));

export const RIDE_CLASSES = ['MOTORBIKE', 'CAR', 'CAR_7'] as const;
export type RideClass = (typeof RIDE_CLASSES)[number];
export const RIDE_STATUSES = ['CONFIRMED', 'ARRIVED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED', 'NO_DRIVER', 'EXPIRED'] as const;
export type RideStatus = (typeof RIDE_STATUSES)[number];
export const ACTIVE_STATUSES: readonly RideStatus[] = ['CONFIRMED', 'ARRIVED', 'IN_PROGRESS'];
export const PAYMENT_METHODS = ['CASH', 'WALLET'] as const;
export type RidePaymentMethod = (typeof PAYMENT_METHODS)[number];

export type RideAction = 'arrive' | 'pickup' | 'complete' | 'cancel' | 'abort' | 'reassign' | 'abandon' | 'expire' | 'noShow';
export type RideActor = 'rider' | 'driver' | 'admin' | 'system';

// The trip's life cycle. A driver who cancels sends the ride back to the search once (reassign), or it ends
// NO_DRIVER (abandon). Every active status has a timer (expire): a driver who never arrives, a pickup that never
// happens, a trip that never ends. A started trip ends by its driver, or by an administrator (complete, abort); one
// whose timer runs out is completed by the system at the distance driven (see timedOutFare), never EXPIRED free.
// A driver who waited at the pickup ends the ride as a no-show (the rider's late-cancel fee).
export const rideMachine = defineMachine<RideStatus, RideAction, RideActor>({
  entity: 'ride',
  states: RIDE_STATUSES,
  moves: {
    arrive: { from: 'CONFIRMED', to: 'ARRIVED', by: 'driver' },
    pickup: { from: 'ARRIVED', to: 'IN_PROGRESS', by: 'driver' },
    complete: { from: 'IN_PROGRESS', to: 'COMPLETED', by: ['driver', 'admin', 'system'] },
    cancel: { from: ['CONFIRMED', 'ARRIVED'], to: 'CANCELLED', by: ['rider', 'admin'] },
    abort: { from: 'IN_PROGRESS', to: 'CANCELLED', by: 'admin' },
    reassign: { from: ['CONFIRMED', 'ARRIVED'], to: 'CONFIRMED', by: ['driver', 'admin'] },
    abandon: { from: ['CONFIRMED', 'ARRIVED'], to: 'NO_DRIVER', by: ['driver', 'admin'] },
    expire: { from: ['CONFIRMED', 'ARRIVED'], to: 'EXPIRED', by: 'system' },
    noShow: { from: 'ARRIVED', to: 'CANCELLED', by: 'driver' },
  },
  codes: { transition: 'RIDE_TRANSITION', actor: 'RIDE_NOT_ALLOWED' },
});

/** Fares in VND: base, per km, per minute, and the least a trip costs. */
export const FARES: Record<RideClass, { base: number; perKm: number; perMin: number; min: number }> = {
  MOTORBIKE: { base: 10_000, perKm: 4_300, perMin: 300, min: 13_000 },
  CAR: { base: 25_000, perKm: 9_800, perMin: 500, min: 32_000 },
  CAR_7: { base: 30_000, perKm: 11_800, perMin: 600, min: 40_000 },
};
export const SURGE_MAX_BP = 20_000;
export const QUOTE_TTL_MS = 5 * 60_000;
/** The final fare may exceed the quote by at most this much (longer detours are the platform's loss). */
export const FINAL_FARE_CAP_BP = 12_000;

/** A fare: the tariff over distance and time, times the surge, rounded up to 1,000 VND; never below the minimum. */
export function fareOf(rideClass: RideClass, distanceM: number, durationSec: number, surgeBp = 10_000): number {
  const t = FARES[rideClass];
  const raw = t.base + (t.perKm * distanceM) / 1000 + (t.perMin * durationSec) / 60;
  const surged = (Math.max(t.min, raw) * surgeBp) / 10_000;
  return Math.ceil(surged / 1000) * 1000;
}

/** The most a trip's final fare may be: the quote × FINAL_FARE_CAP_BP, rounded up to 1,000 VND. */
export const fareCapOf = (quotedFare: number) => Math.ceil((quotedFare * FINAL_FARE_CAP_BP) / 10_000 / 1000) * 1000;

/**
 * A started trip whose IN_PROGRESS timer ran out (the driver never pressed complete): it completes at the distance
 * driven and at most the quoted duration (the overrun is not the rider's), never above the cap; with nothing driven
 * that is the class's minimum fare. CASH is then recorded with the commission owed, WALLET captured from the hold.
 */
export function timedOutFare(ride: Pick<RideRecord, 'rideClass' | 'quote' | 'pickedUpAt'>, drivenM: number, at: number): { fare: number; drivenM: number } {
  const elapsedSec = ride.pickedUpAt === null ? 0 : Math.max(0, Math.round((at - ride.pickedUpAt) / 1000));
  const driven = Math.max(0, Math.round(drivenM));
  return { fare: Math.min(fareOf(ride.rideClass, driven, Math.min(elapsedSec, ride.quote.durationSec), ride.quote.surgeBp), fareCapOf(ride.quote.fare)), drivenM: driven };
}

/** Surge from demand (rides asked in the pickup's cell, last 10 minutes) over supply (free drivers there), capped at 2×. */
export function surgeOf(demand: number, supply: number): number {
  const pressure = demand / Math.max(1, supply);
  if (pressure <= 1) return 10_000;
  return Math.min(SURGE_MAX_BP, Math.round(10_000 + 2_500 * (pressure - 1)));
}

export interface Place extends LatLng {
  address?: string | null;
}

/** What a quote promises; its id carries it signed, so the server stores nothing and nobody can change it. */
export interface QuoteTerms {
  riderId: string;
  rideClass: RideClass;
  pickup: LatLng;
  dropoff: LatLng;
  fare: number;
  distanceM: number;
  durationSec: number;
  surgeBp: number;
  expiresAt: number;
}

export function signQuote(terms: QuoteTerms, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(terms)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The terms of a quote id made by `signQuote` with this key; undefined when forged, altered or malformed. */
export function readQuote(quoteId: string, key: Buffer): QuoteTerms | undefined {
  const [body, signature, extra] = quoteId.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as QuoteTerms;
  } catch {
    return undefined;
  }
}

export interface RideRecord {
  id: string;
  riderId: string;
  driverId: string | null;
  /** Rider and driver: who may read the ride document (firestore.rules). */
  participants: string[];
  status: RideStatus;
  rideClass: RideClass;
  pickup: Place;
  dropoff: Place;
  /** The pickup's geohash cell, counted as demand by surge; null once a cancellation within the grace period took it out. */
  pickupCell: string | null;
  quote: { fare: number; distanceM: number; durationSec: number; surgeBp: number };
  paymentMethod: RidePaymentMethod;
  /** WALLET: the hold placed at booking; then the payment that settled the ride. */
  holdPaymentId: string | null;
  paymentId: string | null;
  fare: number | null;
  drivenM: number | null;
  cancellationFee: number;
  driver: { name: string; vehicle: { type: string; plate: string; model: string | null; color: string | null } | null; rating: number | null } | null;
  etaToPickupSec: number | null;
  excludedDriverIds: string[];
  reassignments: number;
  note: string | null;
  cancelledBy: RideActor | null;
  cancelReason: string | null;
  /** Rides rated before ratings moved to `ride_driver_ratings` only (never written now: the driver reads this document). */
  rating: { stars: number; comment: string | null } | null;
  /** The rider's trip link: the hash of its token, until when it works. */
  share?: { tokenHash: string; expiresAt: number } | null;
  createdAt: number;
  confirmedAt: number | null;
  arrivedAt: number | null;
  pickedUpAt: number | null;
  completedAt: number | null;
  endedAt: number | null;
  updatedAt: number;
}

export const RIDE_EXPIRY_MS = 30 * 60_000;

/** The reasons the service itself gives for ending a ride: stored as written here (API data, English); notices say them in the reader's language. */
export const RIDE_SYSTEM_REASONS = {
  riderNoShow: 'The rider did not come to the pickup',
  driverLate: 'The driver did not arrive within 30 minutes',
  startLate: 'The trip did not start in time after the driver arrived',
  tripOverdue: 'The trip did not end in time: completed at the distance driven',
} as const;
export type RideSystemReason = keyof typeof RIDE_SYSTEM_REASONS;

/** How long each active status may last (RIDE_ARRIVED_TIMEOUT_SEC, RIDE_TRIP_TIMEOUT_FACTOR, RIDE_TRIP_TIMEOUT_MIN_SEC). */
export interface RideTimeouts {
  arrivedSec: number;
  tripFactor: number;
  tripMinSec: number;
}

/**
 * When the ride's current status runs out, or null (not active): CONFIRMED 30 minutes after the driver was given,
 * ARRIVED after the wait at the pickup, IN_PROGRESS after a multiple of the quoted duration (at least a floor).
 */
export function deadlineOf(ride: Pick<RideRecord, 'status' | 'confirmedAt' | 'arrivedAt' | 'pickedUpAt' | 'quote'>, limits: RideTimeouts): number | null {
  if (ride.status === 'CONFIRMED' && ride.confirmedAt !== null) return ride.confirmedAt + RIDE_EXPIRY_MS;
  if (ride.status === 'ARRIVED' && ride.arrivedAt !== null) return ride.arrivedAt + limits.arrivedSec * 1000;
  if (ride.status === 'IN_PROGRESS' && ride.pickedUpAt !== null) return ride.pickedUpAt + Math.max(limits.tripMinSec, ride.quote.durationSec * limits.tripFactor) * 1000;
  return null;
}

/** An active ride past its status's deadline is over (a lost timer cannot keep it). */
export function isOverdue(ride: Pick<RideRecord, 'status' | 'confirmedAt' | 'arrivedAt' | 'pickedUpAt' | 'quote'>, now: number, limits: RideTimeouts): boolean {
  const deadline = deadlineOf(ride, limits);
  return deadline !== null && now >= deadline;
}

/**
 * Whether the driver's position may justify `arrived`, `complete` or a no-show: the last report is within
 * `freshSec` of now AND came within `freshSec` of the report before it. The first position after a long gap (which
 * the jump check lets go far, the time being long) counts only once a following report confirms it.
 */
export function isFreshPosition(loc: { locatedAt: number | null; prevLocatedAt?: number | null }, at: number, freshSec: number): boolean {
  const window = freshSec * 1000;
  return loc.locatedAt !== null && at - loc.locatedAt <= window && loc.prevLocatedAt != null && loc.locatedAt - loc.prevLocatedAt <= window;
}

export function rideView(r: RideRecord) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: r.id,
    riderId: r.riderId,
    driverId: r.driverId,
    status: r.status,
    vehicleType: r.rideClass,
    pickup: r.pickup,
    dropoff: r.dropoff,
    quote: r.quote,
    paymentMethod: r.paymentMethod,
    paymentId: r.paymentId ?? r.holdPaymentId,
    fare: r.fare,
    drivenM: r.drivenM,
    cancellationFee: r.cancellationFee,
    driver: r.driver,
    etaToPickupSec: r.etaToPickupSec,
    note: r.note,
    cancelledBy: r.cancelledBy,
    cancelReason: r.cancelReason,
    rating: r.rating,
    createdAt: iso(r.createdAt)!,
    confirmedAt: iso(r.confirmedAt),
    arrivedAt: iso(r.arrivedAt),
    pickedUpAt: iso(r.pickedUpAt),
    completedAt: iso(r.completedAt),
    endedAt: iso(r.endedAt),
    updatedAt: iso(r.updatedAt)!,
  };
}
export type RideView = ReturnType<typeof rideView>;

/** The chat of a ride with one driver: a reassigned ride starts a new one, and the old driver's is closed. */
export const rideChatContext = (rideId: string, driverId: string) => ({ type: 'RIDE' as const, id: `${rideId}_${driverId}` });
