import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { SOCIAL_FOLLOWS } from './social.collections';
import { FOLLOWER_SET_BUCKET_CAP, FOLLOWER_SET_BUCKETS } from './social.model';
import { socialRepo as repo } from './social.repo';

const AUTHORS_PAGE = 500;
// More followers than the set holds: it is written full (the fan-out reads the follows), without reading them all.
const MOST_READ = FOLLOWER_SET_BUCKETS * FOLLOWER_SET_BUCKET_CAP + 1;

// One-shot and idempotent: a follower set for every author whose follows were stored before sets were kept (the
// fan-out reads their follows until then). Each author's set is written in a transaction that reads their follows,
// so a follow racing it is in the set or retries it; an author with a set already, or marked large, is skipped.
export async function backfillFollowerSets(
  onProgress?: (authors: number, written: number) => void,
): Promise<{ authors: number; written: number; skipped: number }> {
  let authors = 0;
  let written = 0;
  let after: string | undefined;
  for (;;) {
    // The followed authors a page at a time: ordered by followee, each page resumes after the last author seen.
    let query = db().collection(SOCIAL_FOLLOWS).orderBy('followeeId').select('followeeId');
    if (after !== undefined) query = query.startAfter(after);
    const snap = await query.limit(AUTHORS_PAGE).get();
    if (snap.empty) break;
    const page = [...new Set(snap.docs.map((d) => d.get('followeeId') as string))];
    for (const authorId of page) {
      authors += 1;
      const wrote = await inTransaction(async (tx) => {
        const [started, profile] = await Promise.all([repo.followerSet.txStarted(tx, authorId), repo.profile(authorId, tx)]);
        if (started || profile?.large) return false;
        const follows = await tx.get(db().collection(SOCIAL_FOLLOWS).where('followeeId', '==', authorId).select('followerId').limit(MOST_READ));
        repo.followerSet.txReplace(
          tx,
          authorId,
          follows.docs.map((d) => d.get('followerId') as string),
        );
        return true;
      });
      if (wrote) written += 1;
    }
    after = page.at(-1);
    onProgress?.(authors, written);
  }
  return { authors, written, skipped: authors - written };
}
