import { randomBytes } from 'node:crypto';
import { ConflictError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { blurredForMap, geohashOf, type LatLng } from '../../platform/kits/geo/geo';
import { stableId } from '../../platform/kits/ids/stable-id';
import { logger } from '../../platform/core/logging/logger';
import { vnd } from '../../platform/kits/money/money';
import { dispatchPool } from '../driver';
import { rideView, type QuoteTerms, type RideClass, type RideRecord } from './rides.model';
import { ridesRepo } from './rides.repo';
import { CELL_PRECISION, type CreateRide, type RidesCore } from './rides.context';
import type { ExpiryScheduler, RideDeadlines } from './rides.deadlines';
import type { RideLifecycle } from './rides.lifecycle';
import type { RidePricing } from './rides.pricing';
import type { RideSettlement } from './rides.settlement';

// Booking and the search for a driver: candidates ring by ring, nearest first; free drivers on the rider's map.

const CANDIDATES = 8;

/** A booked ride before its driver: NO_DRIVER until one is assigned (the search may find nobody). */
function newRide(id: string, riderId: string, input: CreateRide, terms: QuoteTerms, at: number): RideRecord {
  return {
    id,
    riderId,
    driverId: null,
    participants: [riderId],
    status: 'NO_DRIVER',
    rideClass: input.vehicleType,
    pickup: { lat: input.pickup.lat, lng: input.pickup.lng, address: input.pickup.address ?? null },
    dropoff: { lat: input.dropoff.lat, lng: input.dropoff.lng, address: input.dropoff.address ?? null },
    pickupCell: geohashOf(input.pickup).slice(0, CELL_PRECISION),
    quote: { fare: terms.fare, distanceM: terms.distanceM, durationSec: terms.durationSec, surgeBp: terms.surgeBp },
    paymentMethod: input.paymentMethod,
    holdPaymentId: null,
    paymentId: null,
    fare: null,
    drivenM: null,
    cancellationFee: 0,
    driver: null,
    etaToPickupSec: null,
    excludedDriverIds: [],
    reassignments: 0,
    note: input.note ?? null,
    cancelledBy: null,
    cancelReason: null,
    cancelReasonCode: null,
    rating: null,
    createdAt: at,
    confirmedAt: null,
    arrivedAt: null,
    pickedUpAt: null,
    completedAt: null,
    endedAt: null,
    updatedAt: at,
  };
}

interface DispatchParts {
  pricing: Pick<RidePricing, 'honouredQuote' | 'termsFor' | 'capOf'>;
  settlement: Pick<RideSettlement, 'releaseHold'>;
  lifecycle: Pick<RideLifecycle, 'assign'>;
}

export function createRideDispatch(
  { deps, now }: RidesCore,
  { hold: holdDeadline }: Pick<RideDeadlines, 'hold'>,
  scheduler: ExpiryScheduler,
  { pricing: { honouredQuote, termsFor, capOf }, settlement: { releaseHold }, lifecycle: { assign } }: DispatchParts,
) {
  // Rings from near to far, up to the search radius and then twice it (the one widening): where drivers are dense,
  // the first ring has enough of them and the search reads a few dozen documents instead of every driver in 3 km.
  const rings = [...new Set([300, 1_000, deps.searchRadiusM, deps.searchRadiusM * 2].filter((r) => r <= deps.searchRadiusM * 2))].sort((a, b) => a - b);

  /**
   * Candidates ring by ring, nearest first, each driver once: when every candidate of a ring was taken meanwhile by
   * other riders, the search goes on in the next ring (a free driver farther out is still found).
   */
  async function* candidatesFor(pickup: LatLng, rideClass: RideClass, excluded: readonly string[], at: number) {
    const seen = new Set(excluded);
    for (const radius of rings) {
      const found = (await dispatchPool.nearbyAvailable(pickup, radius, rideClass, CANDIDATES + seen.size, at))
        .filter((d) => !seen.has(d.userId))
        .slice(0, CANDIDATES);
      for (const d of found) seen.add(d.userId);
      if (found.length > 0) yield found;
    }
  }

  /**
   * Books a ride: the quote (given or made now), a hold on the wallet for WALLET rides (the quote's cap), then the
   * nearest free driver in a transaction. No driver: the ride is stored NO_DRIVER (answered 200) and the hold released.
   */
  async function create(riderId: string, input: CreateRide, idempotencyKey?: string): Promise<{ ride: ReturnType<typeof rideView>; created: boolean }> {
    const at = now();
    // Without a key a booking is new each time: the rider's one active ride (RIDE_ACTIVE) still prevents a double.
    const id = stableId({ scope: 'rides.create', caller: riderId, key: idempotencyKey ?? randomBytes(16).toString('hex'), prefix: 'R', encoding: 'hex' });
    // The first ring's search and the price run beside the checks below (a retry or a busy rider drops them unread).
    const search = candidatesFor(input.pickup, input.vehicleType, [], at);
    const firstRing = search.next();
    const pricing = input.quoteId
      ? Promise.resolve().then(() => honouredQuote(riderId, input, at))
      : termsFor(riderId, input.pickup, input.dropoff, input.vehicleType, at);
    for (const early of [firstRing, pricing]) early.catch(() => undefined);
    const [existing, active] = await Promise.all([ridesRepo.get(id), ridesRepo.activeOf(riderId)]);
    if (existing) return { ride: rideView(existing), created: false };
    if (active) throw new ConflictError('You already have a ride in progress', { rideId: active }).withCode('RIDE_ACTIVE');
    const terms = await pricing;
    const base = newRide(id, riderId, input, terms, at);
    if (input.paymentMethod === 'WALLET') {
      const holdOnce = (key: string) =>
        deps.payments.hold({
          payerId: riderId,
          amount: vnd(capOf(terms.fare)),
          purpose: 'RIDE',
          ref: { type: 'RIDE', id },
          description: 'Ride (held until the trip ends)',
          idempotencyKey: key,
        });
      let hold = await holdOnce(id);
      // A retry finds the first attempt's hold: released (it needs a new one), or held for another quote's cap (given
      // back, and a new one for this quote: a hold never covers less, or more, than the fare it secures).
      if (hold.status === 'AUTHORIZED' && hold.amount !== capOf(terms.fare))
        await releaseHold({ holdPaymentId: hold.id }, 'The booking was retried at another fare');
      if (hold.status !== 'AUTHORIZED' || hold.amount !== capOf(terms.fare)) hold = await holdOnce(`${id}-${at}`);
      base.holdPaymentId = hold.id;
      // A booking that dies after this line (crash, timeout) leaves a hold nobody settles: the check releases it.
      await holdDeadline.arm({ schedule: scheduler.holdCheck }, { id: hold.id, rideId: id, status: 'HELD', createdAt: at }, at);
    }
    try {
      let assigned: RideRecord | undefined;
      for (let ring = await firstRing; !ring.done; ring = await search.next()) {
        assigned = await assign(base, ring.value, at);
        if (assigned) break; // before the next ring's search starts
      }
      const ride = assigned ?? (await noDriver(base, at));
      return { ride: rideView(ride), created: true };
    } catch (err) {
      // A failed booking (RIDE_ACTIVE from a double tap, a dead transaction) gives the hold back unless a ride took it.
      // Released only when the read says no ride took it: a failed read leaves it to the hold check (never frees a
      // hold a stored ride still counts on).
      const stored = base.holdPaymentId
        ? await ridesRepo.get(id).then(
            (r) => (r ? 'ride' : 'none'),
            () => 'unknown',
          )
        : 'none';
      if (base.holdPaymentId && stored === 'none') await releaseHold(base, 'The booking failed');
      if (stored === 'unknown')
        logger.warn('ride booking failed and its ride could not be read: the hold check decides', { rideId: id, paymentId: base.holdPaymentId });
      throw err;
    }
  }

  async function noDriver(base: RideRecord, at: number): Promise<RideRecord> {
    const ride = await inTransaction(async (tx) => {
      const existing = await ridesRepo.get(base.id, tx);
      if (existing) return existing;
      const record: RideRecord = { ...base, status: 'NO_DRIVER', endedAt: at };
      ridesRepo.create(tx, record);
      return record;
    });
    if (ride.status === 'NO_DRIVER' && ride.holdPaymentId) await releaseHold(ride, 'No driver was found');
    return ride;
  }

  /** Free drivers around a point for the rider's map: how many, and where within about 100 m (never who); `budget`: positions read at most. */
  async function driversNearby(center: LatLng, rideClass: RideClass, radiusM: number, budget: number) {
    const found = await dispatchPool.nearbyOnMap(center, radiusM, rideClass, 30, now(), budget);
    // Distances and order from the blurred positions: exact ones would give each driver's position back.
    return { count: found.length, vehicleType: rideClass, drivers: blurredForMap(center, found) };
  }

  return { candidatesFor, create, driversNearby };
}

export type RideDispatch = ReturnType<typeof createRideDispatch>;
