import type { AppConfig } from '../../platform/core/config';

// The delivery module's switches, as plain constants read through `deliverySettings` (the configuration schema does
// not list them yet; they move into the module's fragment of it, keeping these names and defaults).

/** The fee covers the first DELIVERY_BASE_KM of road distance. */
export const DELIVERY_BASE_FEE_VND = 15_000;
export const DELIVERY_BASE_KM = 2;
/** Each road kilometre past the base distance (pro rata per metre). */
export const DELIVERY_PER_KM_VND = 5_000;
/** Road distance = straight-line distance × this (basis points), as the offline route estimator does. */
export const DELIVERY_ROAD_FACTOR_BP = 13_500;
/** The fee × the parcel size's multiplier (basis points), then rounded up to 1,000 VND. */
export const DELIVERY_SIZE_MULTIPLIER_BP = { SMALL: 10_000, MEDIUM: 13_000, LARGE: 18_000 } as const;
/** Added to the fee when the driver collects cash on delivery for the sender. */
export const DELIVERY_COD_FEE_VND = 5_000;
/** The most cash a driver collects for one parcel. */
export const DELIVERY_COD_MAX_VND = 5_000_000;
/** Road distances a parcel is delivered over (inside a city and its surroundings). */
export const DELIVERY_MIN_DISTANCE_M = 100;
export const DELIVERY_MAX_DISTANCE_M = 50_000;
/** A quote is honoured this long. */
export const DELIVERY_QUOTE_TTL_SEC = 600;
/** The platform's commission on the delivery fee (the driver's earnings are the rest), in basis points. */
export const DELIVERY_COMMISSION_BP = 2_000;
/** Paid to the driver when the sender cancels after a driver was assigned (never more than the fee). */
export const DELIVERY_CANCEL_FEE_VND = 10_000;
/** A parcel no driver took within this is NO_DRIVER (the hold given back). */
export const DELIVERY_NO_DRIVER_WINDOW_SEC = 600;
/** While nobody is free, the search is tried again this often. */
export const DELIVERY_DISPATCH_RETRY_SEC = 30;
/** How far from the pickup drivers are searched for, and how many are tried per search, nearest first. */
export const DELIVERY_SEARCH_RADIUS_M = 5_000;
export const DELIVERY_CANDIDATES = 5;
/** Wrong pickup or drop-off codes a driver may enter before only a photo proves the hand-over. */
export const DELIVERY_CODE_MAX_ATTEMPTS = 5;
/** The sender rates the driver within this many days of the delivery. */
export const DELIVERY_RATING_WINDOW_DAYS = 7;

export type ParcelSizeName = keyof typeof DELIVERY_SIZE_MULTIPLIER_BP;

export interface DeliverySettings {
  baseFeeVnd: number;
  baseKm: number;
  perKmVnd: number;
  roadFactorBp: number;
  sizeMultiplierBp: Readonly<Record<ParcelSizeName, number>>;
  codFeeVnd: number;
  codMaxVnd: number;
  minDistanceM: number;
  maxDistanceM: number;
  quoteTtlSec: number;
  commissionBp: number;
  cancelFeeVnd: number;
  noDriverWindowSec: number;
  dispatchRetrySec: number;
  searchRadiusM: number;
  candidates: number;
  codeMaxAttempts: number;
  ratingWindowDays: number;
}

/** The settings of a configuration (the same for every one until they are configuration switches). */
export function deliverySettings(_config?: Readonly<AppConfig>): DeliverySettings {
  return {
    baseFeeVnd: DELIVERY_BASE_FEE_VND,
    baseKm: DELIVERY_BASE_KM,
    perKmVnd: DELIVERY_PER_KM_VND,
    roadFactorBp: DELIVERY_ROAD_FACTOR_BP,
    sizeMultiplierBp: DELIVERY_SIZE_MULTIPLIER_BP,
    codFeeVnd: DELIVERY_COD_FEE_VND,
    codMaxVnd: DELIVERY_COD_MAX_VND,
    minDistanceM: DELIVERY_MIN_DISTANCE_M,
    maxDistanceM: DELIVERY_MAX_DISTANCE_M,
    quoteTtlSec: DELIVERY_QUOTE_TTL_SEC,
    commissionBp: DELIVERY_COMMISSION_BP,
    cancelFeeVnd: DELIVERY_CANCEL_FEE_VND,
    noDriverWindowSec: DELIVERY_NO_DRIVER_WINDOW_SEC,
    dispatchRetrySec: DELIVERY_DISPATCH_RETRY_SEC,
    searchRadiusM: DELIVERY_SEARCH_RADIUS_M,
    candidates: DELIVERY_CANDIDATES,
    codeMaxAttempts: DELIVERY_CODE_MAX_ATTEMPTS,
    ratingWindowDays: DELIVERY_RATING_WINDOW_DAYS,
  };
}
