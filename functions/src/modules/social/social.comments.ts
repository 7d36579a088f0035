import type { Transaction } from 'firebase-admin/firestore';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction, isAlreadyExists } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { stableId } from '../../platform/kits/ids/stable-id';
import { iso } from '../../platform/kits/time/time';
import { blockersOf, blockListOf, eitherBlocks } from '../chat';
import { accounts } from '../users';
import { POST_COUNTS, type CommentRecord } from './social.model';
import { activePeople } from './social.people';
import { mentionsOf, type createPostsService } from './social.posts';
import { socialRepo as repo } from './social.repo';
import type { CommentBodySchema, CommentPatchSchema } from './social.schemas';

// Comments and their replies (one level). Who sees them: whoever sees the post, leaving out the comments of people
// either of you blocks and of locked accounts. The post's `comments` counter changes in the transaction that
// changes a comment: a comment weighs 1 plus its active replies (its thread), a reply 1 while its parent is active.

type Caller = Pick<AuthContext, 'userId'>;
type Posts = ReturnType<typeof createPostsService>;
const noSuchComment = () => new NotFoundError('No such comment');

export function commentView(comment: CommentRecord, replies: number) {
  return {
    id: comment.id,
    postId: comment.postId,
    parentId: comment.parentId,
    author: { id: comment.authorId, name: comment.author.name, handle: comment.author.handle },
    text: comment.text,
    mentions: comment.mentions,
    replies,
    createdAt: iso(comment.createdAt),
    updatedAt: iso(comment.updatedAt),
  };
}

/** What a comment adds to its post's `comments` counter while it is active (read in the transaction that changes it). */
export async function threadWeight(tx: Transaction, comment: CommentRecord): Promise<number> {
  if (comment.parentId === null) return 1 + (await repo.replyCount(comment.id, tx));
  return (await repo.comment(comment.parentId, tx))?.status === 'ACTIVE' ? 1 : 0;
}

