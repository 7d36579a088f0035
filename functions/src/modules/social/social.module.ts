import { defineModule } from '../../platform/core/module/module';
import { COUNTER_SHARDS } from '../../platform/kits/counters/sharded-counter';
import {
  FEED_ITEMS,
  SOCIAL_FEEDS,
  SOCIAL_FOLLOWS,
  SOCIAL_HANDLES,
  SOCIAL_LARGE_MARKS,
  SOCIAL_LIKES,
  SOCIAL_POSTS,
  SOCIAL_PROFILES,
} from './social.collections';
import { socialSwitches } from './social.config';
import { SOCIAL_ERROR_CODES } from './social.errors';

// The social tab: profiles, follows, posts, likes and the posts feed (fan-out on write by a trigger, large accounts
// merged at read time).
export const socialModule = defineModule({
  name: 'social',
  uses: ['chat', 'media', 'users'],
  apiTags: { social: 'Posts, reels, feeds and social interactions.' },
  config: socialSwitches,
  errorCodes: SOCIAL_ERROR_CODES,
  routes: () => (require('./social.routes') as typeof import('./social.routes')).socialRoutes(),
  triggers: {
    // Into the followers' feeds when a post is created (or made ACTIVE again); out of them when it stops being ACTIVE.
    socialPostWritten: {
      document: `${SOCIAL_POSTS}/{postId}`,
      on: 'written',
      options: { timeoutSeconds: 300, memory: '512MiB' },
      load: () => (require('./social.fanout') as typeof import('./social.fanout')).onPostWritten,
    },
  },
  collections: [
    { name: SOCIAL_POSTS },
    { name: COUNTER_SHARDS, parent: SOCIAL_POSTS },
    { name: SOCIAL_FOLLOWS },
    { name: SOCIAL_PROFILES },
    { name: COUNTER_SHARDS, parent: SOCIAL_PROFILES },
    { name: SOCIAL_HANDLES },
    { name: SOCIAL_LARGE_MARKS },
    { name: SOCIAL_FEEDS },
    { name: FEED_ITEMS, parent: SOCIAL_FEEDS },
    { name: SOCIAL_LIKES },
  ],
});
