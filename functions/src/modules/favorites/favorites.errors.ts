import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The favorites module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const FAVORITE_ERROR_CODES = defineErrorCodes({
  FAVORITE_LIMIT: [409, 'At most 500 favorites.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof FAVORITE_ERROR_CODES> {}
}
