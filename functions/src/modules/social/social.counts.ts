import type { DocumentEvent } from '../../platform/core/module/module';
import { requestRollup, runRollup, type RollupPayload } from '../../platform/kits/counters/rollup';
import { POST_COUNTS_ROLLUP_QUEUE } from './social.collections';
import { POST_COUNTS, type PostCounts, type PostRecord } from './social.model';
import { socialRepo as repo } from './social.repo';

// A post's counters in lists: the rollup of its shards stored on the post (read with it), asked for by every change
// to a shard and run at most once a second per post; a post stored before rollups is counted from its shards.

/** Trigger on `social_posts/{postId}/counter_shards/{shard}`: asks for the rollup of the change's second. */
export const onPostCountsChanged = (event: DocumentEvent) => requestRollup(POST_COUNTS_ROLLUP_QUEUE, event.params.postId, Date.parse(event.time));

/** The rollup task (at least once). */
export async function onPostCountsRollup(payload: RollupPayload<'postId'>): Promise<void> {
  await runRollup(POST_COUNTS, repo.postRef(payload.postId), payload.runAt);
}

/** The counts a list shows for each post, in order: the rolled-up ones, the shards summed only for posts without. */
export async function listedCounts(posts: readonly PostRecord[]): Promise<PostCounts[]> {
  const stored = posts.map((p) => POST_COUNTS.summaryIn(p));
  const missing = posts.filter((_, i) => stored[i] === undefined);
  const summed = await POST_COUNTS.readMany(missing.map((p) => repo.postRef(p.id)));
  let next = 0;
  return stored.map((counts) => counts ?? summed[next++]);
}
