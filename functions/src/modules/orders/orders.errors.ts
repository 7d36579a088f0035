import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The orders module's error codes (code: [the status it comes with, what it means]).
export const ORDERS_ERROR_CODES = defineErrorCodes({
  ORDER_TRANSITION: [409, 'The order is not in a status that allows this (`details.status`, `details.allowed`).'],
  ORDER_NOT_ALLOWED: [409, 'The caller may not make this move on this order (the consumer, the store, the courier or an administrator may).'],
  ORDER_SELF_MANAGE: [403, 'Administrators do not manage an order they are the consumer, courier or store staff of; another administrator does.'],
  ORDER_HANDOVER_INVALID: [422, 'The delivery code is wrong (`details.attemptsLeft`).'],
  ORDER_HANDOVER_LOCKED: [409, 'Too many wrong delivery codes: a photo of the hand-over proves it now.'],
  ORDER_PROOF_INVALID: [422, 'The photo is not one of your READY image uploads.'],
  ORDER_HANDOVER_TOO_FAR: [
    409,
    'The courier is not where the hand-over happens (`details.radiusM`, HANDOVER_PHOTO_RADIUS_M). A courier’s photo proof of delivery: their last known position is farther from the drop-off, or older than 10 minutes or than the pickup (`details.distanceM`, null when not known); the code still proves it anywhere. The store’s hand-over: the courier’s position of the last 2 minutes is farther from the store (no distance shown).',
  ],
  ORDER_COURIER_RELEASED: [409, 'You are no longer this order’s courier: you gave it up, or the pickup window released you.'],
  ORDER_ALREADY_RATED: [409, 'The order was rated already (once per order).'],
  ORDER_RATING_WINDOW: [409, 'Only a delivered order is rated, within the rating window (`details.windowDays`).'],
  ORDER_NO_COURIER: [409, 'The order has no courier to rate.'],
  ORDER_TOO_MANY_PENDING: [
    409,
    'You hold as many unconfirmed orders (AWAITING_PAYMENT or PLACED) as allowed (`details.maxPending`): wait for a store to confirm one, or cancel one.',
  ],
  ORDER_SELLER_CLOSED: [
    409,
    'The store is not taking orders now, read again as the order is placed (`details.openNow`, `details.paused`, `details.active` false when it left the platform). Checkout answers it as CART_SELLER_CLOSED.',
  ],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ORDERS_ERROR_CODES> {}
}
