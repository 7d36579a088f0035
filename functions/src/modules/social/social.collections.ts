// The social module's collections (API only: firestore.rules denies clients).
// `social_posts/{postId}`: posts (reels later) with their author's name and handle as they were when posted; counters
// (likes, comments, shares, views) in `social_posts/{id}/counter_shards/{n}` (platform/kits/counters).
export const SOCIAL_POSTS = 'social_posts';
// `social_follows/{followerId}_{followeeId}`: who follows whom.
export const SOCIAL_FOLLOWS = 'social_follows';
// `social_profiles/{userId}`: handle, bio, avatar, the large-account mark and the large accounts one follows
// (merged into the feed at read time); counters (posts, followers, following) in its shards.
export const SOCIAL_PROFILES = 'social_profiles';
// `social_large_marks/{authorId}`: how far marking an author large has got (kept off the author's busy profile).
export const SOCIAL_LARGE_MARKS = 'social_large_marks';
// `social_handles/{handle}`: one document per claimed handle (unique handles, @mentions).
export const SOCIAL_HANDLES = 'social_handles';
// `social_feeds/{userId}/feed_items/{postId}`: a person's feed, written by the fan-out trigger.
export const SOCIAL_FEEDS = 'social_feeds';
export const FEED_ITEMS = 'feed_items';
// `social_likes/{postId}_{userId}`: one like per person and post.
export const SOCIAL_LIKES = 'social_likes';
