import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The kyc module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const KYC_ERROR_CODES = defineErrorCodes({
  APPLICATION_TRANSITION: [409, 'The application cannot move to that status from its current one.'],
  PAPERS_INCOMPLETE: [409, 'Approval needs papers that are missing (`details.missingPapers`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof KYC_ERROR_CODES> {}
}
