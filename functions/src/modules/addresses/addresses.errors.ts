import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The addresses module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const ADDRESS_ERROR_CODES = defineErrorCodes({
  ADDRESS_LIMIT: [409, 'At most 20 saved addresses.'],
  ADDRESS_LABEL_TAKEN: [409, 'You have an address with this label (HOME, WORK) already (`details.addressId`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ADDRESS_ERROR_CODES> {}
}
