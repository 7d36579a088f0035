import type { Timestamp, Transaction, WriteBatch } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { paginate, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { idSet } from '../../platform/kits/id-sets/id-set';
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
  SOCIAL_SAVES,
  SOCIAL_SHARES,
  SOCIAL_TRENDING,
  SOCIAL_VIEWS,
} from './social.collections';
import {
  FOLLOWER_SET_BUCKET_CAP,
  FOLLOWER_SET_BUCKETS,
  followId,
  likeId,
  markId,
  type CommentRecord,
  type MarkRecord,
  type FeedItemRecord,
  type FollowRecord,
  type LargeMarkRecord,
  type LikeRecord,
  type PostRecord,
  type PostType,
  type PostVisibility,
  type ProfileRecord,
} from './social.model';

const posts = () => typedCollection<PostRecord>(SOCIAL_POSTS);
const follows = () => plainCollection<FollowRecord>(SOCIAL_FOLLOWS);
const profiles = () => plainCollection<ProfileRecord>(SOCIAL_PROFILES);
const handles = () => plainCollection<{ handle: string; userId: string }>(SOCIAL_HANDLES);
const likes = () => plainCollection<LikeRecord>(SOCIAL_LIKES);
const comments = () => typedCollection<CommentRecord>(SOCIAL_COMMENTS);
const MARKS = { save: SOCIAL_SAVES, share: SOCIAL_SHARES, view: SOCIAL_VIEWS } as const;
export type MarkKind = keyof typeof MARKS;
const marks = (kind: MarkKind) => plainCollection<MarkRecord>(MARKS[kind]);
const trending = () => plainCollection<PopularReels>(SOCIAL_TRENDING);
const largeMarks = () => plainCollection<LargeMarkRecord>(SOCIAL_LARGE_MARKS);
const feedOf = (userId: string) => plainCollection<FeedItemRecord>(`${SOCIAL_FEEDS}/${userId}/${FEED_ITEMS}`);
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];
const mergeChange = (userId: string, authorId: string, add: boolean) => {
  const { FieldValue } = firestoreApi();
  return { userId, mergeAuthors: add ? FieldValue.arrayUnion(authorId) : FieldValue.arrayRemove(authorId) };
};
const existing = <T>(snaps: Array<FirebaseFirestore.DocumentSnapshot<T>>) => snaps.filter((s) => s.exists).map((s) => s.data()!);

/** A feed item as read, with its version (its update time). */
export type StoredFeedItem = FeedItemRecord & { version: Timestamp };

/** Where a feed page resumes: after the post at (createdAt, id), newest first. */
export interface FeedPosition {
  createdAt: number;
  id: string;
}

/** An author's followers' ids (the truth: their follows), for the fan-out. */
const followerSet = idSet({
  collection: SOCIAL_FOLLOWER_SETS,
  buckets: FOLLOWER_SET_BUCKETS,
  bucketCap: FOLLOWER_SET_BUCKET_CAP,
  truthIsEmpty: async (tx, authorId) => (await tx.get(follows().where('followeeId', '==', authorId).limit(1))).empty,
});

