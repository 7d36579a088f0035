import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { eitherBlocks } from '../chat';
import { notificationHub, type Hub } from '../notifications';
import { SOCIAL_EVENTS } from './social.events';
import { SOCIAL_TEXTS } from './social.texts';
import { POST_COUNTS, type CommentRecord, type FollowRecord, type LikeRecord, type MarkRecord, type PostRecord } from './social.model';
import { activePeople } from './social.people';
import { socialRepo as repo } from './social.repo';

// Notices of the social tab, sent from triggers on the documents that record each act (a like, a comment, a follow,
// a share, a post naming someone): likes, comments, replies, shares and follows aggregated per post, comment or
// person ("Lan and 12 others liked your post": one inbox item), mentions one each. Never for one's own act, never
// between people either of whom blocks the other, never from a locked account. A redelivered event finds its actor
// counted already (the hub's aggregation) or its notice there (ids from the occurrence): nothing twice.

type Notifier = Pick<Hub, 'dispatch' | 'dispatchAggregated'>;

/** The actor's name when they may notify the recipient now (active, not themselves, no block either way). */
async function actorFor(actorId: string, recipientId: string): Promise<string | undefined> {
  if (actorId === recipientId) return undefined;
  const [active, blocked] = await Promise.all([activePeople([actorId, recipientId]), eitherBlocks(actorId, recipientId)]);
  return !blocked && active.has(recipientId) ? active.get(actorId) : undefined;
}

type GroupKey = 'social.like' | 'social.comment' | 'social.reply' | 'social.share' | 'social.follow';

/** Whether a notice about `post` may reach `recipientId`: someone who may see the post now (not blocked by its author). */
async function maySee(recipientId: string, post: PostRecord): Promise<boolean> {
  if (recipientId === post.authorId) return true;
  const [blocked, follows] = await Promise.all([
    eitherBlocks(recipientId, post.authorId),
    post.visibility === 'FOLLOWERS' ? repo.followsAmong(recipientId, [post.authorId]) : Promise.resolve(undefined),
  ]);
  return !blocked && (follows === undefined || follows.has(post.authorId));
}

async function notifyGroup(
  hub: Notifier,
  key: GroupKey,
  to: { recipientId: string; entityId: string; params: Record<string, string>; post?: PostRecord },
  act: { actorId: string; occurrence: string; total?: number },
): Promise<string> {
  const { actorId, occurrence, total } = act;
  const name = await actorFor(actorId, to.recipientId);
  if (name === undefined || (to.post && !(await maySee(to.recipientId, to.post)))) return 'skipped';
  await hub.dispatchAggregated(
    SOCIAL_EVENTS.notice({
      event: key === 'social.reply' ? 'social.comment' : key,
      recipients: [{ userId: to.recipientId, surface: 'CON' as const }],
      entityId: to.entityId,
      params: to.params,
      aggregate: { actor: { id: actorId, name }, occurrence, total, text: (group: { names: string[]; count: number }) => SOCIAL_TEXTS.text(key, group) },
    }),
  );
  return 'notified';
}

/** The people an @mention in a post or comment names who may see the post, each told once (not those told already). */
async function notifyMentions(hub: Notifier, post: PostRecord, source: PostRecord | CommentRecord, told: readonly string[]) {
  const where = source === post ? 'post' : 'comment';
  const postId = post.id;
  const named = [...new Set(source.mentions.map((m) => m.userId))].filter((id) => !told.includes(id));
  let sent = 0;
  for (const userId of named) {
    const name = await actorFor(source.authorId, userId);
    if (name === undefined || !(await maySee(userId, post))) continue;
    await hub.dispatch(
      SOCIAL_EVENTS.notice({
        event: 'social.mention',
        recipients: [{ userId, surface: 'CON' as const }],
        entityId: postId,
        occurrence: source.id,
        text: SOCIAL_TEXTS.text('social.mention', { name, where }),
        params: { postId, ...(where === 'comment' ? { commentId: source.id } : {}) },
      }),
    );
    sent += 1;
  }
  return sent;
}

