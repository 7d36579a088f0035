import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The medical module's error codes (code: [the status it comes with, what it means]).
export const MEDICAL_ERROR_CODES = defineErrorCodes({
  MEDICAL_DOCTOR_NOT_FOUND: [404, 'No such doctor at this clinic.'],
  MEDICAL_CLINIC_CLOSED: [422, 'The time is outside the clinic’s opening hours: `details.startsAt`.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof MEDICAL_ERROR_CODES> {}
}
