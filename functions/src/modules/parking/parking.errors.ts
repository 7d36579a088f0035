import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The parking module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const PARKING_ERROR_CODES = defineErrorCodes({
  PARKING_NOT_BOOKABLE: [422, 'The lot takes no bookings of this vehicle type (no bookableSpaces of it, or no price, or free): `details.vehicleType`.'],
  PARKING_SPACES_OUT_OF_RANGE: [409, 'The change would leave fewer than 0 or more than capacity free spaces (`details.freeSpaces`, `details.capacity`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof PARKING_ERROR_CODES> {}
}
