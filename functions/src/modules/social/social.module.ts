import { defineModule, defineTask } from '../../platform/core/module/module';
import { COUNTER_SHARDS } from '../../platform/kits/counters/sharded-counter';
import { ID_BUCKETS } from '../../platform/kits/id-sets/id-set';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import {
  FEED_ITEMS,
  SOCIAL_FEEDS,
  SOCIAL_FOLLOWER_SETS,
  SOCIAL_FOLLOWS,
  SOCIAL_HANDLES,
  SOCIAL_LARGE_MARKS,
  SOCIAL_LIKES,
  SOCIAL_COMMENTS,
  SOCIAL_POSTS,
  SOCIAL_PROFILES,
  SOCIAL_REPORTS,
  SOCIAL_SAVES,
  SOCIAL_SHARES,
  SOCIAL_TRENDING,
  SOCIAL_VIEWS,
  POST_COUNTS_ROLLUP_QUEUE,
} from './social.collections';
import { socialSwitches } from './social.config';
import { SOCIAL_ERROR_CODES } from './social.errors';
import { SOCIAL_EVENTS } from './social.events';

const notices = () => require('./social.notices') as typeof import('./social.notices');
const counts = () => require('./social.counts') as typeof import('./social.counts');

// The social tab: profiles, follows, posts, likes, comments, saves, shares and views, hashtag pages, the posts feed
// (fan-out on write by a trigger, large accounts merged at read time), notices aggregated through the hub, and
// moderation (reports, hide and restore).
export const socialModule = defineModule({
  name: 'social',
  uses: ['chat', 'media', 'notifications', 'users'],
  apiTags: { social: 'Posts, reels, feeds and social interactions.' },
  config: socialSwitches,
  errorCodes: SOCIAL_ERROR_CODES,
  seed: { load: () => (require('./social.seed') as typeof import('./social.seed')).seedSocial },
  commands: {
    'backfill-follower-sets': {
      describe: "writes every followed author's follower set from their follows (after a deploy that changes how follows are kept)",
      load: () => (require('./social.commands') as typeof import('./social.commands')).backfillFollowerSetsCommand,
    },
  },
  events: SOCIAL_EVENTS.rows,
  routes: () => (require('./social.routes') as typeof import('./social.routes')).socialRoutes(),
  triggers: {
    // Into the followers' feeds when a post is created (or made ACTIVE again); out of them when it stops being ACTIVE.
    socialPostWritten: {
      document: `${SOCIAL_POSTS}/{postId}`,
      on: 'written',
      options: { timeoutSeconds: 300, memory: '512MiB' },
      load: () => (require('./social.fanout') as typeof import('./social.fanout')).onPostWritten,
    },
    // Notices (social.like, .comment, .follow, .share aggregated; .mention): one trigger per act's document.
    socialLikeCreated: { document: `${SOCIAL_LIKES}/{likeId}`, on: 'created', load: () => notices().onLikeCreated },
    socialCommentCreated: { document: `${SOCIAL_COMMENTS}/{commentId}`, on: 'created', load: () => notices().onCommentCreated },
    socialFollowCreated: { document: `${SOCIAL_FOLLOWS}/{followId}`, on: 'created', load: () => notices().onFollowCreated },
    socialShareCreated: { document: `${SOCIAL_SHARES}/{shareId}`, on: 'created', load: () => notices().onShareCreated },
    // A change to a post's counters asks for their rollup into the post (at most one a second: the task below).
    socialPostCountsChanged: { document: `${SOCIAL_POSTS}/{postId}/${COUNTER_SHARDS}/{shard}`, on: 'written', load: () => counts().onPostCountsChanged },
  },
  tasks: {
    socialPostCountsRollup: defineTask({
      queue: POST_COUNTS_ROLLUP_QUEUE,
      options: {
        retryConfig: { maxAttempts: 10, minBackoffSeconds: 1, maxBackoffSeconds: 60 },
        rateLimits: { maxConcurrentDispatches: 100 },
        timeoutSeconds: 30,
        memory: '256MiB',
      },
      load: () => counts().onPostCountsRollup,
    }),
  },
  collections: [
    { name: SOCIAL_POSTS },
    { name: COUNTER_SHARDS, parent: SOCIAL_POSTS },
    { name: SOCIAL_FOLLOWS },
    { name: SOCIAL_FOLLOWER_SETS },
    { name: ID_BUCKETS, parent: SOCIAL_FOLLOWER_SETS },
    { name: SOCIAL_PROFILES },
    { name: COUNTER_SHARDS, parent: SOCIAL_PROFILES },
    { name: SOCIAL_HANDLES },
    { name: SOCIAL_LARGE_MARKS },
    { name: SOCIAL_FEEDS },
    { name: FEED_ITEMS, parent: SOCIAL_FEEDS },
    { name: SOCIAL_LIKES },
    { name: EVENTS, parent: SOCIAL_POSTS },
    { name: SOCIAL_COMMENTS },
    { name: EVENTS, parent: SOCIAL_COMMENTS },
    { name: SOCIAL_SAVES },
    { name: SOCIAL_SHARES },
    { name: SOCIAL_VIEWS },
    { name: SOCIAL_REPORTS },
    { name: SOCIAL_TRENDING },
  ],
});
