import type { AppConfig } from '../../platform/core/config';
import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// Parcel delivery's switches (fees, commission, timers: what operations tune) and its fixed product rules.
export const deliverySwitches = defineSwitches({
  DELIVERY_BASE_FEE_VND: {
    schema: positiveInt(15_000, 1_000_000, 0),
    effect: "a parcel's fee for the first 2 km of road distance (before the size multiplier)",
  },
  DELIVERY_PER_KM_VND: { schema: positiveInt(5_000, 200_000, 0), effect: 'each road kilometre past the first 2, pro rata per metre' },
  DELIVERY_COD_FEE_VND: { schema: positiveInt(5_000, 200_000, 0), effect: 'added to the fee when the driver collects cash on delivery for the sender' },
  DELIVERY_COMMISSION_BP: {
    schema: positiveInt(2_000, 5_000, 0),
    effect: "the platform's share of a parcel's fee, in basis points (the driver earns the rest)",
  },
  DELIVERY_CANCEL_FEE_VND: {
    schema: positiveInt(10_000, 200_000, 0),
    effect: 'paid to the driver when the sender cancels after a driver was assigned (never more than the fee)',
  },
  DELIVERY_NO_DRIVER_WINDOW_SEC: {
    schema: positiveInt(600, 24 * 3_600, 60),
    effect: 'a parcel no driver took within this ends NO_DRIVER (the hold given back)',
  },
  DELIVERY_SEARCH_RADIUS_M: { schema: positiveInt(5_000, 30_000, 500), effect: 'how far from the pickup free DELIVERY drivers are searched for' },
  DELIVERY_QUOTE_TTL_SEC: { schema: positiveInt(600, 3_600, 60), effect: 'how long a parcel quote is honoured' },
  DELIVERY_PICKUP_WINDOW_MIN: {
    schema: positiveInt(30, 240, 5),
    effect: 'a driver who has not picked the parcel up within this many minutes of the assignment is released and the search runs again',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof deliverySwitches> {}
}

const DELIVERY_BASE_KM = 2;
/** Road distance = straight-line distance × this (basis points), as the offline route estimator does. */
export const DELIVERY_ROAD_FACTOR_BP = 13_500;
/** The fee × the parcel size's multiplier (basis points), then rounded up to 1,000 VND. */
export const DELIVERY_SIZE_MULTIPLIER_BP = { SMALL: 10_000, MEDIUM: 13_000, LARGE: 18_000 } as const;
/** The most cash a driver collects for one parcel. */
export const DELIVERY_COD_MAX_VND = 5_000_000;
/** Road distances a parcel is delivered over (inside a city and its surroundings). */
export const DELIVERY_MIN_DISTANCE_M = 100;
export const DELIVERY_MAX_DISTANCE_M = 50_000;
/** While nobody is free, the search is tried again this often. */
export const DELIVERY_DISPATCH_RETRY_SEC = 30;
/** Free drivers tried per search, nearest first. */
export const DELIVERY_CANDIDATES = 5;
/** Drivers who gave a parcel up (or were released from it) that it remembers: never offered it again, answered 409 on a retry. */
export const DELIVERY_FORMER_DRIVERS_MAX = 20;
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
  /** DRIVER_CASH_DEBT_LIMIT_VND (wallet's switch): drivers past it get no cash parcels. */
  cashDebtLimitVnd: number;
  cancelFeeVnd: number;
  noDriverWindowSec: number;
  dispatchRetrySec: number;
  searchRadiusM: number;
  candidates: number;
  pickupWindowMin: number;
  /** HANDOVER_PHOTO_RADIUS_M (the handover kit's switch, installed with the driver module's): how near a handover's place the courier must be. */
  handoverRadiusM: number;
  /** JOB_GIVE_UP_COOLDOWN_MIN (the driver module's switch). */
  giveUpCooldownMin: number;
  formerDriversMax: number;
  ratingWindowDays: number;
}

/** The settings of a configuration: its switches and the fixed rules. */
export function deliverySettings(config: Readonly<AppConfig>): DeliverySettings {
  return {
    baseFeeVnd: config.DELIVERY_BASE_FEE_VND,
    baseKm: DELIVERY_BASE_KM,
    perKmVnd: config.DELIVERY_PER_KM_VND,
    roadFactorBp: DELIVERY_ROAD_FACTOR_BP,
    sizeMultiplierBp: DELIVERY_SIZE_MULTIPLIER_BP,
    codFeeVnd: config.DELIVERY_COD_FEE_VND,
    codMaxVnd: DELIVERY_COD_MAX_VND,
    minDistanceM: DELIVERY_MIN_DISTANCE_M,
    maxDistanceM: DELIVERY_MAX_DISTANCE_M,
    quoteTtlSec: config.DELIVERY_QUOTE_TTL_SEC,
    commissionBp: config.DELIVERY_COMMISSION_BP,
    cashDebtLimitVnd: config.DRIVER_CASH_DEBT_LIMIT_VND,
    cancelFeeVnd: config.DELIVERY_CANCEL_FEE_VND,
    noDriverWindowSec: config.DELIVERY_NO_DRIVER_WINDOW_SEC,
    dispatchRetrySec: DELIVERY_DISPATCH_RETRY_SEC,
    searchRadiusM: config.DELIVERY_SEARCH_RADIUS_M,
    candidates: DELIVERY_CANDIDATES,
    pickupWindowMin: config.DELIVERY_PICKUP_WINDOW_MIN,
    handoverRadiusM: config.HANDOVER_PHOTO_RADIUS_M,
    giveUpCooldownMin: config.JOB_GIVE_UP_COOLDOWN_MIN,
    formerDriversMax: DELIVERY_FORMER_DRIVERS_MAX,
    ratingWindowDays: DELIVERY_RATING_WINDOW_DAYS,
  };
}
