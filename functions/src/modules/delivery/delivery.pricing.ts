import { ConflictError, UnprocessableError } from '../../platform/core/errors/app-error';
import { distanceMeters } from '../../platform/kits/geo/geo';
import { purposeKey, readSignedTerms, signTerms } from '../../platform/kits/ids/signed';
import { exactVnd, rateTimes, roundExact, sumExact, timesBp, vnd, type Vnd } from '../../platform/kits/money/money';
import type { DeliverySettings } from './delivery.config';
import type { DeliveryPoint, ParcelSize, QuoteTerms } from './delivery.model';

// The price of a parcel: road distance (straight line × the road factor), the base fee for the first kilometres and
// a rate per kilometre after, × the size's multiplier, rounded up to 1,000 VND, plus the cash-on-delivery fee. A
// quote signs its terms (HMAC of the server secret), so the client can neither change the price nor the points.

const FEE_STEP_VND = 1_000;

export const quoteKeyOf = (serverSecret: string): Buffer => purposeKey(serverSecret, 'delivery-quotes');
export const signQuote = (terms: QuoteTerms, key: Buffer): string => signTerms(terms, key);
/** The terms of a quote id made by `signQuote` with this key; undefined when forged, altered or malformed. */
export const readQuote = (quoteId: string, key: Buffer): QuoteTerms | undefined => readSignedTerms<QuoteTerms>(quoteId, key);

export interface FeeBreakdown {
  distanceM: number;
  baseVnd: Vnd;
  distanceVnd: Vnd;
  sizeMultiplierBp: number;
  codFeeVnd: Vnd;
  feeVnd: Vnd;
}

/** The road distance between two points as the fee counts it (whole metres). */
export function roadDistanceM(from: DeliveryPoint, to: DeliveryPoint, s: Pick<DeliverySettings, 'roadFactorBp'>): number {
  return Math.round((distanceMeters(from, to) * s.roadFactorBp) / 10_000);
}

/** The fee of a parcel of `size` over `distanceM` of road, with `codVnd` to collect. */
export function feeOf(distanceM: number, size: ParcelSize, codVnd: number, s: DeliverySettings): FeeBreakdown {
  const beyondM = Math.max(0, distanceM - s.baseKm * 1_000);
  const distance = rateTimes(vnd(s.perKmVnd), beyondM, 1_000);
  const sized = timesBp(sumExact(exactVnd(vnd(s.baseFeeVnd)), distance), s.sizeMultiplierBp[size]);
  const codFeeVnd = vnd(codVnd > 0 ? s.codFeeVnd : 0);
  const carriage = roundExact(sized, 'up', FEE_STEP_VND);
  return {
    distanceM,
    baseVnd: vnd(s.baseFeeVnd),
    distanceVnd: roundExact(distance, 'up', 1),
    sizeMultiplierBp: s.sizeMultiplierBp[size],
    codFeeVnd,
    feeVnd: vnd(carriage + codFeeVnd),
  };
}

/** The road distance, refused (422 naming the drop-off) outside the distances parcels go. */
export function checkedDistance(pickup: DeliveryPoint, dropoff: DeliveryPoint, s: DeliverySettings): number {
  const distanceM = roadDistanceM(pickup, dropoff, s);
  if (distanceM < s.minDistanceM || distanceM > s.maxDistanceM) {
    throw new UnprocessableError(`Parcels go ${s.minDistanceM} m to ${s.maxDistanceM / 1000} km by road; this is ${distanceM} m`, {
      distanceM,
      minM: s.minDistanceM,
      maxM: s.maxDistanceM,
    }).withCode('DELIVERY_DISTANCE');
  }
  return distanceM;
}

/** The quote a parcel names, checked: ours, unaltered, this sender's, this cash on delivery (when given), not expired. */
export function honouredQuote(quoteId: string, senderId: string, codVnd: number | undefined, at: number, key: Buffer): QuoteTerms {
  const terms = readQuote(quoteId, key);
  const invalid = (field: string, why: string) =>
    new UnprocessableError(`The quote cannot be used: ${why}`, [{ field, message: why }]).withCode('DELIVERY_QUOTE_INVALID');
  if (!terms) throw invalid('body.quoteId', 'not a quote of ours, or altered');
  if (terms.senderId !== senderId) throw invalid('body.quoteId', 'made for another sender');
  if (codVnd !== undefined && codVnd !== terms.codVnd) throw invalid('body.codAmount', `the quote collects ${terms.codVnd} VND on delivery`);
  if (terms.expiresAt < at) throw new ConflictError('The quote has expired: ask for a new one').withCode('DELIVERY_QUOTE_EXPIRED');
  return terms;
}
