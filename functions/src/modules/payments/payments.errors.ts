import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The payments module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const PAYMENT_ERROR_CODES = defineErrorCodes({
  TIP_LIMIT: [409, 'This ride (or order) has taken all the tips it may (`details.maxTips`).'],
  TIP_WINDOW: [409, 'Tips are given within a set time after the ride ends (`details.windowSec`).'],
  PAYMENT_TRANSITION: [409, 'The payment is not in a status that allows this (`details.status`), e.g. a second full refund.'],
  PAYMENT_NOT_REFUNDABLE: [409, 'This payment cannot be refunded here (cash is refunded in person).'],
  PAYMENT_NOT_REFUNDABLE_BY_PAYER: [403, 'Only a top-up is refunded by its payer; purchases are refunded by the service or an administrator.'],
  PAYMENT_REFUND_WINDOW: [409, 'The refund window of this payment has closed.'],
  PAYMENT_REFUND_EXCEEDS: [409, 'More than what is left to refund (`details.refundable`), or too many partial refunds.'],
  PAYMENT_CAPTURE_EXCEEDS: [409, 'A capture above the held amount.'],
  PAYMENT_SELF_REFUND: [403, 'Staff do not refund a payment they paid or received: another administrator does.'],
  PAYMENT_REFUND_IN_FLIGHT: [409, 'A refund of this payment is still with the gateway (`details.refundId`): try again once it settles.'],
  PAYMENT_REFUND_KEY_REQUIRED: [
    409,
    'A keyless refund of this payment with another amount or reason was already made: send an Idempotency-Key for another refund.',
  ],
  STAFF_REFUND_SELF_APPROVAL: [403, 'The administrator who asked for a staff refund does not approve it: a second one does.'],
  STAFF_REFUND_TRANSITION: [409, 'The staff refund request is not PENDING (already approved or rejected).'],
  STAFF_REFUND_REQUESTER_REVOKED: [
    409,
    'The administrator who asked for this staff refund is no longer an active ADMIN with payments.manage: it can only be rejected.',
  ],
  STAFF_REFUND_REVERSAL: [409, 'Only a staff-made or payer refund the gateway finally refused (FAILED) is reversed to the payer’s wallet, once.'],
  PAYMENT_PROVIDER_UNAVAILABLE: [422, 'The payment provider is not configured here (MOCK needs PAYMENTS_MOCK).'],
  PAYMENT_GATEWAY_UNAVAILABLE: [503, 'The payment gateway did not answer; the payment was not opened.'],
  IPN_SIGNATURE_INVALID: [400, 'A gateway notification whose signature (or partner) does not verify.'],
  IPN_UNKNOWN_ORDER: [404, 'A gateway notification about no payment of ours.'],
  IPN_AMOUNT_MISMATCH: [409, 'A gateway notification whose amount differs from the payment: nothing changed.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof PAYMENT_ERROR_CODES> {}
}
