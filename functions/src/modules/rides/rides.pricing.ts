import { purposeKey } from '../../platform/kits/ids/signed';
import { ConflictError, UnprocessableError } from '../../platform/core/errors/app-error';
import { distanceMeters, geohashOf, type LatLng } from '../../platform/kits/geo/geo';
import { clampVnd, vnd, type Vnd } from '../../platform/kits/money/money';
import { iso } from '../../platform/kits/time/time';
import { dispatchPool } from '../driver';
import { fareCapOf, fareOf, QUOTE_TTL_MS, readQuote, RIDE_CLASSES, signQuote, surgeOf, type QuoteTerms, type RideClass, type RideRecord } from './rides.model';
import { ridesRepo } from './rides.repo';
import { CELL_PRECISION, type CreateRide, type RidesCore } from './rides.context';
import { BoundedMap } from '../../platform/kits/memo/bounded-map';

// Quotes (signed, honoured at booking), surge, the final fare and the late-cancel fee.

const SURGE_TTL_MS = 30_000;
/** A quote is honoured for the points it was made for, give or take this much (GPS jitter between screens). */
const QUOTE_POINT_TOLERANCE_M = 150;

export const quoteKeyOf = (serverSecret: string): Buffer => purposeKey(serverSecret, 'ride-quotes');

export function createRidePricing({ deps, now }: RidesCore) {
  // Surge per cell and class, remembered for SURGE_TTL_MS: two count queries per cell every half minute on an
  // instance, not two per quote and booking.
  const surgeCache = new BoundedMap<string, { bp: Promise<number>; until: number }>(5_000);

  function surgeIn(cell: string, rideClass: RideClass, at: number): Promise<number> {
    const key = `${cell}:${rideClass}`;
    const cached = surgeCache.get(key);
    if (cached && cached.until > at) return cached.bp;
    const bp = Promise.all([ridesRepo.demandInCell(cell, at - 10 * 60_000), dispatchPool.countAvailableInCell(rideClass, cell)]).then(([demand, supply]) =>
      surgeOf(demand, supply),
    );
    surgeCache.set(key, { bp, until: at + SURGE_TTL_MS });
    bp.catch(() => surgeCache.delete(key));
    return bp;
  }

  async function termsFor(riderId: string, pickup: LatLng, dropoff: LatLng, rideClass: RideClass, at: number): Promise<QuoteTerms> {
    const cell = geohashOf(pickup).slice(0, CELL_PRECISION);
    const [route, surgeBp] = await Promise.all([deps.router.route(pickup, dropoff, rideClass, at), surgeIn(cell, rideClass, at)]);
    return {
      riderId,
      rideClass,
      pickup: { lat: pickup.lat, lng: pickup.lng },
      dropoff: { lat: dropoff.lat, lng: dropoff.lng },
      fare: fareOf(rideClass, route.distanceM, route.durationSec, surgeBp),
      distanceM: route.distanceM,
      durationSec: route.durationSec,
      surgeBp,
      expiresAt: at + QUOTE_TTL_MS,
    };
  }

  async function quote(riderId: string, input: { pickup: LatLng; dropoff: LatLng; vehicleType?: RideClass }) {
    const at = now();
    const classes = input.vehicleType ? [input.vehicleType] : [...RIDE_CLASSES];
    const quotes = await Promise.all(classes.map((c) => termsFor(riderId, input.pickup, input.dropoff, c, at)));
    return {
      quotes: quotes.map((t) => ({
        quoteId: signQuote(t, deps.quoteKey),
        vehicleType: t.rideClass,
        fare: t.fare,
        currency: 'VND' as const,
        distanceM: t.distanceM,
        durationSec: t.durationSec,
        surge: t.surgeBp / 10_000,
        expiresAt: iso(t.expiresAt),
      })),
    };
  }

  /** The quote a booking names, checked: ours, unaltered, this rider's, this class, these points, not expired. */
  function honouredQuote(riderId: string, input: CreateRide, at: number): QuoteTerms {
    const terms = readQuote(input.quoteId!, deps.quoteKey);
    const invalid = (why: string) =>
      new UnprocessableError(`The quote cannot be used: ${why}`, [{ field: 'body.quoteId', message: why }]).withCode('RIDE_QUOTE_INVALID');
    if (!terms) throw invalid('not a quote of ours, or altered');
    if (terms.riderId !== riderId) throw invalid('made for another rider');
    if (terms.rideClass !== input.vehicleType) throw invalid('made for another vehicle type');
    if (distanceMeters(terms.pickup, input.pickup) > QUOTE_POINT_TOLERANCE_M || distanceMeters(terms.dropoff, input.dropoff) > QUOTE_POINT_TOLERANCE_M)
      throw invalid('made for other pickup or drop-off points');
    if (terms.expiresAt < at) throw new ConflictError('The quote has expired: ask for a new one').withCode('RIDE_QUOTE_EXPIRED');
    return terms;
  }

  /** The final fare: the tariff over what was driven (distance, time since pickup), never more than the quote's cap. */
  function finalFare(ride: RideRecord, at: number): { fare: Vnd; drivenM: number } {
    const drivenM = ride.drivenM ?? 0;
    if (drivenM <= 0) return { fare: vnd(ride.quote.fare), drivenM: 0 };
    const seconds = ride.pickedUpAt ? Math.max(0, Math.round((at - ride.pickedUpAt) / 1000)) : ride.quote.durationSec;
    return { fare: clampVnd(fareOf(ride.rideClass, drivenM, seconds, ride.quote.surgeBp), { max: fareCapOf(ride.quote.fare) }), drivenM };
  }

  /** The late-cancel fee: owed once the driver came to the pickup (geofenced `arrived`) and waited RIDE_CANCEL_WAIT_SEC. */
  function waitedFee(r: RideRecord, at: number): Vnd {
    const waited = r.status === 'ARRIVED' && r.arrivedAt !== null && at - r.arrivedAt >= deps.cancelWaitSec * 1000;
    return waited ? clampVnd(vnd(deps.cancelFee), { max: fareCapOf(r.quote.fare) }) : vnd(0);
  }

  return { termsFor, quote, honouredQuote, finalFare, waitedFee, capOf: fareCapOf };
}

export type RidePricing = ReturnType<typeof createRidePricing>;
