import type { AppConfig } from '../../platform/core/config';

// The cart's settings, as plain constants for now (the module's configuration fragment takes them over): limits,
// the fees checkout charges and the delay of the checkout check. Amounts are whole VND.

/** Lines in one cart. */
export const CART_MAX_LINES = 50;
/** Units of one line (and of identical lines merged). */
export const CART_MAX_QUANTITY = 99;
/** Carts (sellers) one consumer keeps at once. */
export const CART_MAX_CARTS = 20;
/** An untouched cart is deleted after this many days (Firestore TTL). */
export const CART_TTL_DAYS = 30;
/** Delivery fee: a base for the first kilometres… */
export const CART_DELIVERY_BASE_VND = 15_000;
/** …included in the base… */
export const CART_DELIVERY_BASE_M = 2_000;
/** …then this much per further kilometre (pro rata by the metre)… */
export const CART_DELIVERY_PER_KM_VND = 5_000;
/** …rounded up to a whole multiple of this. */
export const CART_DELIVERY_STEP_VND = 1_000;
/** The platform's service fee per order. */
export const CART_SERVICE_FEE_VND = 3_000;
/**
 * After this many seconds a checkout attempt can no longer be running (well past the function timeout): its check
 * releases the wallet holds, gateway payments and voucher use that no order took.
 */
export const CART_CHECKOUT_CHECK_SEC = 600;

export interface CartSettings {
  maxLines: number;
  maxQuantity: number;
  maxCarts: number;
  ttlDays: number;
  delivery: { baseVnd: number; baseM: number; perKmVnd: number; stepVnd: number };
  serviceFeeVnd: number;
  checkoutCheckSec: number;
}

/** The settings for a configuration (the constants above until the configuration names them). */
export function cartSettings(_config: Readonly<AppConfig>): CartSettings {
  return {
    maxLines: CART_MAX_LINES,
    maxQuantity: CART_MAX_QUANTITY,
    maxCarts: CART_MAX_CARTS,
    ttlDays: CART_TTL_DAYS,
    delivery: { baseVnd: CART_DELIVERY_BASE_VND, baseM: CART_DELIVERY_BASE_M, perKmVnd: CART_DELIVERY_PER_KM_VND, stepVnd: CART_DELIVERY_STEP_VND },
    serviceFeeVnd: CART_SERVICE_FEE_VND,
    checkoutCheckSec: CART_CHECKOUT_CHECK_SEC,
  };
}
