import { readSignedTerms, signTerms } from '../../platform/kits/ids/signed';
import type { LatLng } from '../../platform/kits/geo/geo';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { clampVnd, exactVnd, maxExact, rateTimes, roundExact, sumExact, timesBp, vnd, type Vnd } from '../../platform/kits/money/money';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { RIDE_CLASSES, type RideClass } from '../routing';

export {
  DRIVER_RATINGS,
  RIDE_DISPUTES,
  RIDE_DRIVER_RATINGS,
  RIDE_EXPIRY_QUEUE,
  RIDE_HOLD_CHECK_QUEUE,
  RIDE_RIDER_RATINGS,
  RIDE_SOS,
  RIDER_ACTIVE,
  RIDER_RATINGS,
  RIDES,
} from './rides.collections';

export { RIDE_CLASSES, type RideClass };
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
export const FARES: Record<RideClass, { base: Vnd; perKm: Vnd; perMin: Vnd; min: Vnd }> = {
  MOTORBIKE: { base: vnd(10_000), perKm: vnd(4_300), perMin: vnd(300), min: vnd(13_000) },
  CAR: { base: vnd(25_000), perKm: vnd(9_800), perMin: vnd(500), min: vnd(32_000) },
  CAR_7: { base: vnd(30_000), perKm: vnd(11_800), perMin: vnd(600), min: vnd(40_000) },
};
export const SURGE_MAX_BP = 20_000;
export const QUOTE_TTL_MS = 5 * 60_000;
/** The final fare may exceed the quote by at most this much (longer detours are the platform's loss). */
export const FINAL_FARE_CAP_BP = 12_000;
/** Fares are rounded up to a whole 1,000 VND. */
export const FARE_STEP_VND = 1_000;

/**
 * A fare: the tariff over distance and time (whole metres and seconds), at least the minimum, times the surge, rounded
 * up to 1,000 VND. Exact integer arithmetic: the terms are summed and surged as fractions and rounded once.
 */
export function fareOf(rideClass: RideClass, distanceM: number, durationSec: number, surgeBp = 10_000): Vnd {
  const t = FARES[rideClass];
  const raw = sumExact(exactVnd(t.base), rateTimes(t.perKm, Math.round(distanceM), 1_000), rateTimes(t.perMin, Math.round(durationSec), 60));
  return roundExact(timesBp(maxExact(raw, exactVnd(t.min)), surgeBp), 'up', FARE_STEP_VND);
}

/** The most a trip's final fare may be: the quote × FINAL_FARE_CAP_BP, rounded up to 1,000 VND. */
export const fareCapOf = (quotedFare: number): Vnd => roundExact(timesBp(exactVnd(vnd(quotedFare)), FINAL_FARE_CAP_BP), 'up', FARE_STEP_VND);

/**
 * A started trip whose IN_PROGRESS timer ran out (the driver never pressed complete): it completes at the distance
 * driven and at most the quoted duration (the overrun is not the rider's), never above the cap; with nothing driven
 * that is the class's minimum fare. CASH is then recorded with the commission owed, WALLET captured from the hold.
 */
