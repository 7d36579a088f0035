import { createCommentsService } from './social.comments';
import { createEngagementService } from './social.engagement';
import { createModerationService } from './social.moderation';
import { createPeopleService } from './social.people';
import { createPostsService } from './social.posts';
import { createReelsService } from './social.reels';

// The social module's services, built once for its routes (comments, reels, engagement and moderation build on posts).
export function createSocialServices() {
  const posts = createPostsService();
  const comments = createCommentsService(posts);
  return {
    posts,
    people: createPeopleService(),
    comments,
    reels: createReelsService(posts),
    engagement: createEngagementService(posts),
    moderation: createModerationService(posts, comments),
  };
}
export type SocialServices = ReturnType<typeof createSocialServices>;

// What every route of the consumer app's social tab shares (drivers get 403).
export const SOCIAL_COMMON = { tag: 'social' as const, auth: [] as const, hat: 'CON' as const };
export const HIDDEN_TEXT = 'Someone either of you blocks, a locked account, a FOLLOWERS post of someone you do not follow: 404, as if it did not exist.';
