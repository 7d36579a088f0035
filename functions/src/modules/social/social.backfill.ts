import { inTransaction } from '../../platform/core/firebase/firebase';
import { FOLLOWER_SET_BUCKET_CAP, FOLLOWER_SET_BUCKETS } from './social.model';
import { socialRepo as repo } from './social.repo';

const AUTHORS_PAGE = 500;
/** More followers than a set holds: it is written full (the fan-out reads the follows) without reading them all. */
const FOLLOWS_READ_MAX = FOLLOWER_SET_BUCKETS * FOLLOWER_SET_BUCKET_CAP + 1;

// One-shot, safe to run again: every followed author's follower set written from their follows, for follows stored
// before sets were kept, or changed by an older version during a deploy (run it once the deploy has finished). Each
// set is written in a transaction that reads the author's follows, so a follow racing it is in the set or retries
// it; authors marked large are skipped (their posts are merged at read time, their set is not read).
export async function backfillFollowerSets(
  onProgress?: (authors: number, written: number) => void,
): Promise<{ authors: number; written: number; skipped: number }> {
  let authors = 0;
  let written = 0;
  let after: string | undefined;
  for (;;) {
    const page = await repo.followedAuthorsAfter(after, AUTHORS_PAGE);
    for (const authorId of page.authors) {
      authors += 1;
      const wrote = await inTransaction(async (tx) => {
        if ((await repo.profile(authorId, tx))?.large) return false;
        repo.followerSet.txReplace(tx, authorId, await repo.txFollowerIds(tx, authorId, FOLLOWS_READ_MAX));
        return true;
      });
      if (wrote) written += 1;
    }
    onProgress?.(authors, written);
    if (!page.more) break;
    // The next page starts after the last author seen (the rest of their follows are skipped).
    after = page.authors.at(-1);
  }
  return { authors, written, skipped: authors - written };
}
