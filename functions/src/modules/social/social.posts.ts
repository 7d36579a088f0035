import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction, isAlreadyExists } from '../../platform/core/firebase/firebase';
import { decodeCursor, encodeCursor, invalidCursor, type PageRequest } from '../../platform/kits/firestore/paginate';
import { inQueryChunks } from '../../platform/kits/firestore/records';
import { iso } from '../../platform/kits/time/time';
import { blockersOf, blockListOf, eitherBlocks } from '../chat';
import { stableId } from '../../platform/kits/ids/stable-id';
import { attachableImage, attachableMedia } from '../media';
import { accounts } from '../users';
import {
  blendScore,
  hashtagsOf,
  MERGE_AUTHORS_MAX,
  mentionedHandles,
  POST_COUNTS,
  POST_IMAGES_MAX,
  PROFILE_COUNTS,
  type PostCounts,
  type PostMedia,
  type PostRecord,
  type PostType,
} from './social.model';
import { listedCounts } from './social.counts';
import { activePeople, visiblePerson } from './social.people';
import { socialRepo as repo, type FeedPosition } from './social.repo';
import type { FeedQuerySchema, PostBodySchema, PostPatchSchema, ReelBodySchema } from './social.schemas';

// Posts, their likes and the posts feed. Who sees a post: its author; others while it is ACTIVE, PUBLIC or they follow
// its author, and neither blocks the other. Anything else answers 404, the same as a post that never existed.

type Caller = Pick<AuthContext, 'userId'>;
interface PeopleMet {
  blocked: ReadonlySet<string>;
  blockers: ReadonlySet<string>;
  active: ReadonlyMap<string, string>;
}
const noSuchPost = () => new NotFoundError('No such post');

export function postView(post: PostRecord, counts: PostCounts, likedByMe: boolean) {
  return {
    id: post.id,
    type: post.type,
    author: { id: post.authorId, name: post.author.name, handle: post.author.handle },
    text: post.text,
    media: post.media,
    reel: post.reel ?? null,
    location: post.location,
    visibility: post.visibility,
    hashtags: post.hashtags,
    mentions: post.mentions,
    counts,
    likedByMe,
    createdAt: iso(post.createdAt),
    updatedAt: iso(post.updatedAt),
  };
}

/** Up to 10 images, or one video or audio clip, all the author's READY uploads (422 naming the others). */
async function mediaOf(userId: string, ids: readonly string[]): Promise<PostMedia[]> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => attachableMedia(userId, id)));
  const invalid = unique.filter((_, i) => !found[i]);
  if (invalid.length > 0) throw new UnprocessableError('Media must be your READY uploads', { mediaIds: invalid }).withCode('SOCIAL_MEDIA_INVALID');
  const media = found.map((m) => ({ id: m!.id, kind: m!.kind, mimeType: m!.mimeType, url: m!.url }));
  const images = media.filter((m) => m.kind === 'IMAGE').length;
  if (!(images === media.length && images <= POST_IMAGES_MAX) && media.length !== 1)
    throw new UnprocessableError(`A post holds up to ${POST_IMAGES_MAX} images, or one video or audio clip`).withCode('SOCIAL_MEDIA_MIX');
  return media;
}

/** The @handles of a text that name someone, with their owners. */
export async function mentionsOf(text: string): Promise<PostRecord['mentions']> {
  const handles = mentionedHandles(text);
  const owners = await repo.handleOwners(handles);
  return handles.flatMap((handle) => (owners.has(handle) ? [{ userId: owners.get(handle)!, handle }] : []));
}

