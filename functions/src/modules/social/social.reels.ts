import type { AuthContext } from '../../platform/core/auth/access-token';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { decodeCursor, encodeCursor, invalidCursor } from '../../platform/kits/firestore/paginate';
import {
  POPULAR_REELS_CANDIDATES,
  POPULAR_REELS_KEPT,
  POPULAR_REELS_TTL_MS,
  POPULAR_REELS_WINDOW_MS,
  PROFILE_COUNTS,
  REELS_FEW_FOLLOWS,
  reelPopularity,
  type PostRecord,
} from './social.model';
import type { createPostsService } from './social.posts';
import { listedCounts } from './social.counts';
import { socialRepo as repo } from './social.repo';

// The reels tab: reels of the people I follow (the posts feed's fan-out and read-time merge, reels only), then, for
// someone following fewer than REELS_FEW_FOLLOWS people, popular public reels of others once those run out. The
// popular ones are ranked (reelPopularity) from the newest public reels of the last week (POPULAR_REELS_CANDIDATES of
// them: in a busy week, the newest days) and kept in `social_trending/reels`;
// the first reader who finds the ranking older than five minutes ranks them again (a one-minute lease keeps a crowd
// of readers from all doing it), the others read the stored one meanwhile.

type Caller = Pick<AuthContext, 'userId'>;
type Posts = ReturnType<typeof createPostsService>;
/** A cursor into the popular part: the ranking's position (the following part's cursors come from the posts feed). */
const POPULAR = 'P~';

export function createReelsService(posts: Posts, now: () => number = Date.now) {
  async function rank(at: number): Promise<string[]> {
    const candidates = await repo.recentPublicReels(at - POPULAR_REELS_WINDOW_MS, POPULAR_REELS_CANDIDATES);
    const counts = await listedCounts(candidates);
    return candidates
      .map((c, i) => ({ id: c.id, score: reelPopularity(counts[i], at - c.createdAt) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, POPULAR_REELS_KEPT)
      .map((r) => r.id);
  }

  /** The popular reels' ids, best first (the stored ranking while another reader ranks them, or when ranking fails). */
  async function popularIds(): Promise<string[]> {
    const at = now();
    const stored = await repo.popularReels();
    if (stored && (at - stored.computedAt < POPULAR_REELS_TTL_MS || stored.refreshingUntil > at)) return stored.ids;
    const claimed = await inTransaction(async (tx) => {
      const current = await repo.popularReels(tx);
      if (current && (at - current.computedAt < POPULAR_REELS_TTL_MS || current.refreshingUntil > at)) return false;
      repo.txSetPopularReels(tx, { refreshingUntil: at + 60_000, ...(current ? {} : { ids: [], computedAt: 0 }) });
      return true;
    }).catch(() => false);
    if (!claimed) return stored?.ids ?? [];
    try {
      const ids = await rank(at);
      await inTransaction(async (tx) => repo.txSetPopularReels(tx, { ids, computedAt: at, refreshingUntil: 0 }));
      return ids;
    } catch (err) {
      // The lease runs out in a minute: the next reader after it ranks them again.
      logger.warn('social: ranking popular reels failed; the stored ranking stands', { error: err instanceof Error ? err.message : String(err) });
      return stored?.ids ?? [];
    }
  }

  /**
   * Popular reels from a position of the ranking: not mine, not of people I follow (their reels are in the following
   * part), only those I may see. The position after the last one taken, or null when the ranking ran out.
   */
  async function popularFrom(viewer: Caller, offset: number, want: number): Promise<{ items: PostRecord[]; next: number | null }> {
    const ids = await popularIds();
    const items: PostRecord[] = [];
    let at = offset;
    while (items.length < want && at < ids.length) {
      const slice = ids.slice(at, at + want * 2);
      const loaded = await repo.posts(slice);
      const candidates = slice.map((id) => loaded.get(id)).filter((p): p is PostRecord => p !== undefined && p.authorId !== viewer.userId);
      const followed = await repo.followsAmong(
        viewer.userId,
        candidates.map((p) => p.authorId),
      );
      const visible = new Set(
        (
          await posts.visibleAmong(
            viewer,
            candidates.filter((p) => !followed.has(p.authorId)),
          )
        ).map((p) => p.id),
      );
      for (const id of slice) {
        at += 1;
        if (visible.has(id)) items.push(loaded.get(id)!);
        if (items.length === want) break;
      }
    }
    return { items, next: at < ids.length ? at : null };
  }

  return {
    /** A page of the reels tab (see above). */
    async feed(viewer: Caller, query: { limit: number; cursor?: string }) {
      const request = { query: 'social:reels:popular', caller: viewer.userId };
      const popularCursor = (offset: number) => `${POPULAR}${encodeCursor([offset], String(offset), request)}`;
      const popularPage = async (offset: number, want: number, before: Array<Awaited<ReturnType<Posts['get']>>> = []) => {
        const page = await popularFrom(viewer, offset, want);
        const shown = (await posts.views(viewer, page.items)).map((v) => v.view);
        return { items: [...before, ...shown], nextCursor: page.next === null ? null : popularCursor(page.next) };
      };
      if (query.cursor?.startsWith(POPULAR)) {
        const { values } = decodeCursor(query.cursor.slice(POPULAR.length), request, 1);
        if (typeof values[0] !== 'number' || !Number.isInteger(values[0]) || values[0] < 0) throw invalidCursor();
        return popularPage(values[0], query.limit);
      }
      const [following, counts] = await Promise.all([posts.feed(viewer, query, 'REEL'), PROFILE_COUNTS.read(repo.profileRef(viewer.userId))]);
      if (following.nextCursor !== null || counts.following >= REELS_FEW_FOLLOWS) return following;
      // The reels of the people I follow ran out, and I follow few: popular ones fill the page, then page on.
      const want = query.limit - following.items.length;
      if (want === 0) return { items: following.items, nextCursor: popularCursor(0) };
      return popularPage(0, want, following.items);
    },
  };
}
