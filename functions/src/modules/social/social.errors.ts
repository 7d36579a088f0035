import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The social module's error codes (code: [the status it comes with, what it means]).
export const SOCIAL_ERROR_CODES = defineErrorCodes({
  SOCIAL_MEDIA_INVALID: [
    422,
    'A mediaId is not one of your READY uploads of a kind it takes here (`details.mediaIds`): a reel takes a video and an image cover.',
  ],
  SOCIAL_MEDIA_MIX: [422, 'A post holds up to 10 images, or one video or audio clip: not a mix.'],
  SOCIAL_HANDLE_TAKEN: [409, 'Someone else has this handle.'],
  SOCIAL_FOLLOW_SELF: [422, 'You cannot follow yourself.'],
  SOCIAL_BLOCKED: [403, 'You block this person (chat blocks apply in the social tab too): unblock them first.'],
  SOCIAL_NOT_AUTHOR: [403, 'Only its author changes or deletes a post or comment (a post’s author also deletes comments on it).'],
  SOCIAL_NOT_A_THREAD: [422, 'A reply has no replies of its own: read its parent’s thread.'],
  SOCIAL_NOT_SHAREABLE: [422, 'Only public posts are shared (a FOLLOWERS post only by its author).'],
  SOCIAL_OWN_CONTENT: [422, 'You cannot report your own post or comment.'],
  SOCIAL_STATUS_CONFLICT: [409, 'The post or comment is not in a status this move leaves (`details.status`, `details.allowed`).'],
  SOCIAL_REPORT_RESOLVED: [409, 'The report was resolved already with the other action (`details.outcome`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof SOCIAL_ERROR_CODES> {}
}
