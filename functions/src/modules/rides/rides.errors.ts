import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The rides module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const RIDE_ERROR_CODES = defineErrorCodes({
  RIDE_TRANSITION: [409, 'The ride is no longer in a status that allows this (`details.status`, `details.allowed`).'],
  RIDE_NOT_ALLOWED: [409, "Only the ride's driver (arrived, pickup, complete) or rider (cancel, rating) does this."],
  RIDE_ACTIVE: [409, 'You already have a ride in progress (`details.rideId`).'],
  RIDE_QUOTE_INVALID: [422, 'The quoteId is not one of ours, was altered, or is for another rider, route or vehicle.'],
  RIDE_QUOTE_EXPIRED: [409, 'The quote is older than 5 minutes: ask for a new one.'],
  RIDE_ALREADY_RATED: [409, 'The ride was rated already.'],
  RIDE_NOT_AT_PICKUP: [409, "The driver's last fresh position is farther from the pickup than RIDE_ARRIVE_RADIUS_M (`details.distanceM`)."],
  RIDE_NOT_AT_DROPOFF: [
    409,
    'The driver is neither near the drop-off (RIDE_COMPLETE_RADIUS_M) nor has driven RIDE_COMPLETE_MIN_DRIVEN_BP of the quoted distance (`details`).',
  ],
  RIDE_POSITION_STALE: [409, 'The server has no position of the driver from the last RIDE_POSITION_FRESH_SEC: report the position, then retry.'],
  RIDE_DISPUTE_EXISTS: [409, 'The ride was disputed already (`details.disputeId`).'],
  RIDE_DISPUTE_WINDOW: [409, 'Only a COMPLETED ride, or a CANCELLED one that charged a fee, is disputed, within RIDE_DISPUTE_WINDOW_DAYS of its end.'],
  RIDE_DISPUTE_RESOLVED: [409, 'The dispute was resolved already (`details.outcome`).'],
  RIDE_REFUND_EXCEEDS: [409, 'A dispute refunds at most what the rider paid for the ride (`details.paid`).'],
  RIDE_HOLD_NOT_CAPTURED: [409, "The ride's wallet hold was released or expired before it was captured: nothing was recorded as paid."],
  RIDE_SELF_MANAGE: [
    403,
    'Administrators do not manage (complete, abort, cancel, settle disputes of) a ride they are the rider or driver of; another administrator does.',
  ],
  RIDE_NO_SHOW_EARLY: [409, 'A no-show is declared only after waiting RIDE_CANCEL_WAIT_SEC at the pickup (`details.waitSec`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof RIDE_ERROR_CODES> {}
}
