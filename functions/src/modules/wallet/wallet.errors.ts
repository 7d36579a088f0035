import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The wallet module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const WALLET_ERROR_CODES = defineErrorCodes({
  WALLET_INSUFFICIENT_FUNDS: [409, 'The account does not hold the amount (`details.available`, `details.needed`).'],
  WALLET_DAILY_LIMIT: [409, 'Over the daily transfer limit (`details.remainingToday`).'],
  WALLET_SELF_TRANSFER: [400, 'Money cannot be sent to yourself.'],
  WALLET_RECIPIENT_UNAVAILABLE: [409, 'The recipient account is not active (unverified or locked).'],
  WITHDRAWAL_TRANSITION: [409, 'The withdrawal is no longer PENDING (`details.status`).'],
  WITHDRAWAL_SELF_APPROVAL: [403, 'An administrator does not approve their own withdrawal: another one does.'],
  WALLET_SELF_ADJUSTMENT: [403, 'An administrator does not adjust their own wallet: another one does.'],
  ADJUSTMENT_TRANSITION: [409, 'The adjustment is no longer PENDING (`details.status`).'],
  ADJUSTMENT_SELF_APPROVAL: [403, 'The administrator who asked for an adjustment does not approve it: a second one does.'],
  ADJUSTMENT_REQUESTER_REVOKED: [
    409,
    'The administrator who asked for this adjustment is no longer an active ADMIN with payments.manage: it can only be rejected.',
  ],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof WALLET_ERROR_CODES> {}
}
