import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The reviews module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const REVIEW_ERROR_CODES = defineErrorCodes({
  REVIEW_EXISTS: [409, 'You reviewed this record already (`details.reviewId`): edit that review.'],
  REVIEW_OWN_TARGET: [403, 'The managers of a record cannot review it.'],
  REVIEW_NOT_AUTHOR: [403, 'Only its author edits or deletes a review.'],
  REVIEW_NOT_MANAGER: [403, 'Only the managers of the reviewed record reply.'],
  REVIEW_ALREADY_REPLIED: [409, 'The review has a reply already.'],
  REVIEW_OWN: [422, 'You cannot report your own review.'],
  REVIEW_REPORT_RESOLVED: [409, 'The report is resolved already.'],
  REVIEW_PHOTO_INVALID: [422, 'A photoId is not one of your READY image uploads.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof REVIEW_ERROR_CODES> {}
}
