import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The media module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const MEDIA_ERROR_CODES = defineErrorCodes({
  UPLOAD_STATE: [409, 'The presigned upload is not (or no longer) waiting for bytes.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof MEDIA_ERROR_CODES> {}
}
