import { db } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { AppConfig } from '../../platform/core/config';
import { blockListOf } from '../chat';
import { notificationHub, type Hub } from '../notifications';
import { postMentions } from './social.notices';
import { FANOUT_CHUNK, PROFILE_COUNTS, type FeedItemRecord, type PostRecord } from './social.model';
import { socialRepo as repo } from './social.repo';

// Fan-out on write: a new post goes into its author's followers' feeds (`social_feeds/{follower}/feed_items/{post}`),
// a few hundred a batch, and leaves them when it is deleted or hidden. An author with more than SOCIAL_FANOUT_MAX
// followers is marked large once: from then on their posts are merged into feeds at read time (social.posts.ts),
// and the followers they had then get the author in their merge list (one write each, once; later followers get
// it when they follow). Every write is a set or delete of a document named by the post and the person, so a
// redelivered event writes the same documents again.

/** Writes the post into its author's feed and their followers' (or marks the author large), then checks it is still ACTIVE. */
export async function fanOut(post: PostRecord, fanoutMax: number): Promise<{ feeds: number; large: boolean }> {
  const item = { postId: post.id, authorId: post.authorId, type: post.type, createdAt: post.createdAt };
  const own = db().batch();
  repo.batchSetFeedItem(own, post.authorId, item);
  await own.commit();
  const [profile, counts, mark] = await Promise.all([
    repo.profile(post.authorId),
    PROFILE_COUNTS.read(repo.profileRef(post.authorId)),
    repo.largeMark(post.authorId),
  ]);
  let result = { feeds: 1, large: true };
  if (profile?.large || counts.followers > fanoutMax) {
    if (!mark?.done) await markLarge(post.authorId, mark ? (mark.upTo ?? undefined) : undefined);
  } else {
    result = { feeds: 1 + (await toFollowers(post, item)), large: false };
  }
  // A delete (or hide) that ran while this wrote, or this event redelivered after it, must not leave items behind.
  const now = await repo.post(post.id);
  if (now?.status !== 'ACTIVE') await removeFromFeeds(post.id);
  return result;
}

async function toFollowers(post: PostRecord, item: FeedItemRecord): Promise<number> {
  const blocked = await blockListOf(post.authorId);
  let written = 0;
  let after: string | undefined;
  for (;;) {
    const chunk = await repo.followerIdsAfter(post.authorId, after, FANOUT_CHUNK);
    const batch = db().batch();
    let writes = 0;
    for (const followerId of chunk.ids) {
      if (blocked.has(followerId)) continue;
      repo.batchSetFeedItem(batch, followerId, item);
      writes += 1;
    }
    if (writes > 0) await batch.commit();
    written += writes;
    if (chunk.ids.length < FANOUT_CHUNK) return written;
    after = chunk.last;
  }
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
