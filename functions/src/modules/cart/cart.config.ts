import type { AppConfig } from '../../platform/core/config';
import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The cart's switches (the fees checkout charges) and its fixed limits. Amounts are whole VND.
export const cartSwitches = defineSwitches({
  CART_DELIVERY_BASE_VND: { schema: positiveInt(15_000, 1_000_000, 0), effect: "an order's delivery fee for the first 2 km from the store (straight line)" },
  CART_DELIVERY_PER_KM_VND: {
    schema: positiveInt(5_000, 200_000, 0),
    effect: "each further kilometre of an order's delivery, pro rata by the metre, rounded up to 1,000 VND",
  },
  CART_SERVICE_FEE_VND: { schema: positiveInt(3_000, 100_000, 0), effect: "the platform's service fee on each order" },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof cartSwitches> {}
}

/** Lines in one cart. */
export const CART_MAX_LINES = 50;
/** Units of one line (and of identical lines merged). */
export const CART_MAX_QUANTITY = 99;
/** Carts (sellers) one consumer keeps at once. */
export const CART_MAX_CARTS = 20;
/** An untouched cart is deleted after this many days (Firestore TTL). */
export const CART_TTL_DAYS = 30;
/** …included in the base… */
export const CART_DELIVERY_BASE_M = 2_000;
/** …rounded up to a whole multiple of this. */
export const CART_DELIVERY_STEP_VND = 1_000;
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

/** The settings of a configuration: its switches and the fixed limits. */
export function cartSettings(config: Readonly<AppConfig>): CartSettings {
  return {
    maxLines: CART_MAX_LINES,
    maxQuantity: CART_MAX_QUANTITY,
    maxCarts: CART_MAX_CARTS,
    ttlDays: CART_TTL_DAYS,
    delivery: {
      baseVnd: config.CART_DELIVERY_BASE_VND,
      baseM: CART_DELIVERY_BASE_M,
      perKmVnd: config.CART_DELIVERY_PER_KM_VND,
      stepVnd: CART_DELIVERY_STEP_VND,
    },
    serviceFeeVnd: config.CART_SERVICE_FEE_VND,
    checkoutCheckSec: CART_CHECKOUT_CHECK_SEC,
  };
}
