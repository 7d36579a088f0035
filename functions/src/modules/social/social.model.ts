import type { RateLimitRule } from '../../platform/core/ratelimit/rate-limit';
import { shardedCounter, type Counts, type CountsSummary } from '../../platform/kits/counters/sharded-counter';
import { foldText } from '../../platform/kits/text/text';
import type { MediaKind } from '../media';

export const POST_VISIBILITIES = ['PUBLIC', 'FOLLOWERS'] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];
export const POST_TYPES = ['POST', 'REEL'] as const;
export type PostType = (typeof POST_TYPES)[number];
export const POST_STATUSES = ['ACTIVE', 'HIDDEN', 'DELETED'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Text limits in code points (what a person counts as characters: an emoji is one). */
export const POST_TEXT_MAX = 2_200;
export const BIO_MAX = 160;
export const POST_IMAGES_MAX = 10;
/** A reel's video length in seconds. */
export const REEL_SECONDS_MAX = 180;
/** The reels feed adds popular public reels for someone following fewer people than this. */
export const REELS_FEW_FOLLOWS = 10;
/** Popular reels: the public reels of the last week, ranked, recomputed at most every few minutes. */
export const POPULAR_REELS_WINDOW_MS = 7 * 24 * 3600_000;
export const POPULAR_REELS_CANDIDATES = 200;
export const POPULAR_REELS_KEPT = 60;
export const POPULAR_REELS_TTL_MS = 5 * 60_000;

/**
 * A reel's popularity: engagement (likes, comments twice, shares three times, every ten views once) over its age,
 * so a new reel people take to rises above an old one with more likes (the age in hours plus two, to the power 1.5).
 */
export function reelPopularity(counts: PostCounts, ageMs: number): number {
  const engagement = counts.likes + 2 * counts.comments + 3 * counts.shares + counts.views / 10;
  return engagement / Math.pow(Math.max(0, ageMs) / 3_600_000 + 2, 1.5);
}
export const HASHTAGS_MAX = 30;
export const MENTIONS_MAX = 20;
/** Large accounts whose posts a person's feed merges at read time (in chunks of 30, Firestore's `in` limit). */
export const MERGE_AUTHORS_MAX = 150;
/** Followers per batch of marking an author large (with its progress document: within a batch's 500 writes). */
export const FANOUT_CHUNK = 400;
/**
 * An author's followers' ids kept in 8 documents of at most 2,000 ids each (16,000 in all, past SOCIAL_FANOUT_MAX's
 * default of 5,000): a fan-out reads them in one getAll; a not yet large author takes about 8 follows a second.
 */
export const FOLLOWER_SET_BUCKETS = 8;
export const FOLLOWER_SET_BUCKET_CAP = 2_000;
/** Followers a fan-out reads at a time (ids only) where no follower set is kept, written in batches of FANOUT_BATCH side by side. */
export const FANOUT_READ = 1_000;
export const FANOUT_BATCH = 500;

export interface PostMedia {
  id: string;
  kind: MediaKind;
  mimeType: string;
  url: string;
}

export const POST_COUNT_FIELDS = ['likes', 'comments', 'shares', 'views'] as const;
export type PostCounts = Counts<(typeof POST_COUNT_FIELDS)[number]>;

export interface PostRecord {
  id: string;
  authorId: string;
  /** The author as they were when posting (name and handle, read with the post: no read per author in a feed). */
  author: { name: string; handle: string | null };
  type: PostType;
  /** Text of a post, a reel's caption. */
  text: string;
  /** A reel's: its one video. */
  media: PostMedia[];
  /** A reel: the video's length and the image shown before it plays. */
  reel?: { durationSec: number; cover: { id: string; url: string } | null };
  location: { lat: number; lng: number; name: string | null } | null;
  visibility: PostVisibility;
  /** Folded (lower case, no diacritics): `#PhởHàNội` is `phohanoi`, the hashtag page's key. */
  hashtags: string[];
  /** The people an @handle in the text named when it was posted. */
  mentions: Array<{ userId: string; handle: string }>;
  status: PostStatus;
  createdAt: number;
  updatedAt: number;
  /** The counters as last rolled up (a second or two behind; what lists show). Absent on posts stored before rollups. */
  counts?: CountsSummary<(typeof POST_COUNT_FIELDS)[number]>;
}

export interface FollowRecord {
  followerId: string;
  followeeId: string;
  createdAt: number;
}

export interface ProfileRecord {
  userId: string;
  handle: string | null;
  bio: string | null;
  avatar: { id: string; url: string } | null;
  /** More followers than SOCIAL_FANOUT_MAX once: posts are merged into feeds at read time from then on. */
  large: boolean;
  /** The large accounts this person follows (their posts are merged into this person's feed at read time). */
  mergeAuthors: string[];
  updatedAt: number;
}

/**
 * Marking an author large puts them in each follower's merge list, a batch at a time: the follow document id the last
 * batch ended at, and whether every follower has them. A redelivered post event resumes from there.
 */
export interface LargeMarkRecord {
  authorId: string;
  upTo: string | null;
  done: boolean;
}

export interface FeedItemRecord {
  postId: string;
  authorId: string;
  /** The posts feed shows both, the reels feed reels. */
  type: PostType;
  /** The post's creation time: the feed's order. */
  createdAt: number;
  /** When a fan-out wrote it (each fan-out's write a change: see social.fanout.ts). */
  fannedAt?: number;
}

export interface LikeRecord {
  postId: string;
  userId: string;
  createdAt: number;
}

export const COMMENT_STATUSES = ['ACTIVE', 'HIDDEN', 'DELETED'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];
export const COMMENT_TEXT_MAX = 1_000;

/**
 * A comment on a post, or a reply to one (one level: a reply to a reply joins its thread). The post's `comments`
 * counter counts the active comments and the replies of active comments: deleting a comment takes its thread away.
 */
export interface CommentRecord {
  id: string;
  postId: string;
  /** The post's author (who may delete any comment of it; who a comment notifies). */
  postAuthorId: string;
  /** The thread's top-level comment; null for a top-level comment. */
  parentId: string | null;
  /** The comment answered (a reply to a reply answers that reply, in its thread) and its author: told of the reply. */
  replyTo: { commentId: string; authorId: string } | null;
  authorId: string;
  author: { name: string; handle: string | null };
  text: string;
  mentions: Array<{ userId: string; handle: string }>;
  status: CommentStatus;
  createdAt: number;
  updatedAt: number;
}

/** One per person and post, each kind: saved (private), shared and viewed (counted once per person). */
export interface MarkRecord {
  postId: string;
  userId: string;
  createdAt: number;
}

export const REPORT_REASONS = ['SPAM', 'HARASSMENT', 'HATE', 'VIOLENCE', 'NUDITY', 'SCAM', 'FALSE_INFORMATION', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** HIDE: the post or comment is hidden (a post stays visible to its author alone; every open report of it closes); DISMISS: this report. */
export const REPORT_OUTCOMES = ['HIDE', 'DISMISS'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];
export type ReportTargetType = 'POST' | 'COMMENT';

export const followId = (followerId: string, followeeId: string) => `${followerId}_${followeeId}`;
export const likeId = (postId: string, userId: string) => `${postId}_${userId}`;
/** Saves, shares and views are keyed like likes: one document per post and person. */
export const markId = likeId;

/**
 * A post's counters (likes, comments, shares, views) and a profile's (posts, followers, following): ten shards each.
 * A post's are also rolled up into its `counts` (platform/kits/counters/rollup.ts), which feeds and lists read.
 */
export const POST_COUNTS = shardedCounter({ fields: POST_COUNT_FIELDS, shards: 10, summary: 'counts' });
export const PROFILE_COUNTS = shardedCounter({ fields: ['posts', 'followers', 'following'] as const, shards: 10 });

/**
 * Handles: 3–30 of a–z, 0–9, `_` and `.`, starting with a letter or digit, not ending with a dot (stored lower case;
 * a handle is a document id, and Firestore reserves ids like `__x__`).
 */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9_.]{2,29}(?<!\.)$/;
const HASHTAG = /#([\p{L}\p{N}_][\p{L}\p{M}\p{N}_]{0,49})/gu;
// A whole handle: one longer than 30 characters names nobody (not the owner of its first 30).
const MENTION = /(?<![\p{L}\p{N}_.])@([A-Za-z0-9_.]+)/gu;

/** The hashtags of a text, folded and unique, in order of appearance (at most HASHTAGS_MAX); decomposed accents too. */
export function hashtagsOf(text: string): string[] {
  const tags = [...text.normalize('NFC').matchAll(HASHTAG)].map((m) => foldText(m[1]));
  return [...new Set(tags)].slice(0, HASHTAGS_MAX);
}

/** The @handles of a text, lower case and unique (at most MENTIONS_MAX); dots at a handle's end are punctuation, a run longer than a handle names nobody. */
export function mentionedHandles(text: string): string[] {
  const handles = [...text.matchAll(MENTION)].map((m) => m[1].toLowerCase().replace(/\.+$/, '')).filter((h) => HANDLE_PATTERN.test(h));
  return [...new Set(handles)].slice(0, MENTIONS_MAX);
}

/**
 * A feed page's order: newest first, blended with engagement: a post moves up by up to six hours of recency for
 * its likes, comments (twice) and shares (three times), on a log scale (ten likes an hour, a hundred two).
 */
export function blendScore(createdAt: number, counts: { likes: number; comments: number; shares: number }): number {
  const engagement = Math.max(0, counts.likes) + 2 * Math.max(0, counts.comments) + 3 * Math.max(0, counts.shares);
  return createdAt + Math.min(6, Math.log10(1 + engagement) * 1.2) * 3_600_000;
}

/**
 * Per-user limits (scopes of RATE_LIMITS): posting more than 30 an hour is a script, not a person; follows and likes
 * notify others, so they are held to what a person scrolling does in an hour.
 */
export const SOCIAL_RATE_LIMITS = {
  post: { scope: 'social-post', limit: 30, windowSec: 3600, per: 'user' },
  follow: { scope: 'social-follow', limit: 200, windowSec: 3600, per: 'user' },
  like: { scope: 'social-like', limit: 600, windowSec: 3600, per: 'user' },
  share: { scope: 'social-share', limit: 100, windowSec: 3600, per: 'user' },
  // An app sends a batch of what it showed every few seconds while someone scrolls.
  view: { scope: 'social-view', limit: 2_400, windowSec: 3600, per: 'user' },
  comment: { scope: 'social-comment', limit: 120, windowSec: 3600, per: 'user' },
  report: { scope: 'social-report', limit: 30, windowSec: 3600, per: 'user' },
} satisfies Record<string, RateLimitRule>;
