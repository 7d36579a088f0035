import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The cms module's error codes (code: [the status it comes with, what it means]).
export const CMS_ERROR_CODES = defineErrorCodes({
  CMS_STATUS_CONFLICT: [
    409,
    'The record is not in a status this move leaves (`details.status`, `details.allowed`): unpublish before archiving; an archived record is not edited or published.',
  ],
  CMS_REVISION_CONFLICT: [409, 'The draft changed since the `revision` you sent (`details.revision` is the current one): read it again.'],
  CMS_VERSION_NOT_FOUND: [404, 'The record has no such version.'],
  CMS_SLUG_TAKEN: [409, 'A page with this slug exists (`details.status`): edit it, or archive it and pick another slug.'],
  CMS_IMAGE_INVALID: [422, 'An image id is not one of your READY image uploads (`details.mediaIds`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof CMS_ERROR_CODES> {}
}
