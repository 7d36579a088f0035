import type { AppConfig } from '../../platform/core/config';
import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The orders module's switches (timer, commissions, courier search) and its fixed rules.
export const ordersSwitches = defineSwitches({
  ORDER_CONFIRM_TIMEOUT_SEC: {
    schema: positiveInt(600, 3_600, 60),
    effect: 'a PLACED order the store has not confirmed within this is cancelled and refunded (timer, and lazily on read)',
  },
  ORDER_COMMISSION_BP: {
    schema: positiveInt(2_000, 5_000, 0),
    effect: "the platform's commission on an order's items, in basis points (the store's payout is the rest)",
  },
  ORDER_DELIVERY_COMMISSION_BP: {
    schema: positiveInt(1_000, 5_000, 0),
    effect: "the platform's commission on an order's delivery fee, in basis points (the courier earns the rest)",
  },
  ORDER_COURIER_RADIUS_M: { schema: positiveInt(5_000, 30_000, 500), effect: 'how far from the store free COURIER drivers are searched for' },
  ORDERS_MAX_PENDING_PER_CONSUMER: {
    schema: positiveInt(5, 50, 1),
    effect: 'orders one consumer may hold unconfirmed (AWAITING_PAYMENT or PLACED) at once: a checkout past it is refused (409 ORDER_TOO_MANY_PENDING)',
  },
  ORDER_COURIER_LEAD_SEC: {
    schema: positiveInt(300, 3_600, 0),
    effect: "a courier is searched for this long before the store's preparation time ends (0: only once the store says ready)",
  },
  ORDER_PICKUP_WINDOW_MIN: {
    schema: positiveInt(30, 240, 5),
    effect:
      'a courier who has not picked the order up within this many minutes of the assignment (or of the store saying ready, whichever is later) is released and the search runs again',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof ordersSwitches> {}
}

/** Candidates tried per assignment attempt, nearest first. */
export const ORDER_COURIER_CANDIDATES = 5;
/** The courier search while nobody is free: tried again after 15 s, doubling up to every 2 minutes, until the order has a courier or ends. */
export const ORDER_COURIER_RETRY_SEC = { firstSec: 15, maxSec: 120 } as const;
/** A search this far past its due time has nothing armed (its task was lost): a party's read or the store's `ready` arms it again. */
export const ORDER_COURIER_STALL_SEC = 180;
/** Couriers who gave an order up (or were released from it) that it remembers: never offered it again, answered 409 on a retry. */
export const ORDER_FORMER_COURIERS_MAX = 20;
/** The consumer rates a delivered order within this many days. */
export const ORDER_RATING_WINDOW_DAYS = 7;

export interface OrderSettings {
  /** DRIVER_CASH_DEBT_LIMIT_VND (wallet's switch): couriers past it get no cash orders. */
  cashDebtLimitVnd: number;
  confirmTimeoutSec: number;
  commissionBp: number;
  deliveryCommissionBp: number;
  courierRadiusM: number;
  courierCandidates: number;
  courierLeadSec: number;
  ratingWindowDays: number;
  /** ORDERS_MAX_PENDING_PER_CONSUMER. */
  maxPendingPerConsumer: number;
  pickupWindowMin: number;
  /** HANDOVER_PHOTO_RADIUS_M (the handover kit's switch, installed with the driver module's): how near a handover's place the courier must be. */
  handoverRadiusM: number;
  /** JOB_GIVE_UP_COOLDOWN_MIN (the driver module's switch). */
  giveUpCooldownMin: number;
  courierStallSec: number;
  formerCouriersMax: number;
}

/** The settings of a configuration: its switches and the fixed rules. */
export function orderSettings(config: Readonly<AppConfig>): OrderSettings {
  return {
    cashDebtLimitVnd: config.DRIVER_CASH_DEBT_LIMIT_VND,
    confirmTimeoutSec: config.ORDER_CONFIRM_TIMEOUT_SEC,
    commissionBp: config.ORDER_COMMISSION_BP,
    deliveryCommissionBp: config.ORDER_DELIVERY_COMMISSION_BP,
    courierRadiusM: config.ORDER_COURIER_RADIUS_M,
    courierCandidates: ORDER_COURIER_CANDIDATES,
    courierLeadSec: config.ORDER_COURIER_LEAD_SEC,
    ratingWindowDays: ORDER_RATING_WINDOW_DAYS,
    maxPendingPerConsumer: config.ORDERS_MAX_PENDING_PER_CONSUMER,
    pickupWindowMin: config.ORDER_PICKUP_WINDOW_MIN,
    handoverRadiusM: config.HANDOVER_PHOTO_RADIUS_M,
    giveUpCooldownMin: config.JOB_GIVE_UP_COOLDOWN_MIN,
    courierStallSec: ORDER_COURIER_STALL_SEC,
    formerCouriersMax: ORDER_FORMER_COURIERS_MAX,
  };
}
