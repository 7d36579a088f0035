import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The delivery module's error codes (code: [the status it comes with, what it means]).
export const DELIVERY_ERROR_CODES = defineErrorCodes({
  DELIVERY_TRANSITION: [409, 'The parcel is not in a status that allows this (`details.status`, `details.allowed`).'],
  DELIVERY_NOT_ALLOWED: [409, "Only the parcel's driver (pickup, deliver) or sender (cancel, rating) does this."],
  DELIVERY_QUOTE_INVALID: [422, 'The quoteId is not one of ours, was altered, or was made for another sender or cash-on-delivery amount.'],
  DELIVERY_QUOTE_EXPIRED: [409, 'The quote is older than DELIVERY_QUOTE_TTL_SEC: ask for a new one.'],
  DELIVERY_DISTANCE: [422, 'The road distance is outside what a parcel is delivered over (`details.distanceM`, `details.minM`, `details.maxM`).'],
  DELIVERY_CODE_WRONG: [422, 'The hand-over code is wrong (`details.attemptsLeft`).'],
  DELIVERY_CODE_LOCKED: [409, 'Too many wrong hand-over codes: this hand-over is proved with a photo now.'],
  DELIVERY_PHOTO_INVALID: [422, 'The photoId is not one of your READY image uploads.'],
  DELIVERY_HANDOVER_TOO_FAR: [
    409,
    'A photo proves the hand-over only near the pickup (or the drop-off): your last known position is farther than HANDOVER_PHOTO_RADIUS_M, or older than 10 minutes (`details.distanceM`, `details.radiusM`). The code still proves it anywhere.',
  ],
  DELIVERY_DRIVER_RELEASED: [409, 'You are no longer this parcel’s driver: you gave it up, or the pickup window released you.'],
  DELIVERY_ALREADY_RATED: [409, 'The sender rated this delivery already.'],
  DELIVERY_RATING_WINDOW: [409, 'Only a DELIVERED parcel is rated, within DELIVERY_RATING_WINDOW_DAYS of its delivery.'],
  DELIVERY_SELF_MANAGE: [403, 'Administrators do not cancel a parcel they are the sender or driver of; another administrator does.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof DELIVERY_ERROR_CODES> {}
}