export function timedOutFare(ride: Pick<RideRecord, 'rideClass' | 'quote' | 'pickedUpAt'>, drivenM: number, at: number): { fare: number; drivenM: number } {
  const elapsedSec = ride.pickedUpAt === null ? 0 : Math.max(0, Math.round((at - ride.pickedUpAt) / 1000));
  const driven = Math.max(0, Math.round(drivenM));
  return {
    fare: clampVnd(fareOf(ride.rideClass, driven, Math.min(elapsedSec, ride.quote.durationSec), ride.quote.surgeBp), { max: fareCapOf(ride.quote.fare) }),
    drivenM: driven,
  };
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

export const signQuote = (terms: QuoteTerms, key: Buffer): string => signTerms(terms, key);
/** The terms of a quote id made by `signQuote` with this key; undefined when forged, altered or malformed. */
export const readQuote = (quoteId: string, key: Buffer): QuoteTerms | undefined => readSignedTerms<QuoteTerms>(quoteId, key);

const RIDE_ACTORS = ['rider', 'driver', 'admin', 'system'] as const satisfies readonly RideActor[];

/** `rides/{rideId}`: the ride its rider and driver listen to (the document id is the ride id). */
export const rideDocument = lazySchema(() => {
  const place = (text: string) =>
    describe(
      z.object({
        lat: describe(z.number(), 'Latitude (WGS 84).'),
        lng: describe(z.number(), 'Longitude (WGS 84).'),
        address: describe(z.optional(z.nullable(z.string())), 'Address as the rider typed it.'),
      }),
      text,
    );
  return describe(
    z.object({
      riderId: describe(z.string(), 'The rider (account id).'),
      driverId: describe(z.nullable(z.string()), 'The driver given the ride; null while none is.'),
      participants: describe(z.array(z.string()), 'Rider and driver: who may read this document (firestore.rules).'),
      status: describe(z.enum(RIDE_STATUSES), 'CONFIRMED → ARRIVED → IN_PROGRESS → COMPLETED; or CANCELLED, NO_DRIVER, EXPIRED.'),
      rideClass: describe(z.enum(RIDE_CLASSES), 'The vehicle class booked.'),
      pickup: place('Pickup point.'),
      dropoff: place('Drop-off point.'),
      pickupCell: describe(
        z.nullable(z.string()),
        "The pickup's geohash cell, counted as demand by surge; null once a cancellation within the grace period took it out.",
      ),
      quote: describe(
        z.object({
          fare: describe(z.number(), 'VND.'),
          distanceM: describe(z.number(), 'Metres.'),
          durationSec: describe(z.number(), 'Seconds.'),
          surgeBp: describe(z.number(), 'Surge in basis points (10000: none).'),
        }),
        'What the quote promised.',
      ),
      paymentMethod: describe(z.enum(PAYMENT_METHODS), 'How the rider pays.'),
      holdPaymentId: describe(z.nullable(z.string()), 'WALLET: the hold placed at booking.'),
      paymentId: describe(z.nullable(z.string()), 'The payment that settled the ride.'),
      fare: describe(z.nullable(z.number()), 'The final fare (VND), once completed.'),
      drivenM: describe(z.nullable(z.number()), 'Metres driven between pickup and drop-off, once completed.'),
      cancellationFee: describe(z.number(), 'VND charged for a late cancellation or a no-show (0: none).'),
      driver: describe(
        z.nullable(
          z.object({
            name: z.string(),
            vehicle: z.nullable(z.object({ type: z.string(), plate: z.string(), model: z.nullable(z.string()), color: z.nullable(z.string()) })),
            rating: describe(z.nullable(z.number()), 'Average stars riders gave the driver.'),
          }),
        ),
        "The driver's card, shown to the rider.",
      ),
      etaToPickupSec: describe(z.nullable(z.number()), "The driver's estimated time to the pickup when assigned (seconds)."),
      excludedDriverIds: describe(z.array(z.string()), 'Drivers who gave the ride up (not offered it again).'),
      reassignments: describe(z.number(), 'How many times the ride went back to the search.'),
      note: describe(z.nullable(z.string()), "The rider's note to the driver."),
      cancelledBy: describe(z.nullable(z.enum(RIDE_ACTORS)), 'Who cancelled.'),
      cancelReason: describe(
        z.nullable(z.string()),
        "Why, as given: a person's own words, or the service's reason in English (then `cancelReasonCode` names it).",
      ),
      cancelReasonCode: describe(
        z.optional(z.nullable(z.enum(RIDE_SYSTEM_REASON_CODES))),
        "Set only when the service itself ended the ride (no-show, a status that ran out): which of its reasons, for apps to say in their language. Null or absent: `cancelReason` is a person's words (or none).",
      ),
      rating: describe(
        z.nullable(z.object({ stars: z.number(), comment: z.nullable(z.string()) })),
        'Rides rated before ratings moved to `ride_driver_ratings` only (never written now: the driver reads this document).',
      ),
      share: describe(
        z.optional(
          z.nullable(z.object({ tokenHash: describe(z.string(), "Hash of the trip link's token."), expiresAt: timestamp('until when the link works.') })),
        ),
        "The rider's trip link, while shared.",
      ),
      createdAt: timestamp('when the ride was booked.'),
      confirmedAt: nullableTimestamp('when the current driver was given.'),
      arrivedAt: nullableTimestamp('when the driver reported arriving at the pickup.'),
      pickedUpAt: nullableTimestamp('when the trip started.'),
      completedAt: nullableTimestamp('when the trip was completed.'),
      endedAt: nullableTimestamp('when the ride ended, however it ended.'),
      updatedAt: timestamp('last change.'),
    }),
    'A ride, read live by its rider and driver (status, driver, fare).',
  );
});
export type RideRecord = Identified & RecordOf<typeof rideDocument>;

export const RIDE_EXPIRY_MS = 30 * 60_000;

/**
 * The reasons the service itself gives for ending a ride: `cancelReason` holds the English text (API data),
 * `cancelReasonCode` the key, set only by the service's own paths; notices translate by the code, never by the text
 * (a person may type the same words).
 */
export const RIDE_SYSTEM_REASONS = {
  riderNoShow: 'The rider did not come to the pickup',
  driverLate: 'The driver did not arrive within 30 minutes',
  startLate: 'The trip did not start in time after the driver arrived',
  tripOverdue: 'The trip did not end in time: completed at the distance driven',
} as const;
export type RideSystemReason = keyof typeof RIDE_SYSTEM_REASONS;
const RIDE_SYSTEM_REASON_CODES = Object.keys(RIDE_SYSTEM_REASONS) as [RideSystemReason, ...RideSystemReason[]];

/** The fields a ride's end by the service's own reason sets. */
export const systemReason = (code: RideSystemReason) => ({ cancelReason: RIDE_SYSTEM_REASONS[code], cancelReasonCode: code });

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
  if (ride.status === 'IN_PROGRESS' && ride.pickedUpAt !== null)
    return ride.pickedUpAt + Math.max(limits.tripMinSec, ride.quote.durationSec * limits.tripFactor) * 1000;
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
    createdAt: iso(r.createdAt),
    confirmedAt: isoOrNull(r.confirmedAt),
    arrivedAt: isoOrNull(r.arrivedAt),
    pickedUpAt: isoOrNull(r.pickedUpAt),
    completedAt: isoOrNull(r.completedAt),
    endedAt: isoOrNull(r.endedAt),
    updatedAt: iso(r.updatedAt),
  };
}
export type RideView = ReturnType<typeof rideView>;

/** The chat of a ride with one driver: a reassigned ride starts a new one, and the old driver's is closed. */
export const rideChatContext = (rideId: string, driverId: string) => ({ type: 'RIDE' as const, id: `${rideId}_${driverId}` });
