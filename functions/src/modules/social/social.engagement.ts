import type { AuthContext } from '../../platform/core/auth/access-token';
import { UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { foldText } from '../../platform/kits/text/text';
import { POST_COUNTS, type PostRecord } from './social.model';
import { peoplePage } from './social.people';
import type { createPostsService } from './social.posts';
import { socialRepo as repo, type MarkKind } from './social.repo';

// What people do with a post besides liking and commenting: save it (private), share it, see it (counted once per
// person), and the lists around posts: who liked one, a hashtag's page, my saved posts.

type Caller = Pick<AuthContext, 'userId'>;
type Posts = ReturnType<typeof createPostsService>;

/** A hashtag page counts its posts up to this (an app shows "10k+"): counting is billed per 1,000 index entries. */
export const HASHTAG_COUNT_CAP = 10_000;

/** A hashtag as posts store it: without `#`, folded (lower case, no diacritics). */
export const hashtagKey = (tag: string) => foldText(tag.normalize('NFC').replace(/^#/, ''));

export function createEngagementService(posts: Posts, now: () => number = Date.now) {
  /** Marks a post once per person (save, share, view); whether this call marked it. The counter changes with it. */
  async function mark(caller: Caller, kind: MarkKind, postId: string): Promise<boolean> {
    return inTransaction(async (tx) => {
      if (await repo.txMark(tx, kind, postId, caller.userId)) return false;
      repo.txCreateMark(tx, kind, { postId, userId: caller.userId, createdAt: now() });
      if (kind === 'share') POST_COUNTS.txAdd(tx, repo.postRef(postId), { shares: 1 }, caller.userId);
      if (kind === 'view') POST_COUNTS.txAdd(tx, repo.postRef(postId), { views: 1 }, caller.userId);
      return true;
    });
  }

  /** The posts of a page the viewer may still see, in the page's order (others left out: a page may hold fewer). */
  async function visibleOf(viewer: Caller, postIds: string[]): Promise<PostRecord[]> {
    const loaded = await repo.posts(postIds);
    return posts.visibleAmong(
      viewer,
      postIds.map((id) => loaded.get(id)).filter((p): p is PostRecord => p !== undefined),
    );
  }

  return {
    async save(caller: Caller, postId: string) {
      await posts.visiblePost(caller, postId);
      await mark(caller, 'save', postId);
      return { postId, saved: true };
    },

    /** Unsaves, also a post I can no longer see (nothing of it is shown). */
    async unsave(caller: Caller, postId: string) {
      await inTransaction(async (tx) => {
        if (await repo.txMark(tx, 'save', postId, caller.userId)) repo.txDeleteMark(tx, 'save', postId, caller.userId);
      });
      return { postId, saved: false };
    },

    /** My saved posts, newest save first (those I can no longer see left out). */
    async saved(caller: Caller, request: Omit<PageRequest, 'query' | 'caller'>) {
      const page = await repo.savedPage(caller.userId, { ...request, query: 'social:saved', caller: caller.userId });
      const shown = await visibleOf(
        caller,
        page.items.map((s) => s.postId),
      );
      return { items: (await posts.views(caller, shown)).map((v) => v.view), nextCursor: page.nextCursor };
    },

    /**
     * Shares a PUBLIC post (to a chat or outside the app: the app sends the link); each person counts once. A
     * FOLLOWERS post is for its author's followers: only its author shares it.
     */
    async share(caller: Caller, postId: string) {
      const post = await posts.visiblePost(caller, postId);
      if (post.visibility !== 'PUBLIC' && post.authorId !== caller.userId)
        throw new UnprocessableError('Only public posts are shared').withCode('SOCIAL_NOT_SHAREABLE');
      await mark(caller, 'share', postId);
      return { postId, shared: true, shares: (await POST_COUNTS.read(repo.postRef(postId))).shares, shareUrl: `app://social/posts/${postId}` };
    },

    /**
     * Counts a first view per person of each post shown; posts the caller may not see are skipped, not refused, and
     * so is a view whose counter was too busy to take it (a viral post): the app sends it again with its next batch.
     */
    async view(caller: Caller, postIds: readonly string[]) {
      const visible = await visibleOf(caller, [...new Set(postIds)]);
      const marked = await Promise.allSettled(visible.map((p) => mark(caller, 'view', p.id)));
      return { counted: visible.filter((_, i) => marked[i].status === 'fulfilled' && marked[i].value).map((p) => p.id) };
    },

    /** People who like a post I see, newest first (those I do not meet left out). */
    async likers(viewer: Caller, postId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await posts.visiblePost(viewer, postId);
      const page = await repo.likersPage(postId, { ...request, query: `social:likers:${postId}`, caller: viewer.userId });
      return peoplePage(viewer, page.items, page.nextCursor);
    },

    async hashtag(tag: string) {
      const key = hashtagKey(tag);
      return { tag: key, posts: key ? await repo.hashtagCount(key, HASHTAG_COUNT_CAP) : 0 };
    },

    /** A hashtag's public posts, newest first (authors I do not meet left out). */
    async hashtagPosts(viewer: Caller, tag: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      const key = hashtagKey(tag);
      if (!key) return { items: [], nextCursor: null };
      const page = await repo.hashtagPage(key, { ...request, query: `social:hashtag:${key}`, caller: viewer.userId });
      const shown = await visibleOf(
        viewer,
        page.items.map((p) => p.id),
      );
      return { items: (await posts.views(viewer, shown)).map((v) => v.view), nextCursor: page.nextCursor };
    },
  };
}
