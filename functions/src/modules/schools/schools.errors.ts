import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The schools module's error codes (code: [the status it comes with, what it means]).
export const SCHOOLS_ERROR_CODES = defineErrorCodes({
  SCHOOL_PROGRAM_NOT_FOUND: [404, 'No such program at this school.'],
  SCHOOL_CLOSED: [422, 'The time is outside the school’s consultation hours: `details.startsAt`.'],
  SCHOOL_FOLLOW_UP_NOT_READY: [409, 'A family is followed up once its consultation has taken place (IN_PROGRESS or COMPLETED).'],
  SCHOOL_FOLLOW_UP_TRANSITION: [409, 'The follow-up cannot move from its stage with this step: `details.status`.'],
  SCHOOL_FOLLOW_UP_NOT_ALLOWED: [409, 'Only the school’s people move a follow-up.'],
  SCHOOL_TRIPS_NOT_OFFERED: [422, 'The school offers no school trips (`schoolTrips` is not set).'],
  SCHOOL_TRIP_TOO_FAR: [422, 'Home is farther from the school than a school trip goes: `details.distanceM`, `details.maxM`.'],
  SCHOOL_TRIP_TRANSITION: [409, 'The plan or trip is not in a status that allows this: `details.status`.'],
  SCHOOL_TRIP_NOT_ALLOWED: [409, 'The caller may not make this move on the plan or trip (a parent starting a trip…).'],
  SCHOOL_TRIP_NOT_CAPABLE: [403, 'The driver lacks the SCHOOL_TRIP capability (an administrator grants it), or is the plan’s own parent.'],
  SCHOOL_TRIP_DRIVER_BUSY: [409, 'The driver cannot set off now: offline, not located for 10 minutes, or on a ride or another job.'],
  SCHOOL_TRIP_TOO_EARLY: [409, 'A trip is started on its day, from an hour before its pick-up: `details.notBefore`.'],
  SCHOOL_TRIP_TERM_OVER: [409, 'The plan’s term has ended.'],
  SCHOOL_TRIP_NOT_A_SCHOOL_DAY: [422, 'The plan runs no trip that day (outside its term or weekdays, or past): `details.date`.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof SCHOOLS_ERROR_CODES> {}
}
