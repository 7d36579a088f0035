import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The social module's error codes (code: [the status it comes with, what it means]).
export const SOCIAL_ERROR_CODES = defineErrorCodes({
  SOCIAL_MEDIA_INVALID: [422, 'A mediaId is not one of your READY uploads of a kind a post takes (`details.mediaIds`).'],
  SOCIAL_MEDIA_MIX: [422, 'A post holds up to 10 images, or one audio clip: not both.'],
  SOCIAL_HANDLE_TAKEN: [409, 'Someone else has this handle.'],
  SOCIAL_FOLLOW_SELF: [422, 'You cannot follow yourself.'],
  SOCIAL_BLOCKED: [403, 'You block this person (chat blocks apply in the social tab too): unblock them first.'],
  SOCIAL_NOT_AUTHOR: [403, 'Only its author changes or deletes a post.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof SOCIAL_ERROR_CODES> {}
}
