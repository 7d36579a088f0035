import { db } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { AppConfig } from '../../platform/core/config';
import { blockListOf } from '../chat';
import { notificationHub, type Hub } from '../notifications';
import { postMentions } from './social.notices';
import { FANOUT_BATCH, FANOUT_CHUNK, FANOUT_READ, PROFILE_COUNTS, type FeedItemRecord, type PostRecord } from './social.model';
import { socialRepo as repo } from './social.repo';

// Fan-out on write: a new post goes into its author's followers' feeds (`social_feeds/{follower}/feed_items/{post}`),
// their ids read from the author's follower set (kept with each follow; from the follows, a thousand at a time, where
// none is kept), written in batches of 500 side by side; it leaves them when it is deleted or hidden. An author with more than SOCIAL_FANOUT_MAX
// followers is marked large once: from then on their posts are merged into feeds at read time (social.posts.ts),
// and the followers they had then get the author in their merge list (one write each, once; later followers get
// it when they follow). Every write is a set or delete of a document named by the post and the person, so a
// redelivered event writes the same documents again.

/**
 * Writes the post into its author's feed and their followers' (or marks the author large), unless it is no longer
 * ACTIVE (a redelivered event after its deletion). A delete racing the writes runs its own removal; items it missed
 * are dropped by the feed's readers (they show ACTIVE posts only) and deleted as they are met (social.posts.ts).
 */
export async function fanOut(post: PostRecord, fanoutMax: number): Promise<{ feeds: number; large: boolean }> {
  // `fannedAt` makes every fan-out's write a change (a rewrite of equal data keeps a document's update time), so a
  // reader deleting an item it found stale never deletes one a later fan-out wrote.
  const item = { postId: post.id, authorId: post.authorId, type: post.type, createdAt: post.createdAt, fannedAt: Date.now() };
  // One round trip before the followers' writes: the follower set with the author's profile and the post (one
  // getAll), and the author's blocks.
  const [kept, blocked] = await Promise.all([
    repo.followerSet.read(post.authorId, [repo.profileRef(post.authorId), repo.postRef(post.id)]),
    blockListOf(post.authorId),
  ]);
  const [profile, current] = kept.alongside;
  const large = profile.get('large') === true;
  if (current.get('status') !== 'ACTIVE') {
    await removeFromFeeds(post.id);
    return { feeds: 0, large };
  }
  const followers = large ? undefined : await followersToWrite(post.authorId, kept.ids, fanoutMax);
  // The author's own item rides the first batch.
  if (followers) return { feeds: await toFollowers(post, item, { ...followers, ids: [post.authorId, ...followers.ids] }, blocked), large: false };
  const own = db().batch();
  repo.batchSetFeedItem(own, post.authorId, item);
  await own.commit();
  const mark = await repo.largeMark(post.authorId);
  if (!mark?.done) await markLarge(post.authorId, mark ? (mark.upTo ?? undefined) : undefined);
  return { feeds: 1, large: true };
}

/** The followers to write to: the kept set, or the first of the follows; undefined past `fanoutMax` (large). */
async function followersToWrite(authorId: string, kept: string[] | undefined, fanoutMax: number): Promise<FollowerChunk | undefined> {
  if (kept === undefined) return firstFollowers(authorId, fanoutMax);
  return kept.length > fanoutMax ? undefined : { ids: kept, whole: true };
}

/**
 * Where no follower set is kept (follows stored before sets, or too many followers for one): the first followers
 * from the follows, at most one more than the limit (fewer than a full read settles that the author is not large
 * without counting them); undefined when the author has more than `fanoutMax` (large).
 */
async function firstFollowers(authorId: string, fanoutMax: number): Promise<FollowerChunk | undefined> {
  const firstRead = Math.min(FANOUT_READ, fanoutMax + 1);
  const first = await repo.followerIdsAfter(authorId, undefined, firstRead);
  if (first.ids.length < firstRead) return { ...first, whole: true };
  const large = firstRead > fanoutMax || (await PROFILE_COUNTS.read(repo.profileRef(authorId))).followers > fanoutMax;
  return large ? undefined : { ...first, whole: false };
}

/** Followers' ids: all of them (`whole`), or a first chunk of the follows read on from `last`. */
interface FollowerChunk {
  ids: string[];
  last?: string;
  whole: boolean;
}

const MAX_COMMITS_IN_FLIGHT = 8;

/**
 * The post into each follower's feed, in batches of FANOUT_BATCH side by side; read from the follows, FANOUT_READ
 * followers at a time (by id), the batches commit while the next followers are read; every commit awaited before it answers.
 */
