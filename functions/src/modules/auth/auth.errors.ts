import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The auth module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const AUTH_ERROR_CODES = defineErrorCodes({
  REFRESH_TOKEN_REUSED: [401, 'A retired refresh token was replayed: the whole session is revoked.'],
  AUTH_INVALID_CREDENTIALS: [401, 'Wrong email or password.'],
  AUTH_INVALID_CODE: [400, 'Wrong, expired or used one-time code.'],
  AUTH_LOCKED: [429, 'Too many failed attempts: sign-in is locked for a while (password reset still works).'],
  AUTH_CODE_LIMIT: [429, 'A code was sent to this destination too recently, or too many were sent.'],
  AUTH_EMAIL_NOT_VERIFIED: [403, 'The email is not verified yet.'],
  AUTH_PASSWORD_INCORRECT: [403, 'The password given to confirm a change is wrong.'],
  ACCOUNT_DISABLED: [403, 'The account is locked by an administrator.'],
  ACCOUNT_EXISTS: [409, 'An account with this email, phone or Google identity exists.'],
  PHONE_TAKEN: [409, 'The phone number belongs to another account.'],
  PHONE_COUNTRY_NOT_ALLOWED: [400, 'Codes are not texted to numbers of this country (SMS_COUNTRIES; `details.country`).'],
  PHONE_NOT_MOBILE: [400, 'Codes are texted to mobile numbers only: not to premium-rate, toll-free, shared-cost or fixed-line ones (`details.type`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof AUTH_ERROR_CODES> {}
}
