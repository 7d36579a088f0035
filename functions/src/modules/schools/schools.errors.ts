import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The schools module's error codes (code: [the status it comes with, what it means]).
export const SCHOOLS_ERROR_CODES = defineErrorCodes({
  SCHOOL_PROGRAM_NOT_FOUND: [404, 'No such program at this school.'],
  SCHOOL_CLOSED: [422, 'The time is outside the school’s consultation hours: `details.startsAt`.'],
  SCHOOL_LEAD_NOT_READY: [409, 'A family is followed up once its consultation has taken place (IN_PROGRESS or COMPLETED).'],
  SCHOOL_LEAD_TRANSITION: [409, 'The follow-up cannot move from its stage with this step: `details.status`.'],
  SCHOOL_LEAD_NOT_ALLOWED: [403, 'Only the school’s people follow a family up.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof SCHOOLS_ERROR_CODES> {}
}
