import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The fuel module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const FUEL_ERROR_CODES = defineErrorCodes({
  FUEL_PRICE_TYPE_REQUIRED: [400, 'sort=price needs the fuelType to compare.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof FUEL_ERROR_CODES> {}
}
