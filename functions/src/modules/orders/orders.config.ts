import type { AppConfig } from '../../platform/core/config';

// The orders module's switches, as plain constants read through `orderSettings` (the configuration schema does not
// list them yet; they move into the module's fragment of it, keeping these names and defaults).

/** A PLACED order the store has not confirmed within this is cancelled and refunded. */
export const ORDER_CONFIRM_TIMEOUT_SEC = 600;
/** The platform's commission on the items (the store's payout is the rest), in basis points. */
export const ORDER_COMMISSION_BP = 2_000;
/** The platform's commission on the delivery fee (the courier's earnings are the rest), in basis points. */
export const ORDER_DELIVERY_COMMISSION_BP = 1_000;
/** How far from the store couriers are searched for. */
export const ORDER_COURIER_RADIUS_M = 5_000;
/** Candidates tried per assignment attempt, nearest first. */
export const ORDER_COURIER_CANDIDATES = 5;
/** A courier is searched for this long before the preparation time ends (0: only once the store says ready). */
export const ORDER_COURIER_LEAD_SEC = 300;
/** Wrong delivery codes a courier may enter before only a photo proves the hand-over. */
export const ORDER_HANDOVER_MAX_ATTEMPTS = 5;
/** The consumer rates a delivered order within this many days. */
export const ORDER_RATING_WINDOW_DAYS = 7;

export interface OrderSettings {
  confirmTimeoutSec: number;
  commissionBp: number;
  deliveryCommissionBp: number;
  courierRadiusM: number;
  courierCandidates: number;
  courierLeadSec: number;
  handoverMaxAttempts: number;
  ratingWindowDays: number;
}

/** The settings of a configuration (the same for every one until they are configuration switches). */
export function orderSettings(_config: Readonly<AppConfig>): OrderSettings {
  return {
    confirmTimeoutSec: ORDER_CONFIRM_TIMEOUT_SEC,
    commissionBp: ORDER_COMMISSION_BP,
    deliveryCommissionBp: ORDER_DELIVERY_COMMISSION_BP,
    courierRadiusM: ORDER_COURIER_RADIUS_M,
    courierCandidates: ORDER_COURIER_CANDIDATES,
    courierLeadSec: ORDER_COURIER_LEAD_SEC,
    handoverMaxAttempts: ORDER_HANDOVER_MAX_ATTEMPTS,
    ratingWindowDays: ORDER_RATING_WINDOW_DAYS,
  };
}
