import { rollupTaskQueue } from '../../platform/kits/counters/rollup';

// The social module's collections (API only: firestore.rules denies clients).
// `social_posts/{postId}`: posts and reels with their author's name and handle as they were when posted; counters
// (likes, comments, shares, views) in `social_posts/{id}/counter_shards/{n}` (platform/kits/counters), rolled up into
// the post's `counts` at most once a second (what lists read).
export const SOCIAL_POSTS = 'social_posts';
// `social_follows/{followerId}_{followeeId}`: who follows whom.
export const SOCIAL_FOLLOWS = 'social_follows';
// `social_profiles/{userId}`: handle, bio, avatar, the large-account mark and the large accounts one follows
// (merged into the feed at read time); counters (posts, followers, following) in its shards.
export const SOCIAL_PROFILES = 'social_profiles';
// `social_follower_sets/{authorId}` and its `id_buckets/{n}`: the ids of an author's followers, kept with each follow
// (platform/kits/id-sets) so a fan-out reads them with one getAll instead of a query over its follows.
export const SOCIAL_FOLLOWER_SETS = 'social_follower_sets';
// `social_large_marks/{authorId}`: how far marking an author large has got (kept off the author's busy profile).
export const SOCIAL_LARGE_MARKS = 'social_large_marks';
// `social_handles/{handle}`: one document per claimed handle (unique handles, @mentions).
export const SOCIAL_HANDLES = 'social_handles';
// `social_feeds/{userId}/feed_items/{postId}`: a person's feed, written by the fan-out trigger.
export const SOCIAL_FEEDS = 'social_feeds';
export const FEED_ITEMS = 'feed_items';
// `social_likes/{postId}_{userId}`: one like per person and post.
export const SOCIAL_LIKES = 'social_likes';
// `social_comments/{commentId}`: comments and their replies (one level).
export const SOCIAL_COMMENTS = 'social_comments';
// `social_saves/{postId}_{userId}`: a person's saved posts (private to them).
export const SOCIAL_SAVES = 'social_saves';
// `social_shares/{postId}_{userId}` and `social_views/{postId}_{userId}`: who shared or saw a post (counted once each).
export const SOCIAL_SHARES = 'social_shares';
export const SOCIAL_VIEWS = 'social_views';
// `social_reports/{id}`: reported posts and comments (the moderation kit's queue).
export const SOCIAL_REPORTS = 'social_reports';
// `social_trending/reels`: the popular public reels of the last week, ranked (recomputed at most every 5 minutes).
export const SOCIAL_TRENDING = 'social_trending';

// A post's counters rolled up into the post at most once a second (the task function `socialPostCountsRollup`).
export const POST_COUNTS_ROLLUP_QUEUE = rollupTaskQueue('socialPostCountsRollup', 'postId');
