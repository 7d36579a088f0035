import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The admin module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const ADMIN_ERROR_CODES = defineErrorCodes({
  LAST_ADMIN: [409, 'The change would leave no active administrator.'],
  USER_CHANGED: [409, 'The account changed since the `expectedUpdatedAt` you sent (`details.updatedAt` is its time now): read it again.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ADMIN_ERROR_CODES> {}
}
