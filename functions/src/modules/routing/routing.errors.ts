import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The routing module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const ROUTING_ERROR_CODES = defineErrorCodes({
  ROUTING_NO_ROUTE: [422, 'There is no road route between the two points.'],
  ROUTING_UNAVAILABLE: [503, 'The routing service (OSRM) is not answering.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ROUTING_ERROR_CODES> {}
}
