import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The driver module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const DRIVER_ERROR_CODES = defineErrorCodes({
  DRIVER_POSITION_JUMP: [
    422,
    'The position is farther from the last one than DRIVER_MAX_SPEED_KMH allows in the time between them: refused (`details.distanceM`, `details.seconds`).',
  ],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof DRIVER_ERROR_CODES> {}
}
