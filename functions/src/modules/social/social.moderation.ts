import type { Transaction } from 'firebase-admin/firestore';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { ConflictError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { db } from '../../platform/core/firebase/firebase';
import { assertModerator, defineReportQueue, OPEN, type Moderator, type Report } from '../../platform/kits/moderation/moderation';
import { defineMachine, transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { isoOrNull, iso } from '../../platform/kits/time/time';
import { threadWeight, type createCommentsService } from './social.comments';
import { SOCIAL_COMMENTS, SOCIAL_POSTS, SOCIAL_REPORTS } from './social.collections';
import {
  POST_COUNTS,
  POST_STATUSES,
  REPORT_OUTCOMES,
  type CommentRecord,
  type PostRecord,
  type PostStatus,
  type ReportOutcome,
  type ReportReason,
  type ReportTargetType,
} from './social.model';
import type { createPostsService } from './social.posts';
import { socialRepo as repo } from './social.repo';

// Moderation of posts and comments: anyone reports what they see (one report per person and target), reports wait
// in a queue for administrators with the `moderation` permission, and HIDE hides the target (a post stays visible to
// its author alone and leaves every feed: the post trigger) and closes every open report of it. Administrators also hide and
// restore directly. Hide and restore are moves of a state machine, each recorded in the target's `events`.

type Caller = Pick<AuthContext, 'userId'>;
type Posts = ReturnType<typeof createPostsService>;
type Comments = ReturnType<typeof createCommentsService>;

export interface SocialReportDetail {
  targetType: ReportTargetType;
  authorId: string;
  reason: ReportReason;
  note: string | null;
  /** The reported text when it was reported (moderators judge what was seen, also after an edit). */
  excerpt: string;
}

export const socialReports = defineReportQueue<SocialReportDetail, ReportOutcome>({
  name: 'social:reports',
  collection: SOCIAL_REPORTS,
  outcomes: REPORT_OUTCOMES,
  permission: 'moderation',
  order: 'asc',
  resolvedCode: 'SOCIAL_REPORT_RESOLVED',
});

/** Posts and comments alike: ACTIVE ⇄ HIDDEN by moderators (deleting stays its author's, outside moderation). */
export const CONTENT_MACHINE = defineMachine({
  entity: 'post or comment',
  states: POST_STATUSES,
  moves: {
    hide: { from: 'ACTIVE', to: 'HIDDEN', by: 'MODERATOR' },
    restore: { from: 'HIDDEN', to: 'ACTIVE', by: 'MODERATOR' },
  },
  codes: { transition: 'SOCIAL_STATUS_CONFLICT', actor: 'PERMISSION_REQUIRED' },
});
type ContentAction = 'hide' | 'restore';

const postStore = (id: string): TransitionStore<PostRecord, PostStatus, ContentAction> => ({
  load: (tx) => repo.post(id, tx),
  save: (tx, next) => repo.txUpdatePost(tx, id, { status: next.status, updatedAt: next.updatedAt }),
  ref: () => db().collection(SOCIAL_POSTS).doc(id),
});

// A comment's thread weighs on its post's count while it is active: hiding takes it away, restoring gives it back.
const commentStore = (id: string): TransitionStore<CommentRecord, PostStatus, ContentAction> => {
  let weight = 0;
  return {
    async load(tx) {
      const comment = await repo.comment(id, tx);
      if (comment) weight = await threadWeight(tx, { ...comment, status: 'ACTIVE' });
      return comment;
    },
    save: (tx, next) => repo.txUpdateComment(tx, id, { status: next.status, updatedAt: next.updatedAt }),
    ref: () => db().collection(SOCIAL_COMMENTS).doc(id),
    alongside(tx, next) {
      POST_COUNTS.txAdd(tx, repo.postRef(next.postId), { comments: next.status === 'HIDDEN' ? -weight : weight });
    },
  };
};

/** One move of a post or comment, in the caller's transaction when given; a repeat changes nothing. */
function moveContent(target: { type: ReportTargetType; id: string }, action: ContentAction, by: Caller, at: number, tx?: Transaction) {
  const request = {
    action,
    by: by.userId,
    rolesOf: () => ['MODERATOR' as const],
    apply: <T extends { status: PostStatus; updatedAt: number }>(entity: T, to: PostStatus) => ({ ...entity, status: to, updatedAt: at }),
    now: at,
    missing: () => new NotFoundError(`No such ${target.type.toLowerCase()}`),
    visible: (entity: { status: PostStatus }) => entity.status !== 'DELETED',
    tolerant: 'target' as const,
  };
  return target.type === 'POST'
    ? transition(CONTENT_MACHINE, postStore(target.id), request, tx)
    : transition(CONTENT_MACHINE, commentStore(target.id), request, tx);
}

const isResolvedAlready = (err: unknown) => err instanceof ConflictError && err.code === 'SOCIAL_REPORT_RESOLVED';
const excerptOf = (text: string) => [...text].slice(0, 280).join('');

export function createModerationService(posts: Posts, comments: Comments, now: () => number = Date.now) {
  async function file(
    caller: Caller,
    target: { type: ReportTargetType; id: string; authorId: string; text: string },
    body: { reason: ReportReason; note?: string },
  ) {
    if (target.authorId === caller.userId) throw new UnprocessableError('You cannot report your own post or comment').withCode('SOCIAL_OWN_CONTENT');
    const { created } = await socialReports.file({
      targetId: target.id,
      reporterId: caller.userId,
      detail: { targetType: target.type, authorId: target.authorId, reason: body.reason, note: body.note ?? null, excerpt: excerptOf(target.text) },
    });
    return { created };
  }

  /** Hides or restores a target; hiding closes its open reports (HIDE) with it. */
  async function moderate(caller: Moderator, target: { type: ReportTargetType; id: string }, action: ContentAction) {
    assertModerator(caller, 'moderation');
    if (action === 'hide') {
      // Through its open reports (each closed with HIDE); one dismissed meanwhile (409) is passed over for the next.
      for (let tries = 0; tries < 3; tries += 1) {
        const open = await db()
          .collection(SOCIAL_REPORTS)
          .where('targetId', '==', target.id)
          .where('detail.targetType', '==', target.type)
          .where('status', '==', OPEN)
          .limit(1)
          .get();
        if (open.empty) break;
        const outcome = await resolve(caller, open.docs[0].id, 'HIDE').catch((err: unknown) => (isResolvedAlready(err) ? undefined : Promise.reject(err)));
        if (outcome) return outcome;
      }
    }
    const moved = await moveContent(target, action, caller, now());
    return { targetType: target.type, targetId: target.id, status: moved.after.status, resolved: 0 };
  }

  async function resolve(caller: Moderator, id: string, action: ReportOutcome, note?: string) {
    const { report, closed, changed } = await socialReports.resolve(caller, id, action, {
      note: note ?? null,
      wholeTarget: action === 'HIDE',
      alongside: async (tx, reported, _closing, resolution) => {
        if (action !== 'HIDE') return;
        // A target its author deleted meanwhile has nothing left to hide: the reports close all the same.
        const type = reported.detail.targetType;
        const current = type === 'POST' ? await repo.post(reported.targetId, tx) : await repo.comment(reported.targetId, tx);
        if (current && current.status !== 'DELETED') await moveContent({ type, id: reported.targetId }, 'hide', caller, resolution.at, tx);
      },
    });
    const type = report.detail.targetType;
    const current = type === 'POST' ? await repo.post(report.targetId) : await repo.comment(report.targetId);
    return { targetType: type, targetId: report.targetId, status: current?.status ?? ('DELETED' as const), resolved: changed ? closed.length : 0 };
  }

  const reportView = (r: Report<SocialReportDetail, ReportOutcome>) => ({
    id: r.id,
    targetType: r.detail.targetType,
    targetId: r.targetId,
    reportedBy: r.reporterId,
    reason: r.detail.reason,
    note: r.detail.note,
    excerpt: r.detail.excerpt,
    authorId: r.detail.authorId,
    status: r.resolution?.outcome ?? ('OPEN' as const),
    resolvedBy: r.resolution?.by ?? null,
    resolvedAt: isoOrNull(r.resolution?.at ?? null),
    createdAt: iso(r.createdAt),
  });

  return {
    /** One report per person and post or comment they see; a repeat answers the first (200). */
    async report(caller: Caller, target: { type: ReportTargetType; id: string }, body: { reason: ReportReason; note?: string }) {
      if (target.type === 'POST') {
        const post = await posts.visiblePost(caller, target.id);
        return file(caller, { type: 'POST', id: post.id, authorId: post.authorId, text: post.text }, body);
      }
      const comment = await comments.get(caller, target.id);
      return file(caller, { type: 'COMMENT', id: comment.id, authorId: comment.author.id, text: comment.text }, body);
    },
    async queue(caller: Moderator, query: { status: 'OPEN' | ReportOutcome; limit: number; cursor?: string }) {
      const page = await socialReports.list(caller, query);
      return { items: page.items.map(reportView), nextCursor: page.nextCursor };
    },
    resolve,
    moderate,
  };
}
