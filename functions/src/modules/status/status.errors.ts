import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The status module's error codes (code: [the status it comes with, what it means]).
export const STATUS_ERROR_CODES = defineErrorCodes({
  INCIDENT_TRANSITION: [409, 'The incident is not in a status that allows this (`details.status`, `details.allowed`), e.g. reopening a RESOLVED one.'],
  INCIDENT_NOT_ALLOWED: [409, 'The caller may not make this move on an incident.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof STATUS_ERROR_CODES> {}
}
