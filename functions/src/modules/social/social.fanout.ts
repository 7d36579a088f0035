import { db } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { AppConfig } from '../../platform/core/config';
import { blockListOf } from '../chat';
import { PROFILE_COUNTS, type PostRecord } from './social.model';
import { socialRepo as repo } from './social.repo';

// Fan-out on write: a new post goes into its author's followers' feeds (`social_feeds/{follower}/feed_items/{post}`),
// a few hundred a batch, and leaves them when it is deleted or hidden. An author with more than SOCIAL_FANOUT_MAX
// followers is marked large once: from then on their posts are merged into feeds at read time (social.posts.ts),
// and the followers they had then get the author in their merge list (one write each, once; later followers get
// it when they follow). Every write is a set or delete of a document named by the post and the person, so a
// redelivered event writes the same documents again.

const CHUNK = 400;

/** Writes the post into its author's feed and their followers' (or marks the author large). */
export async function fanOut(post: PostRecord, fanoutMax: number): Promise<{ feeds: number; large: boolean }> {
  const item = { postId: post.id, authorId: post.authorId, type: post.type, createdAt: post.createdAt };
  const own = db().batch();
  repo.batchSetFeedItem(own, post.authorId, item);
  await own.commit();
  const [profile, counts] = await Promise.all([repo.profile(post.authorId), PROFILE_COUNTS.read(repo.profileRef(post.authorId))]);
  if (profile?.large || counts.followers > fanoutMax) {
    if (!profile?.large) await markLarge(post.authorId);
    return { feeds: 1, large: true };
  }
  const blocked = await blockListOf(post.authorId);
  let feeds = 1;
  let after: string | undefined;
  for (;;) {
    const chunk = await repo.followerIdsAfter(post.authorId, after, CHUNK);
    const batch = db().batch();
    let writes = 0;
    for (const followerId of chunk.ids) {
      if (blocked.has(followerId)) continue;
      repo.batchSetFeedItem(batch, followerId, item);
      writes += 1;
    }
    if (writes > 0) await batch.commit();
    feeds += writes;
    if (chunk.ids.length < CHUNK) break;
    after = chunk.last;
  }
  return { feeds, large: false };
}

/** Marks an author large, then adds them to every follower's merge list (the mark first: a follow racing it retries). */
async function markLarge(authorId: string): Promise<void> {
  const mark = db().batch();
  mark.set(repo.profileRef(authorId), { userId: authorId, large: true }, { merge: true });
  await mark.commit();
  let after: string | undefined;
  let followers = 0;
  for (;;) {
    const chunk = await repo.followerIdsAfter(authorId, after, CHUNK);
    const batch = db().batch();
    for (const followerId of chunk.ids) repo.changeMergeAuthors(batch, followerId, authorId, true);
    if (chunk.ids.length > 0) await batch.commit();
    followers += chunk.ids.length;
    if (chunk.ids.length < CHUNK) break;
    after = chunk.last;
  }
  logger.info('social: author is large; posts merge into feeds at read time', { authorId, followers });
}

/** Removes a post from every feed that holds it. */
export async function removeFromFeeds(postId: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const refs = await repo.feedItemRefsOfPost(postId, CHUNK);
    if (refs.length === 0) return removed;
    const batch = db().batch();
    for (const ref of refs) batch.delete(ref);
    await batch.commit();
    removed += refs.length;
  }
}

/** A post created ACTIVE or made ACTIVE again goes into the feeds; one that stops being ACTIVE leaves them. */
export const onPostWritten = typedTrigger(collectionRecords<PostRecord>(), async ({ before, after }, config: Readonly<AppConfig>) => {
  const was = before?.status === 'ACTIVE';
  const is = after?.status === 'ACTIVE';
  if (!was && is) return fanOut(after!, config.SOCIAL_FANOUT_MAX);
  if (was && !is) return { removed: await removeFromFeeds((before ?? after)!.id) };
  return undefined;
});
