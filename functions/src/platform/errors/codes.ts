// Stable, machine-readable error codes: clients branch on `code`, never on `message` (which may change).
// Each HTTP status has a general code; operations add specific ones where a client must tell cases apart.
// Code: [the status it comes with, what it means].
export const ERROR_CODES = {
  // General, one per status
  VALIDATION_FAILED: [400, 'A field of the request failed validation; `details` names each field.'],
  BAD_REQUEST: [400, 'The request cannot be processed as sent.'],
  MALFORMED_JSON: [400, 'The body is not valid JSON.'],
  INVALID_CURSOR: [400, 'The cursor is not a nextCursor of this list for this caller.'],
  UNAUTHORIZED: [401, 'Missing or invalid credentials.'],
  FORBIDDEN: [403, 'The caller may not do this.'],
  NOT_FOUND: [404, 'No such resource (or a path id that cannot exist, or hidden by configuration).'],
  CONFLICT: [409, 'Conflicts with the current state.'],
  PAYLOAD_TOO_LARGE: [413, 'The body or a file is over its limit.'],
  UNPROCESSABLE: [422, 'Well-formed but not acceptable here.'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Wrong Content-Type, or bytes that are not the declared type.'],
  RATE_LIMITED: [429, 'Too many requests; see Retry-After.'],
  SERVICE_UNAVAILABLE: [503, 'A dependency is unavailable.'],
  DEADLINE_EXCEEDED: [503, 'The server gave up on the request at its deadline (REQUEST_DEADLINE_MS); it may still complete: retry after Retry-After, with the same Idempotency-Key where the operation takes one.'],
  CONTENDED: [503, 'Too many concurrent changes to one record; retry after Retry-After.'],
  INTERNAL: [500, 'Unexpected server error (no internals are exposed).'],
  // Tokens and sessions
  TOKEN_MISSING: [401, 'No bearer token.'],
  TOKEN_INVALID: [401, 'The token is malformed, forged, of the wrong type or expired.'],
  TOKEN_REVOKED: [401, 'The session ended (logout, lock, password reset, refresh-token reuse).'],
  REFRESH_TOKEN_REUSED: [401, 'A retired refresh token was replayed: the whole session is revoked.'],
  ROLE_REQUIRED: [403, 'None of the roles the operation needs.'],
  PERMISSION_REQUIRED: [403, 'An administrator without the permission the operation needs, or granting one it lacks.'],
  HAT_LOCKED: [403, 'The app (hat) of the operation is not unlocked for this account (drivers cannot book).'],
  // Sign-in
  AUTH_INVALID_CREDENTIALS: [401, 'Wrong email or password.'],
  AUTH_INVALID_CODE: [400, 'Wrong, expired or used one-time code.'],
  AUTH_LOCKED: [429, 'Too many failed attempts: sign-in is locked for a while (password reset still works).'],
  AUTH_CODE_LIMIT: [429, 'A code was sent to this destination too recently, or too many were sent.'],
  AUTH_EMAIL_NOT_VERIFIED: [403, 'The email is not verified yet.'],
  AUTH_PASSWORD_INCORRECT: [403, 'The password given to confirm a change is wrong.'],
  ACCOUNT_DISABLED: [403, 'The account is locked by an administrator.'],
  ACCOUNT_EXISTS: [409, 'An account with this email, phone or Google identity exists.'],
  PHONE_TAKEN: [409, 'The phone number belongs to another account.'],
  // Administration and applications
  LAST_ADMIN: [409, 'The change would leave no active administrator.'],
  APPLICATION_TRANSITION: [409, 'The application cannot move to that status from its current one.'],
  PAPERS_INCOMPLETE: [409, 'Approval needs papers that are missing (`details.missingPapers`).'],
  // Calls
  CALL_BUSY: [409, 'The caller is already in a call.'],
  CALL_NOT_ALLOWED: [409, 'Only the callee answers or declines, only the caller cancels.'],
  CALL_TRANSITION: [409, 'The call is no longer in a status that allows this (`details.status`).'],
  // Chat
  CHAT_SELF_CONVERSATION: [400, 'A direct conversation needs another person.'],
  CHAT_BLOCKED: [403, 'One of the two blocks the other.'],
  CHAT_NOT_OWNER: [403, 'Only the group owner adds and removes members.'],
  CHAT_NOT_SENDER: [403, 'Only the sender edits or deletes a message.'],
  CHAT_NOT_GROUP: [409, 'Only a group conversation has a title and changing members.'],
  CHAT_GROUP_FULL: [409, 'A group holds at most 100 members.'],
  CHAT_ALREADY_MEMBER: [409, 'The account is a member already (`details.userIds`).'],
  CHAT_CLOSED: [409, 'The ride, order or booking of this conversation is closed: it is read-only.'],
  CHAT_EDIT_WINDOW: [409, 'Messages are edited or deleted within 15 minutes of sending, and not after deletion.'],
  CHAT_NOT_EDITABLE: [409, 'Only text messages are edited.'],
  CHAT_ATTACHMENT_INVALID: [422, 'The media item is not one of your READY uploads of the message type.'],
  CHAT_REPLY_NOT_FOUND: [422, 'replyToId (or upToMessageId, before, after) is not a message of this conversation.'],
  CHAT_OWN_MESSAGE: [422, 'You cannot report your own message.'],
  // Wallet and ledger
  WALLET_INSUFFICIENT_FUNDS: [409, 'The account does not hold the amount (`details.available`, `details.needed`).'],
  WALLET_DAILY_LIMIT: [409, 'Over the daily transfer limit (`details.remainingToday`).'],
  WALLET_SELF_TRANSFER: [400, 'Money cannot be sent to yourself.'],
  WALLET_RECIPIENT_UNAVAILABLE: [409, 'The recipient account is not active (unverified or locked).'],
  WITHDRAWAL_TRANSITION: [409, 'The withdrawal is no longer PENDING (`details.status`).'],
  // Payments
  PAYMENT_TRANSITION: [409, 'The payment is not in a status that allows this (`details.status`), e.g. a second full refund.'],
  PAYMENT_NOT_REFUNDABLE: [409, 'This payment cannot be refunded here (cash is refunded in person).'],
  PAYMENT_NOT_REFUNDABLE_BY_PAYER: [403, 'Only a top-up is refunded by its payer; purchases are refunded by the service or an administrator.'],
  PAYMENT_REFUND_WINDOW: [409, 'The refund window of this payment has closed.'],
  PAYMENT_REFUND_EXCEEDS: [409, 'More than what is left to refund (`details.refundable`), or too many partial refunds.'],
  PAYMENT_CAPTURE_EXCEEDS: [409, 'A capture above the held amount.'],
  PAYMENT_PROVIDER_UNAVAILABLE: [422, 'The payment provider is not configured here (MOCK needs PAYMENTS_MOCK).'],
  PAYMENT_GATEWAY_UNAVAILABLE: [503, 'The payment gateway did not answer; the payment was not opened.'],
  IPN_SIGNATURE_INVALID: [400, 'A gateway notification whose signature (or partner) does not verify.'],
  IPN_UNKNOWN_ORDER: [404, 'A gateway notification about no payment of ours.'],
  IPN_AMOUNT_MISMATCH: [409, 'A gateway notification whose amount differs from the payment: nothing changed.'],
  // Rides
  RIDE_TRANSITION: [409, 'The ride is no longer in a status that allows this (`details.status`, `details.allowed`).'],
  RIDE_NOT_ALLOWED: [409, "Only the ride's driver (arrived, pickup, complete) or rider (cancel, rating) does this."],
  RIDE_ACTIVE: [409, 'You already have a ride in progress (`details.rideId`).'],
  RIDE_QUOTE_INVALID: [422, 'The quoteId is not one of ours, was altered, or is for another rider, route or vehicle.'],
  RIDE_QUOTE_EXPIRED: [409, 'The quote is older than 5 minutes: ask for a new one.'],
  RIDE_ALREADY_RATED: [409, 'The ride was rated already.'],
  // Routing
  ROUTING_NO_ROUTE: [422, 'There is no road route between the two points.'],
  ROUTING_UNAVAILABLE: [503, 'The routing service (OSRM) is not answering.'],
  // Media
  CATALOG_NOT_MANAGER: [403, 'Only the managing partner (owner or staff) changes this record; curated records are the administrators\'.'],
  CATALOG_TRANSITION: [409, 'The record is not in a status that allows this (`details.status`): archived records are read-only.'],
  CATALOG_NOT_ALLOWED: [409, 'Hiding and restoring are for administrators, archiving for the record\'s managers.'],
  PARKING_SPACES_OUT_OF_RANGE: [409, 'The change would leave fewer than 0 or more than capacity free spaces (`details.freeSpaces`, `details.capacity`).'],
  FUEL_PRICE_TYPE_REQUIRED: [400, 'sort=price needs the fuelType to compare.'],
  ADDRESS_LIMIT: [409, 'At most 20 saved addresses.'],
  ADDRESS_LABEL_TAKEN: [409, 'You have an address with this label (HOME, WORK) already (`details.addressId`).'],
  FAVORITE_LIMIT: [409, 'At most 500 favorites.'],
  REVIEW_EXISTS: [409, 'You reviewed this record already (`details.reviewId`): edit that review.'],
  REVIEW_OWN_TARGET: [403, 'The managers of a record cannot review it.'],
  REVIEW_NOT_AUTHOR: [403, 'Only its author edits or deletes a review.'],
  REVIEW_NOT_MANAGER: [403, 'Only the managers of the reviewed record reply.'],
  REVIEW_ALREADY_REPLIED: [409, 'The review has a reply already.'],
  REVIEW_OWN: [422, 'You cannot report your own review.'],
  REVIEW_ALREADY_REPORTED: [409, 'You reported this review already.'],
  REVIEW_REPORT_RESOLVED: [409, 'The report is resolved already.'],
  REVIEW_PHOTO_INVALID: [422, 'A photoId is not one of your READY image uploads.'],
  PROMOTION_NOT_FOUND: [404, 'No active voucher has this code.'],
  PROMOTION_NOT_STARTED: [409, 'The voucher is not valid yet (`details.startsAt`).'],
  PROMOTION_EXPIRED: [409, 'The voucher has expired (`details.endsAt`).'],
  PROMOTION_NOT_APPLICABLE: [422, 'The voucher is for other verticals (`details.verticals`) or another seller.'],
  PROMOTION_MIN_SPEND: [422, 'The purchase is below the voucher\'s minimum (`details.minSpend`).'],
  PROMOTION_USER_LIMIT: [409, 'You have used the voucher as often as it allows (`details.perUserLimit`).'],
  PROMOTION_EXHAUSTED: [409, 'The voucher has no uses left.'],
  PROMOTION_CODE_TAKEN: [409, 'Another voucher has this code.'],
  PROMOTION_NOT_MANAGER: [403, 'Vouchers are managed by their partner\'s owner and staff; platform vouchers by administrators.'],
  CATALOG_PHOTO_INVALID: [422, 'A photoId is not one of your READY image uploads.'],

  UPLOAD_STATE: [409, 'The presigned upload is not (or no longer) waiting for bytes.'],
  // Jobs
  IDEMPOTENCY_KEY_REQUIRED: [400, 'This operation moves money: it needs an Idempotency-Key header.'],
  IDEMPOTENCY_IN_PROGRESS: [409, 'A request with this Idempotency-Key is still running; retry shortly.'],
  IDEMPOTENCY_KEY_REUSED: [422, 'This Idempotency-Key was used with another request body.'],
  JOB_BUSY: [409, 'Another runner holds the job.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const GENERAL_CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

export function generalCode(statusCode: number): ErrorCode {
  return GENERAL_CODE_BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

/** The codes that come with an HTTP status. */
export function codesOfStatus(statusCode: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code][0] === statusCode);
}