export function createPostsService(now: () => number = Date.now) {
  /** Whether `viewer` may see the post now (blocks and follows read as needed). */
  async function canSee(viewer: Caller, post: PostRecord): Promise<boolean> {
    if (post.authorId === viewer.userId) return post.status !== 'DELETED';
    if (post.status !== 'ACTIVE') return false;
    const [blocked, follows, active] = await Promise.all([
      eitherBlocks(viewer.userId, post.authorId),
      post.visibility === 'FOLLOWERS' ? repo.followsAmong(viewer.userId, [post.authorId]) : Promise.resolve(undefined),
      activePeople([post.authorId]),
    ]);
    return !blocked && active.has(post.authorId) && (follows === undefined || follows.has(post.authorId));
  }

  /**
   * What showing others' posts to `viewer` depends on: whom they block (`blocked` when read already), who blocks
   * them, which accounts are active.
   */
  async function peopleMet(viewer: Caller, authors: string[], knownBlocked?: ReadonlySet<string>): Promise<PeopleMet> {
    const [blocked, blockers, active] = await Promise.all([
      knownBlocked ?? (authors.length > 0 ? blockListOf(viewer.userId) : new Set<string>()),
      blockersOf(viewer.userId, authors),
      activePeople(authors),
    ]);
    return { blocked, blockers, active };
  }

  /**
   * The posts among `candidates` the viewer may see, in order, with one read of each kind for all of them: their own
   * (not deleted), others' ACTIVE ones by active authors neither blocks, those `needsFollow` only from people followed.
   */
  async function visibleAmong(
    viewer: Caller,
    candidates: readonly PostRecord[],
    needsFollow: (post: PostRecord) => boolean = (p) => p.visibility === 'FOLLOWERS',
    met?: Promise<PeopleMet>,
  ): Promise<PostRecord[]> {
    const others = candidates.filter((p) => p.authorId !== viewer.userId && p.status === 'ACTIVE');
    const followersOnly = [...new Set(others.filter(needsFollow).map((p) => p.authorId))];
    const [{ blocked, blockers, active }, followed] = await Promise.all([
      met ?? peopleMet(viewer, [...new Set(others.map((p) => p.authorId))]),
      repo.followsAmong(viewer.userId, followersOnly),
    ]);
    return candidates.filter((p) =>
      p.authorId === viewer.userId
        ? p.status !== 'DELETED'
        : p.status === 'ACTIVE' &&
          active.has(p.authorId) &&
          !blocked.has(p.authorId) &&
          !blockers.has(p.authorId) &&
          (!needsFollow(p) || followed.has(p.authorId)),
    );
  }

  async function visiblePost(viewer: Caller, id: string): Promise<PostRecord> {
    const post = await repo.post(id);
    if (!post || !(await canSee(viewer, post))) throw noSuchPost();
    return post;
  }

  /**
   * Views of posts `viewer` may see, with their counts and whether the viewer likes each (read unless given): a
   * list's counts as rolled up into the posts, one post's (`exact`) summed from its shards.
   */
  async function views(viewer: Caller, posts: PostRecord[], options: { liked?: Set<string>; exact?: boolean } = {}) {
    const [counts, liked] = await Promise.all([
      options.exact ? POST_COUNTS.readMany(posts.map((p) => repo.postRef(p.id))) : listedCounts(posts),
      options.liked ??
        repo.likedAmong(
          viewer.userId,
          posts.map((p) => p.id),
        ),
    ]);
    return posts.map((p, i) => ({ post: p, counts: counts[i], view: postView(p, counts[i], liked.has(p.id)) }));
  }

  async function get(viewer: Caller, id: string) {
    const [view] = await views(viewer, [await visiblePost(viewer, id)], { exact: true });
    return view.view;
  }

  type Draft = Pick<PostRecord, 'type' | 'text' | 'media' | 'visibility' | 'reel'> & {
    location?: { lat: number; lng: number; name?: string | null } | null;
  };

  /** Stores a new post or reel with its author's post count; the Idempotency-Key's earlier post when it was this one. */
  async function insert(caller: Caller, draft: Draft, idempotencyKey?: string) {
    const [account, profile, mentions] = await Promise.all([accounts.get(caller.userId), repo.profile(caller.userId), mentionsOf(draft.text)]);
    const t = now();
    const post: PostRecord = {
      id: idempotencyKey ? stableId({ scope: 'social.post', caller: caller.userId, key: idempotencyKey, prefix: 'p_' }) : repo.newPostId(),
      authorId: caller.userId,
      author: { name: account?.name ?? 'User', handle: profile?.handle ?? null },
      type: draft.type,
      text: draft.text,
      media: draft.media,
      ...(draft.reel ? { reel: draft.reel } : {}),
      location: draft.location ? { lat: draft.location.lat, lng: draft.location.lng, name: draft.location.name ?? null } : null,
      visibility: draft.visibility,
      hashtags: hashtagsOf(draft.text),
      mentions,
      status: 'ACTIVE',
      createdAt: t,
      updatedAt: t,
      ...POST_COUNTS.zeroSummary(t),
    };
    try {
      await inTransaction(async (tx) => {
        repo.txCreatePost(tx, post);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { posts: 1 });
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // The key posted before (its idempotency record expired since): that post, if it is this one and still there.
      const stored = await repo.post(post.id);
      if (!stored || stored.status === 'DELETED' || stored.type !== post.type || stored.text !== post.text || stored.media.length !== post.media.length)
        throw new UnprocessableError('This Idempotency-Key posted another post').withCode('IDEMPOTENCY_KEY_REUSED');
      return get(caller, post.id);
    }
    return postView(post, { likes: 0, comments: 0, shares: 0, views: 0 }, false);
  }

  return {
    canSee,
    visibleAmong,
    visiblePost,
    views,

    /** `idempotencyKey` names the post: a retry the idempotency record no longer answers finds it instead of posting twice. */
    async create(caller: Caller, body: z.output<typeof PostBodySchema>, idempotencyKey?: string) {
      const media = await mediaOf(caller.userId, body.mediaIds ?? []);
      return insert(caller, { type: 'POST', text: body.text ?? '', media, visibility: body.visibility, location: body.location }, idempotencyKey);
    },

    /** A reel: one of my READY videos, an optional cover image, its length and a caption. */
    async createReel(caller: Caller, body: z.output<typeof ReelBodySchema>, idempotencyKey?: string) {
      const [video, cover] = await Promise.all([
        attachableMedia(caller.userId, body.videoMediaId),
        body.coverMediaId ? attachableImage(caller.userId, body.coverMediaId) : Promise.resolve(null),
      ]);
      const invalid = [...(video?.kind === 'VIDEO' ? [] : [body.videoMediaId]), ...(cover === undefined ? [body.coverMediaId!] : [])];
      if (invalid.length > 0)
        throw new UnprocessableError('A reel takes one of your READY videos and, as its cover, one of your READY images', { mediaIds: invalid }).withCode(
          'SOCIAL_MEDIA_INVALID',
        );
      return insert(
        caller,
        {
          type: 'REEL',
          text: body.caption ?? '',
          media: [{ id: video!.id, kind: video!.kind, mimeType: video!.mimeType, url: video!.url }],
          reel: { durationSec: body.durationSec, cover: cover ? { id: cover.id, url: cover.url } : null },
          visibility: body.visibility,
          location: body.location,
        },
        idempotencyKey,
      );
    },

    get,

    async update(caller: Caller, id: string, patch: z.output<typeof PostPatchSchema>) {
      const mentions = patch.text !== undefined ? await mentionsOf(patch.text) : undefined;
      await inTransaction(async (tx) => {
        const post = await repo.post(id, tx);
        if (!post || post.status === 'DELETED' || !(await canSee(caller, post))) throw noSuchPost();
        if (post.authorId !== caller.userId) throw new ForbiddenError('Only its author changes a post').withCode('SOCIAL_NOT_AUTHOR');
        repo.txUpdatePost(tx, id, {
          ...(patch.text !== undefined ? { text: patch.text, hashtags: hashtagsOf(patch.text), mentions } : {}),
          ...(patch.visibility !== undefined ? { visibility: patch.visibility } : {}),
          ...(patch.location !== undefined
            ? { location: patch.location && { lat: patch.location.lat, lng: patch.location.lng, name: patch.location.name ?? null } }
            : {}),
          updatedAt: now(),
        });
      });
      return get(caller, id);
    },

    /** Deletes one of my posts (it leaves every feed: the post trigger). */
    async remove(caller: Caller, id: string) {
      await inTransaction(async (tx) => {
        const post = await repo.post(id, tx);
        if (!post || post.status === 'DELETED' || !(await canSee(caller, post))) throw noSuchPost();
        if (post.authorId !== caller.userId) throw new ForbiddenError('Only its author deletes a post').withCode('SOCIAL_NOT_AUTHOR');
        repo.txUpdatePost(tx, id, { status: 'DELETED', updatedAt: now() });
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { posts: -1 });
      });
      return { deleted: true as const };
    },

    /** A person's posts as `viewer` sees them: all of them to themselves and their followers, PUBLIC ones to others. */
    async ofAuthor(viewer: Caller, authorId: string, request: Omit<PageRequest, 'query' | 'caller'>, type?: PostType) {
      const own = viewer.userId === authorId;
      await visiblePerson(viewer, authorId);
      const all = own || (await repo.followsAmong(viewer.userId, [authorId])).has(authorId);
      const page = await repo.postsOfAuthor(
        authorId,
        all ? 'all' : 'PUBLIC',
        { ...request, query: `social:${type ?? 'posts'}:${authorId}:${all}`, caller: viewer.userId },
        type,
      );
      return { items: (await views(viewer, page.items)).map((v) => v.view), nextCursor: page.nextCursor };
    },

    /**
     * The posts feed: the viewer's feed items (written by the fan-out) merged with the newest posts of the large
     * accounts they follow, newest first by (createdAt, id); within a page, blended with engagement (blendScore).
     * Posts deleted or hidden since, of someone either blocks, or FOLLOWERS posts of someone no longer followed
     * are left out, so a page may hold fewer than `limit`: follow nextCursor.
     */
    async feed(viewer: Caller, query: z.output<typeof FeedQuerySchema>, type?: PostType) {
      const request = { query: type ? `social:feed:${type}` : 'social:feed', caller: viewer.userId };
      let after: FeedPosition | undefined;
      if (query.cursor) {
        const { values, id } = decodeCursor(query.cursor, request, 1);
        if (typeof values[0] !== 'number') throw invalidCursor();
        after = { createdAt: values[0], id };
      }
      // Two round trips after the feed's own query: its posts (their counts rolled up in them), the people behind
      // them and my likes are read together (the items name their authors), then only the follows FOLLOWERS posts need.
      const [profile, items, blocked] = await Promise.all([
        repo.profile(viewer.userId),
        repo.feedBefore(viewer.userId, after, query.limit, type),
        blockListOf(viewer.userId),
      ]);
      // The newest follows of large accounts when there are more than a feed merges (arrayUnion appends).
      const mergeAuthors = (profile?.mergeAuthors ?? []).slice(-MERGE_AUTHORS_MAX);
      const merged = await Promise.all(inQueryChunks(mergeAuthors).map((authors) => repo.postsOfAuthorsBefore(authors, after, query.limit, type)));
      const byId = new Map<string, { createdAt: number; authorId: string; post?: PostRecord }>();
      for (const item of items) byId.set(item.postId, { createdAt: item.createdAt, authorId: item.authorId });
      for (const post of merged.flat()) byId.set(post.id, { createdAt: post.createdAt, authorId: post.authorId, post });
      const order = [...byId.entries()].sort(([aId, a], [bId, b]) => b.createdAt - a.createdAt || (aId < bId ? 1 : aId > bId ? -1 : 0)).slice(0, query.limit);
      const more = items.length === query.limit || merged.some((m) => m.length === query.limit) || byId.size > query.limit;
      const last = order.at(-1);
      const nextCursor = more && last && order.length === query.limit ? encodeCursor([last[1].createdAt], last[0], request) : null;

      const ids = order.map(([id]) => id);
      const authors = [...new Set(order.map(([, o]) => o.authorId).filter((a) => a !== viewer.userId))];
      const met = peopleMet(viewer, authors, blocked);
      const [loaded, liked] = await Promise.all([repo.posts(order.filter(([, o]) => !o.post).map(([id]) => id)), repo.likedAmong(viewer.userId, ids), met]);
      const candidates = order.map(([id, o]) => o.post ?? loaded.get(id)).filter((p): p is PostRecord => p?.status === 'ACTIVE');
      // Merged posts need a follow too: a merge list may briefly name someone just unfollowed (marking racing it).
      const mergedIds = new Set(merged.flat().map((p) => p.id));
      // Items of posts no longer ACTIVE (a delete racing its fan-out leaves some behind) go as they are met.
      const inPage = new Set(ids);
      const stale = items.filter((i) => inPage.has(i.postId) && (byId.get(i.postId)?.post ?? loaded.get(i.postId))?.status !== 'ACTIVE');
      const [shown] = await Promise.all([
        visibleAmong(viewer, candidates, (p) => p.visibility === 'FOLLOWERS' || mergedIds.has(p.id), met),
        stale.length > 0 ? repo.deleteStaleFeedItems(viewer.userId, stale) : 0,
      ]);
      const ranked = (await views(viewer, shown, { liked })).sort((a, b) => blendScore(b.post.createdAt, b.counts) - blendScore(a.post.createdAt, a.counts));
      return { items: ranked.map((r) => r.view), nextCursor };
    },

    /** Likes a post I may see; a repeat changes nothing (one like per person: the like document). */
    async like(caller: Caller, id: string) {
      await visiblePost(caller, id);
      await inTransaction(async (tx) => {
        if (await repo.txLike(tx, id, caller.userId)) return;
        repo.txCreateLike(tx, { postId: id, userId: caller.userId, createdAt: now() });
        POST_COUNTS.txAdd(tx, repo.postRef(id), { likes: 1 }, caller.userId);
      });
      return { postId: id, liked: true, likes: (await POST_COUNTS.read(repo.postRef(id))).likes };
    },

    /** Takes my like back, also of a post I can no longer see (answered 404 then: its figures are not mine to read). */
    async unlike(caller: Caller, id: string) {
      if (!(await repo.post(id))) throw noSuchPost();
      await inTransaction(async (tx) => {
        if (!(await repo.txLike(tx, id, caller.userId))) return;
        repo.txDeleteLike(tx, id, caller.userId);
        POST_COUNTS.txAdd(tx, repo.postRef(id), { likes: -1 }, caller.userId);
      });
      await visiblePost(caller, id);
      return { postId: id, liked: false, likes: (await POST_COUNTS.read(repo.postRef(id))).likes };
    },
  };
}