export const socialRepo = {
  followerSet,
  newPostId: () => db().collection(SOCIAL_POSTS).doc().id,
  postRef: (id: string) => db().collection(SOCIAL_POSTS).doc(id),
  profileRef: (userId: string) => db().collection(SOCIAL_PROFILES).doc(userId),

  // Posts
  post: (id: string, tx?: Transaction) => readRecord(posts().doc(id), tx),
  async posts(ids: readonly string[]): Promise<Map<string, PostRecord>> {
    if (ids.length === 0) return new Map();
    return new Map((existing(await db().getAll(...ids.map((id) => posts().doc(id)))) as PostRecord[]).map((p) => [p.id, p]));
  },
  txCreatePost(tx: Transaction, record: PostRecord): void {
    tx.create(posts().doc(record.id), record);
  },
  txUpdatePost(tx: Transaction, id: string, fields: Partial<Omit<PostRecord, 'id' | 'authorId'>>): void {
    tx.update(db().collection(SOCIAL_POSTS).doc(id), fields);
  },
  /**
   * An author's active posts (or reels), newest first; PUBLIC only unless `all`. Indexes (authorId, status[,
   * visibility][, type], createdAt desc).
   */
  postsOfAuthor(authorId: string, visibilities: 'all' | PostVisibility, request: PageRequest, type?: PostType) {
    let query = posts().where('authorId', '==', authorId).where('status', '==', 'ACTIVE');
    if (visibilities !== 'all') query = query.where('visibility', '==', visibilities);
    if (type) query = query.where('type', '==', type);
    return paginate(query, newestFirst, request, (d) => d.data());
  },
  /**
   * The newest active posts (or reels) of some authors (at most 30: Firestore's `in`) before a position. Indexes
   * (authorId, status[, type], createdAt desc).
   */
  async postsOfAuthorsBefore(authorIds: readonly string[], before: FeedPosition | undefined, limit: number, type?: PostType): Promise<PostRecord[]> {
    if (authorIds.length === 0) return [];
    const { FieldPath } = firestoreApi();
    let filtered = posts()
      .where('authorId', 'in', [...authorIds])
      .where('status', '==', 'ACTIVE');
    if (type) filtered = filtered.where('type', '==', type);
    let query = filtered.orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
    if (before) query = query.startAfter(before.createdAt, before.id);
    return (await query.limit(limit).get()).docs.map((d) => d.data());
  },

  // Feeds
  /** A feed's items (or its reels), newest first, after a position. Index (type, createdAt desc) for reels. */
  async feedBefore(userId: string, before: FeedPosition | undefined, limit: number, type?: PostType): Promise<StoredFeedItem[]> {
    const { FieldPath } = firestoreApi();
    let query = (type ? feedOf(userId).where('type', '==', type) : feedOf(userId)).orderBy('createdAt', 'desc').orderBy(FieldPath.documentId(), 'desc');
    if (before) query = query.startAfter(before.createdAt, before.id);
    return (await query.limit(limit).get()).docs.map((d) => ({ ...d.data(), version: d.updateTime }));
  },
  /**
   * Deletes feed items of posts that left the feeds (read as `version`): each only if unchanged since (a post made
   * ACTIVE again and fanned out meanwhile rewrote it, and keeps it). How many were deleted.
   */
  async deleteStaleFeedItems(userId: string, items: readonly StoredFeedItem[]): Promise<number> {
    const done = await Promise.allSettled(items.map((i) => feedOf(userId).doc(i.postId).delete({ lastUpdateTime: i.version })));
    return done.filter((d) => d.status === 'fulfilled').length;
  },
  batchSetFeedItem(batch: WriteBatch, userId: string, item: FeedItemRecord): void {
    batch.set(feedOf(userId).doc(item.postId), item);
  },
  /** Deletes up to `limit` feed items of a post (collection group `feed_items`, field postId); how many it deleted. */
  async deleteFeedItemsOfPost(postId: string, limit: number): Promise<number> {
    const snap = await db().collectionGroup(FEED_ITEMS).where('postId', '==', postId).limit(limit).get();
    if (snap.empty) return 0;
    const batch = db().batch();
    for (const doc of snap.docs) batch.delete(doc.ref);
    await batch.commit();
    return snap.size;
  },

  // Follows
  txFollow: (tx: Transaction, followerId: string, followeeId: string) => readRecord(follows().doc(followId(followerId, followeeId)), tx),
  txCreateFollow(tx: Transaction, record: FollowRecord): void {
    tx.create(follows().doc(followId(record.followerId, record.followeeId)), record);
  },
  txDeleteFollow(tx: Transaction, followerId: string, followeeId: string): void {
    tx.delete(follows().doc(followId(followerId, followeeId)));
  },
  /** Which of `followeeIds` `followerId` follows (one read each). */
  async followsAmong(followerId: string, followeeIds: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(followeeIds)];
    if (unique.length === 0) return new Set();
    return new Set(existing(await db().getAll(...unique.map((id) => follows().doc(followId(followerId, id))))).map((f) => f.followeeId));
  },
  /** Index (followeeId, createdAt desc). */
  followersPage: (userId: string, request: PageRequest) => paginate(follows().where('followeeId', '==', userId), newestFirst, request, (d) => d.data()),
  /** Index (followerId, createdAt desc). */
  followingPage: (userId: string, request: PageRequest) => paginate(follows().where('followerId', '==', userId), newestFirst, request, (d) => d.data()),
  /** A chunk of an account's followers by id (documents `{followerId}_{followeeId}`: id order is follower order). */
  /** The followed authors of a page of follows ordered by followee, after `after` (distinct, in order). */
  async followedAuthorsAfter(after: string | undefined, limit: number): Promise<{ authors: string[]; more: boolean }> {
    let query = db().collection(SOCIAL_FOLLOWS).orderBy('followeeId').select('followeeId');
    if (after !== undefined) query = query.startAfter(after);
    const snap = await query.limit(limit).get();
    return { authors: [...new Set(snap.docs.map((d) => d.get('followeeId') as string))], more: snap.size === limit };
  },
  /** The ids of an author's followers (at most `limit`), read in the transaction. */
  async txFollowerIds(tx: Transaction, userId: string, limit: number): Promise<string[]> {
    return (await tx.get(db().collection(SOCIAL_FOLLOWS).where('followeeId', '==', userId).select('followerId').limit(limit))).docs.map(
      (d) => d.get('followerId') as string,
    );
  },
  async followerIdsAfter(userId: string, afterDocId: string | undefined, limit: number): Promise<{ ids: string[]; last?: string }> {
    const { FieldPath } = firestoreApi();
    // Only the follower's id comes back (a projection): a fan-out where no follower set is kept reads thousands.
    let query = db().collection(SOCIAL_FOLLOWS).where('followeeId', '==', userId).orderBy(FieldPath.documentId()).select('followerId');
    if (afterDocId) query = query.startAfter(afterDocId);
    const snap = await query.limit(limit).get();
    return { ids: snap.docs.map((d) => d.get('followerId') as string), last: snap.docs.at(-1)?.id };
  },

  // Profiles and handles
  profile: (userId: string, tx?: Transaction) => readRecord(profiles().doc(userId), tx),
  async profiles(userIds: readonly string[]): Promise<Map<string, ProfileRecord>> {
    const unique = [...new Set(userIds)];
    if (unique.length === 0) return new Map();
    return new Map((existing(await db().getAll(...unique.map((id) => profiles().doc(id)))) as ProfileRecord[]).map((p) => [p.userId, p]));
  },
  txSetProfile(tx: Transaction, userId: string, fields: Partial<ProfileRecord>): void {
    tx.set(profiles().doc(userId), { userId, ...fields }, { merge: true });
  },
  /** Adds or removes a large account in a person's merge list (a set operation: no read of the profile). */
  txChangeMergeAuthors(tx: Transaction, userId: string, authorId: string, add: boolean): void {
    tx.set(db().collection(SOCIAL_PROFILES).doc(userId), mergeChange(userId, authorId, add), { merge: true });
  },
  batchAddMergeAuthor(batch: WriteBatch, userId: string, authorId: string): void {
    batch.set(db().collection(SOCIAL_PROFILES).doc(userId), mergeChange(userId, authorId, true), { merge: true });
  },
  batchSetLarge(batch: WriteBatch, authorId: string): void {
    batch.set(db().collection(SOCIAL_PROFILES).doc(authorId), { userId: authorId, large: true }, { merge: true });
  },
  largeMark: (authorId: string) => readRecord(largeMarks().doc(authorId)),
  /** How far the followers have been given a large author (in the batch that did it). */
  batchSetLargeMark(batch: WriteBatch, mark: LargeMarkRecord): void {
    batch.set(largeMarks().doc(mark.authorId), mark);
  },
  txHandleOwner: async (tx: Transaction, handle: string) => (await readRecord(handles().doc(handle), tx))?.userId,
  txClaimHandle(tx: Transaction, handle: string, userId: string): void {
    tx.set(handles().doc(handle), { handle, userId });
  },
  txReleaseHandle(tx: Transaction, handle: string): void {
    tx.delete(handles().doc(handle));
  },
  /** The owners of some handles (unclaimed ones left out). */
  async handleOwners(names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    return new Map(existing(await db().getAll(...names.map((h) => handles().doc(h)))).map((h) => [h.handle, h.userId]));
  },

  // Likes
  txLike: (tx: Transaction, postId: string, userId: string) => readRecord(likes().doc(likeId(postId, userId)), tx),
  txCreateLike(tx: Transaction, record: LikeRecord): void {
    tx.create(likes().doc(likeId(record.postId, record.userId)), record);
  },
  txDeleteLike(tx: Transaction, postId: string, userId: string): void {
    tx.delete(likes().doc(likeId(postId, userId)));
  },
  /** Which of the posts `userId` likes (one read each). */
  async likedAmong(userId: string, postIds: readonly string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    return new Set(existing(await db().getAll(...postIds.map((id) => likes().doc(likeId(id, userId))))).map((l) => l.postId));
  },

  /** People who like a post, newest first. Index (postId, createdAt desc). */
  likersPage: (postId: string, request: PageRequest) => paginate(likes().where('postId', '==', postId), newestFirst, request, (d) => d.data()),

  // Saves, shares and views: one document per post and person
  txMark: (tx: Transaction, kind: MarkKind, postId: string, userId: string) => readRecord(marks(kind).doc(markId(postId, userId)), tx),
  txCreateMark(tx: Transaction, kind: MarkKind, record: MarkRecord): void {
    tx.create(marks(kind).doc(markId(record.postId, record.userId)), record);
  },
  txDeleteMark(tx: Transaction, kind: MarkKind, postId: string, userId: string): void {
    tx.delete(marks(kind).doc(markId(postId, userId)));
  },
  /** Which of the posts `userId` has marked (one read each): a share of one's own post is left out of its count. */
  async markedAmong(kind: MarkKind, userId: string, postIds: readonly string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    return new Set(existing(await db().getAll(...postIds.map((id) => marks(kind).doc(markId(id, userId))))).map((m) => m.postId));
  },
  /** A person's saved posts, newest save first. Index (userId, createdAt desc). */
  savedPage: (userId: string, request: PageRequest) => paginate(marks('save').where('userId', '==', userId), newestFirst, request, (d) => d.data()),

  // Hashtags
  /** Active PUBLIC posts with a hashtag, newest first. Index (hashtags array-contains, status, visibility, createdAt desc). */
  hashtagPage: (tag: string, request: PageRequest) =>
    paginate(posts().where('hashtags', 'array-contains', tag).where('status', '==', 'ACTIVE').where('visibility', '==', 'PUBLIC'), newestFirst, request, (d) =>
      d.data(),
    ),
  /**
   * How many active PUBLIC posts carry a hashtag, up to `cap` (one aggregate query: a read per 1,000 index entries,
   * so the cap bounds what a popular tag costs). Index (hashtags array-contains, status, visibility).
   */
  async hashtagCount(tag: string, cap: number): Promise<number> {
    const query = posts().where('hashtags', 'array-contains', tag).where('status', '==', 'ACTIVE').where('visibility', '==', 'PUBLIC');
    return (await query.limit(cap).count().get()).data().count;
  },

  // Comments
  newCommentId: () => db().collection(SOCIAL_COMMENTS).doc().id,
  comment: (id: string, tx?: Transaction) => readRecord(comments().doc(id), tx),
  txCreateComment(tx: Transaction, record: CommentRecord): void {
    tx.create(comments().doc(record.id), record);
  },
  txUpdateComment(tx: Transaction, id: string, fields: Partial<Pick<CommentRecord, 'text' | 'mentions' | 'status' | 'updatedAt'>>): void {
    tx.update(db().collection(SOCIAL_COMMENTS).doc(id), fields);
  },
  /** A post's active top-level comments, newest first. Index (postId, parentId, status, createdAt desc). */
  commentsPage: (postId: string, request: PageRequest) =>
    paginate(comments().where('postId', '==', postId).where('parentId', '==', null).where('status', '==', 'ACTIVE'), newestFirst, request, (d) => d.data()),
  /** A comment's active replies, oldest first (a conversation). Index (parentId, status, createdAt). */
  repliesPage: (parentId: string, request: PageRequest) =>
    paginate(comments().where('parentId', '==', parentId).where('status', '==', 'ACTIVE'), [{ field: 'createdAt', direction: 'asc' }], request, (d) =>
      d.data(),
    ),
  /** How many active replies a comment has; in a transaction, the count is part of what it read. */
  async replyCount(parentId: string, tx?: Transaction): Promise<number> {
    const query = comments().where('parentId', '==', parentId).where('status', '==', 'ACTIVE').count();
    return (tx ? await tx.get(query) : await query.get()).data().count;
  },

  // Popular reels
  /** The newest active public reels since a time. Index (type, status, visibility, createdAt desc). */
  async recentPublicReels(since: number, limit: number): Promise<PostRecord[]> {
    const query = posts()
      .where('type', '==', 'REEL')
      .where('status', '==', 'ACTIVE')
      .where('visibility', '==', 'PUBLIC')
      .where('createdAt', '>=', since)
      .orderBy('createdAt', 'desc')
      .limit(limit);
    return (await query.get()).docs.map((d) => d.data());
  },
  popularReels: (tx?: Transaction) => readRecord(trending().doc('reels'), tx),
  txSetPopularReels(tx: Transaction, fields: Partial<PopularReels>): void {
    tx.set(trending().doc('reels'), fields, { merge: true });
  },
};

/** `social_trending/reels`: ranked reel ids, when they were ranked, and until when a reader is ranking them again. */
export interface PopularReels {
  ids: string[];
  computedAt: number;
  refreshingUntil: number;
}
