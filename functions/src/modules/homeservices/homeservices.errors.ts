import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The home-services module's error codes (code: [the status it comes with, what it means]).
export const HOME_SERVICES_ERROR_CODES = defineErrorCodes({
  HOME_SERVICE_NOT_FOUND: [404, 'No such service at this provider.'],
  HOME_SERVICE_OUT_OF_AREA: [422, 'The address is outside the provider’s coverage: `details.distanceM`, `details.coverageRadiusM`.'],
  HOME_SERVICE_CLOSED: [422, 'The window is outside the provider’s working hours: `details.startsAt`.'],
  HOME_SERVICE_HOURS: [422, 'The visit is shorter or longer than the service takes: `details.minHours`, `details.maxHours`.'],
  HOME_SERVICE_PHOTO_INVALID: [422, 'A completion photo is not one of the caller’s READY image uploads: `details.mediaId`.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof HOME_SERVICES_ERROR_CODES> {}
}