async function toFollowers(post: PostRecord, item: FeedItemRecord, firstChunk: FollowerChunk, blocked: ReadonlySet<string>): Promise<number> {
  // Each commit's failure is caught as it happens (an unheard rejection would end the instance) and thrown at the
  // end; at most MAX_COMMITS_IN_FLIGHT batches are out at once (an author near the limit has thousands).
  let commits: Array<Promise<void>> = [];
  let failure: unknown;
  const send = (batch: FirebaseFirestore.WriteBatch) =>
    batch.commit().then(
      () => undefined,
      (err: unknown) => {
        failure ??= err;
      },
    );
  let written = 0;
  try {
    for (let chunk: FollowerChunk = firstChunk; ;) {
      const ids = chunk.ids.filter((id) => !blocked.has(id));
      for (let i = 0; i < ids.length; i += FANOUT_BATCH) {
        const batch = db().batch();
        for (const followerId of ids.slice(i, i + FANOUT_BATCH)) repo.batchSetFeedItem(batch, followerId, item);
        commits.push(send(batch));
        if (commits.length >= MAX_COMMITS_IN_FLIGHT) {
          await Promise.all(commits);
          commits = [];
        }
      }
      written += ids.length;
      if (chunk.whole || chunk.ids.length < FANOUT_READ || failure !== undefined) break;
      chunk = { ...(await repo.followerIdsAfter(post.authorId, chunk.last, FANOUT_READ)), whole: false };
    }
  } catch (err) {
    failure ??= err;
  }
  // A failed read still waits for the batches already sent (each a set: the redelivered event writes them again).
  await Promise.all(commits);
  if (failure !== undefined) throw failure;
  return written;
}

/**
 * Marks an author large, then adds them to every follower's merge list, each batch with how far it got: a failure
 * part-way resumes there on the event's redelivery (the mark comes first: a follow racing it retries and sees it).
 */
export async function markLarge(authorId: string, resumeAfter?: string): Promise<number> {
  if (resumeAfter === undefined) {
    // The profile is written once: follows read it in their transactions (the progress goes to its own document).
    const mark = db().batch();
    repo.batchSetLarge(mark, authorId);
    repo.batchSetLargeMark(mark, { authorId, upTo: null, done: false });
    await mark.commit();
  }
  let after = resumeAfter;
  let followers = 0;
  for (;;) {
    const chunk = await repo.followerIdsAfter(authorId, after, FANOUT_CHUNK);
    const done = chunk.ids.length < FANOUT_CHUNK;
    const batch = db().batch();
    for (const followerId of chunk.ids) repo.batchAddMergeAuthor(batch, followerId, authorId);
    repo.batchSetLargeMark(batch, { authorId, upTo: chunk.last ?? after ?? null, done });
    await batch.commit();
    followers += chunk.ids.length;
    if (done) break;
    after = chunk.last;
  }
  logger.info('social: author is large; posts merge into feeds at read time', { authorId, followers });
  return followers;
}

/** Removes a post from every feed that holds it. */
export async function removeFromFeeds(postId: string): Promise<number> {
  let removed = 0;
  for (let n = await repo.deleteFeedItemsOfPost(postId, FANOUT_CHUNK); n > 0; n = await repo.deleteFeedItemsOfPost(postId, FANOUT_CHUNK)) removed += n;
  return removed;
}

/**
 * A post created ACTIVE or made ACTIVE again goes into the feeds (a new one tells the people it names); one that
 * stops being ACTIVE leaves them.
 */
export const onPostWritten = typedTrigger(
  collectionRecords<PostRecord>(),
  async ({ before, after }, config: Readonly<AppConfig>, hub?: Pick<Hub, 'dispatch' | 'dispatchAggregated'>) => {
    const was = before?.status === 'ACTIVE';
    const is = after?.status === 'ACTIVE';
    if (!was && is) {
      const fanned = await fanOut(after!, config.SOCIAL_FANOUT_MAX);
      const mentioned = before || after!.mentions.length === 0 ? 0 : await postMentions(after!, hub ?? notificationHub(config));
      return { ...fanned, mentioned };
    }
    // Events may come out of order: a post made ACTIVE again since is left in the feeds (its own event fans it out).
    if (was && !is) return (await repo.post(before!.id))?.status === 'ACTIVE' ? undefined : { removed: await removeFromFeeds(before!.id) };
    return undefined;
  },
);
