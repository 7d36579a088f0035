import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The promotions module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const PROMOTION_ERROR_CODES = defineErrorCodes({
  PROMOTION_NOT_FOUND: [404, 'No active voucher has this code.'],
  PROMOTION_NOT_STARTED: [409, 'The voucher is not valid yet (`details.startsAt`).'],
  PROMOTION_EXPIRED: [409, 'The voucher has expired (`details.endsAt`).'],
  PROMOTION_NOT_APPLICABLE: [422, 'The voucher is for other verticals (`details.verticals`) or another seller.'],
  PROMOTION_MIN_SPEND: [422, "The purchase is below the voucher's minimum (`details.minSpend`)."],
  PROMOTION_USER_LIMIT: [409, 'You have used the voucher as often as it allows (`details.perUserLimit`).'],
  PROMOTION_EXHAUSTED: [409, 'The voucher has no uses left.'],
  PROMOTION_CODE_TAKEN: [409, 'Another voucher has this code.'],
  PROMOTION_NOT_MANAGER: [403, "Vouchers are managed by their partner's owner and staff; platform vouchers by administrators."],
  PROMOTION_PAYABLE_NOT_FOUND: [404, 'No such payable (a ride) of yours: a voucher is used on your own ride only.'],
  PROMOTION_PAYABLE_CLOSED: [409, 'The payable was cancelled or refunded (`details.status`): no voucher is used on it.'],
  PROMOTION_PAYABLE_TAKEN: [409, 'Another voucher is already used on this payable: one voucher per ride.'],
  PROMOTION_PAYABLE_SETTLED: [409, 'The payable is paid already (a completed ride, `details.status`): a voucher applies only before payment.'],
  PROMOTION_RELEASE_REFUSED: [409, 'A use is given back only once what it was used on is cancelled or refunded (`details.status`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof PROMOTION_ERROR_CODES> {}
}