/** A new post names people: each is told (the fan-out trigger calls this for a post created ACTIVE). */
export function postMentions(post: PostRecord, hub: Notifier): Promise<number> {
  return post.mentions.length === 0 ? Promise.resolve(0) : notifyMentions(hub, post, post, [post.authorId]);
}

/** A post's likes or shares as its author sees them counted: everyone's but their own. */
async function countByOthers(post: PostRecord, what: 'likes' | 'shares'): Promise<number> {
  const [counts, own] = await Promise.all([
    POST_COUNTS.read(repo.postRef(post.id)),
    what === 'likes' ? repo.likedAmong(post.authorId, [post.id]) : repo.markedAmong('share', post.authorId, [post.id]),
  ]);
  return Math.max(0, counts[what] - (own.has(post.id) ? 1 : 0));
}

export const onLikeCreated = typedTrigger(
  collectionRecords<LikeRecord & { id: string }>(),
  async ({ after: like }, config: Readonly<AppConfig>, hub: Notifier = notificationHub(config)) => {
    if (!like) return 'ignored';
    // A like taken back before this ran is not news.
    const [post, still] = await Promise.all([repo.post(like.postId), repo.likedAmong(like.userId, [like.postId])]);
    if (post?.status !== 'ACTIVE' || !still.has(post.id)) return 'ignored';
    return notifyGroup(
      hub,
      'social.like',
      { recipientId: post.authorId, entityId: post.id, params: { postId: post.id } },
      { actorId: like.userId, occurrence: like.id, total: await countByOthers(post, 'likes') },
    );
  },
);

export const onShareCreated = typedTrigger(
  collectionRecords<MarkRecord & { id: string }>(),
  async ({ after: share }, config: Readonly<AppConfig>, hub: Notifier = notificationHub(config)) => {
    if (!share) return 'ignored';
    const post = await repo.post(share.postId);
    if (post?.status !== 'ACTIVE') return 'ignored';
    return notifyGroup(
      hub,
      'social.share',
      { recipientId: post.authorId, entityId: post.id, params: { postId: post.id } },
      { actorId: share.userId, occurrence: share.id, total: await countByOthers(post, 'shares') },
    );
  },
);

export const onFollowCreated = typedTrigger(
  collectionRecords<FollowRecord & { id: string }>(),
  async ({ after: follow }, config: Readonly<AppConfig>, hub: Notifier = notificationHub(config)) => {
    if (!follow) return 'ignored';
    // A follow undone before this ran is not news.
    if (!(await repo.followsAmong(follow.followerId, [follow.followeeId])).has(follow.followeeId)) return 'ignored';
    return notifyGroup(
      hub,
      'social.follow',
      { recipientId: follow.followeeId, entityId: follow.followeeId, params: { userId: follow.followerId } },
      { actorId: follow.followerId, occurrence: follow.id },
    );
  },
);

/**
 * A comment tells the post's author, a reply the author of the comment it answers, and both the people they name;
 * each only while they may see the post.
 */
export const onCommentCreated = typedTrigger(
  collectionRecords<CommentRecord>(),
  async ({ after: comment }, config: Readonly<AppConfig>, hub: Notifier = notificationHub(config)) => {
    if (comment?.status !== 'ACTIVE') return 'ignored';
    const post = await repo.post(comment.postId);
    if (post?.status !== 'ACTIVE') return 'ignored';
    const params = { postId: post.id, commentId: comment.id };
    const act = { actorId: comment.authorId, occurrence: comment.id };
    const told = [comment.authorId];
    if (comment.replyTo) {
      const answered = await repo.comment(comment.replyTo.commentId);
      if (answered?.status === 'ACTIVE') {
        await notifyGroup(hub, 'social.reply', { recipientId: answered.authorId, entityId: answered.id, params, post }, act);
        told.push(answered.authorId);
      }
    }
    if (!told.includes(post.authorId)) {
      await notifyGroup(hub, 'social.comment', { recipientId: post.authorId, entityId: post.id, params }, act);
      told.push(post.authorId);
    }
    await notifyMentions(hub, post, comment, told);
    return 'notified';
  },
);
