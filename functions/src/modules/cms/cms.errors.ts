import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The cms module's error codes (code: [the status it comes with, what it means]).
export const CMS_ERROR_CODES = defineErrorCodes({
  CMS_STATUS_CONFLICT: [
    409,
    'The record is not in a status this move leaves (`details.status`, `details.allowed`): unpublish before archiving; restore an archived record before editing or publishing it.',
  ],
  CMS_REVISION_CONFLICT: [409, 'The draft changed since the `revision` you sent (`details.revision` is the current one): read it again.'],
  CMS_VERSION_NOT_FOUND: [404, 'The record has no such version.'],
  CMS_ID_TAKEN: [409, 'Another administrator’s record has this id (an Idempotency-Key another administrator used): send a new key.'],
  CMS_SLUG_TAKEN: [409, 'A page with this slug exists (`details.status`): edit it (restore it first when ARCHIVED).'],
  CMS_IMAGE_INVALID: [422, 'An image id is not one of your READY image uploads (`details.mediaIds`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof CMS_ERROR_CODES> {}
}