export function createCommentsService(posts: Posts, now: () => number = Date.now) {
  /** Comments the viewer meets (authors active, no block either way), with their reply counts. */
  async function shown(viewer: Caller, comments: CommentRecord[]) {
    const authors = [...new Set(comments.map((c) => c.authorId).filter((a) => a !== viewer.userId))];
    const [active, blocked, blockers] = await Promise.all([activePeople(authors), blockListOf(viewer.userId), blockersOf(viewer.userId, authors)]);
    const visible = comments.filter((c) => c.authorId === viewer.userId || (active.has(c.authorId) && !blocked.has(c.authorId) && !blockers.has(c.authorId)));
    const replies = await Promise.all(visible.map((c) => (c.parentId === null ? repo.replyCount(c.id) : 0)));
    return visible.map((c, i) => commentView(c, replies[i]));
  }

  /** An active comment (of an active thread) on a post the viewer sees, by someone neither of them blocks (404 otherwise). */
  async function visibleComment(viewer: Caller, id: string): Promise<CommentRecord> {
    const comment = await repo.comment(id);
    if (!comment || comment.status !== 'ACTIVE') throw noSuchComment();
    if (comment.parentId !== null && (await repo.comment(comment.parentId))?.status !== 'ACTIVE') throw noSuchComment();
    await posts.visiblePost(viewer, comment.postId).catch(() => {
      throw noSuchComment();
    });
    if (comment.authorId !== viewer.userId) {
      const [blocked, active] = await Promise.all([eitherBlocks(viewer.userId, comment.authorId), activePeople([comment.authorId])]);
      if (blocked || !active.has(comment.authorId)) throw noSuchComment();
    }
    return comment;
  }

  async function one(viewer: Caller, id: string) {
    const [view] = await shown(viewer, [await visibleComment(viewer, id)]);
    return view;
  }

  return {
    /** Comments on a post the caller sees, or replies to a comment (a reply to a reply joins its thread). */
    async create(caller: Caller, postId: string, body: z.output<typeof CommentBodySchema>, idempotencyKey?: string) {
      const post = await posts.visiblePost(caller, postId);
      const parent = body.parentId ? await visibleComment(caller, body.parentId) : undefined;
      if (parent && parent.postId !== postId) throw noSuchComment();
      const [account, profile, mentions] = await Promise.all([accounts.get(caller.userId), repo.profile(caller.userId), mentionsOf(body.text)]);
      const t = now();
      const comment: CommentRecord = {
        id: idempotencyKey ? stableId({ scope: 'social.comment', caller: caller.userId, key: idempotencyKey, prefix: 'c_' }) : repo.newCommentId(),
        postId,
        postAuthorId: post.authorId,
        parentId: parent ? (parent.parentId ?? parent.id) : null,
        replyTo: parent ? { commentId: parent.id, authorId: parent.authorId } : null,
        authorId: caller.userId,
        author: { name: account?.name ?? 'User', handle: profile?.handle ?? null },
        text: body.text,
        mentions,
        status: 'ACTIVE',
        createdAt: t,
        updatedAt: t,
      };
      try {
        await inTransaction(async (tx) => {
          // Both read again in the transaction: a post or thread deleted meanwhile takes no comment.
          const [current, thread] = await Promise.all([repo.post(postId, tx), comment.parentId ? repo.comment(comment.parentId, tx) : undefined]);
          if (current?.status !== 'ACTIVE') throw new NotFoundError('No such post');
          if (comment.parentId && thread?.status !== 'ACTIVE') throw noSuchComment();
          repo.txCreateComment(tx, comment);
          POST_COUNTS.txAdd(tx, repo.postRef(postId), { comments: 1 }, caller.userId);
        });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const stored = await repo.comment(comment.id);
        if (!stored || stored.status !== 'ACTIVE' || stored.postId !== postId || stored.text !== comment.text || stored.parentId !== comment.parentId)
          throw new UnprocessableError('This Idempotency-Key commented before, otherwise').withCode('IDEMPOTENCY_KEY_REUSED');
        return one(caller, comment.id);
      }
      return commentView(comment, 0);
    },

    get: one,

    /** A post's top-level comments, newest first, each with its reply count. */
    async ofPost(viewer: Caller, postId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await posts.visiblePost(viewer, postId);
      const page = await repo.commentsPage(postId, { ...request, query: `social:comments:${postId}`, caller: viewer.userId });
      return { items: await shown(viewer, page.items), nextCursor: page.nextCursor };
    },

    /** A comment's replies, oldest first. */
    async replies(viewer: Caller, id: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      const comment = await visibleComment(viewer, id);
      if (comment.parentId !== null) throw new UnprocessableError('Replies have no replies: read the thread of its parent').withCode('SOCIAL_NOT_A_THREAD');
      const page = await repo.repliesPage(id, { ...request, query: `social:replies:${id}`, caller: viewer.userId });
      return { items: await shown(viewer, page.items), nextCursor: page.nextCursor };
    },

    async update(caller: Caller, id: string, patch: z.output<typeof CommentPatchSchema>) {
      await visibleComment(caller, id);
      const mentions = await mentionsOf(patch.text);
      await inTransaction(async (tx) => {
        const comment = await repo.comment(id, tx);
        if (comment?.status !== 'ACTIVE') throw noSuchComment();
        if (comment.authorId !== caller.userId) throw new ForbiddenError('Only its author changes a comment').withCode('SOCIAL_NOT_AUTHOR');
        repo.txUpdateComment(tx, id, { text: patch.text, mentions, updatedAt: now() });
      });
      return one(caller, id);
    },

    /**
     * Deletes a comment (its author, or the post's author): its thread leaves the post's count with it. Neither needs
     * to see the other: a post's author deletes the comment of someone they blocked, and someone who lost sight of a
     * post still deletes their own comment on it.
     */
    async remove(caller: Caller, id: string) {
      await inTransaction(async (tx) => {
        const comment = await repo.comment(id, tx);
        if (comment?.status !== 'ACTIVE') throw noSuchComment();
        if (comment.authorId !== caller.userId && comment.postAuthorId !== caller.userId) {
          // Someone else's comment: 403 only where they see it (404 otherwise, as for a comment that does not exist).
          await visibleComment(caller, id);
          throw new ForbiddenError('Only its author or the post’s author deletes a comment').withCode('SOCIAL_NOT_AUTHOR');
        }
        const weight = await threadWeight(tx, comment);
        repo.txUpdateComment(tx, id, { status: 'DELETED', updatedAt: now() });
        POST_COUNTS.txAdd(tx, repo.postRef(comment.postId), { comments: -weight }, caller.userId);
      });
      return { deleted: true as const };
    },
  };
}
