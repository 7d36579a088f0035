import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { assertPermission } from '../../platform/core/auth/guard';
import { holdsPermission } from '../../platform/core/auth/roles';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { targetSource, type TargetType } from '../favorites';
import { attachableImage } from '../media';
import { accounts } from '../users';
import { ratingFigures, reviewId, type ReportOutcome, type ReportRecord, type ReviewRecord } from './reviews.model';
import { reviewReports } from './reviews.reports';
import { reviewsRepo } from './reviews.repo';
import type { ReportBodySchema, ReviewBodySchema, ReviewPatchSchema } from './reviews.schemas';

type Caller = Pick<AuthContext, 'userId' | 'roles' | 'permissions'>;
const isAdmin = (caller: Caller) => caller.roles.includes('ADMIN');
/** Hidden reviews are for moderators: administrators holding `moderation`. */
const isModerator = (caller: Caller) => isAdmin(caller) && holdsPermission(caller.permissions, 'moderation');
const notFound = () => new NotFoundError('No such review');

export function reviewView(r: ReviewRecord) {
  return {
    id: r.id,
    targetType: r.targetType,
    targetId: r.targetId,
    author: { id: r.userId, name: r.authorName },
    stars: r.stars,
    text: r.text,
    photos: r.photos,
    verified: r.verified,
    status: r.status,
    reply: r.reply ? { text: r.reply.text, at: iso(r.reply.at) } : null,
    createdAt: iso(r.createdAt),
    editedAt: isoOrNull(r.editedAt),
  };
}

async function photosOf(userId: string, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => attachableImage(userId, id)));
  const invalid = unique.filter((_, i) => !found[i]);
  if (invalid.length > 0) throw new UnprocessableError('Photos must be your READY image uploads', { photoIds: invalid }).withCode('REVIEW_PHOTO_INVALID');
  return found as Array<{ id: string; url: string }>;
}

export function createReviewsService(now: () => number = Date.now) {
  /** The review as the caller may see it: visible ones to all, hidden ones to their author and administrators. */
  async function visibleTo(id: string, caller: Caller): Promise<ReviewRecord> {
    const review = await reviewsRepo.get(id);
    if (!review || (review.status !== 'VISIBLE' && review.userId !== caller.userId && !isModerator(caller))) throw notFound();
    return review;
  }

  return {
    async create(caller: Caller, body: z.output<typeof ReviewBodySchema>) {
      const source = targetSource(body.targetType);
      const [[target], managed, account, photos] = await Promise.all([
        source.activeByIds([body.targetId]),
        source.isManagedBy(body.targetId, caller),
        accounts.get(caller.userId),
        photosOf(caller.userId, body.photoIds ?? []),
      ]);
      if (!target) throw new NotFoundError(`No such ${body.targetType.toLowerCase().replace('_', ' ')}`);
      if (managed) throw new ForbiddenError('You manage this record: you cannot review it').withCode('REVIEW_OWN_TARGET');
      const t = now();
      const record: ReviewRecord = {
        id: reviewId(body.targetType, body.targetId, caller.userId),
        targetType: body.targetType,
        targetId: body.targetId,
        userId: caller.userId,
        authorName: account?.name ?? 'User',
        stars: body.stars,
        text: body.text ?? null,
        photos,
        verified: false,
        status: 'VISIBLE',
        reply: null,
        createdAt: t,
        updatedAt: t,
        editedAt: null,
      };
      const created = await inTransaction(async (tx) => {
        const [existing, hide] = await Promise.all([reviewsRepo.get(record.id, tx), reviewsRepo.hide(record.id, tx)]);
        if (existing) throw new ConflictError('You reviewed this already: edit your review instead', { reviewId: record.id }).withCode('REVIEW_EXISTS');
        // A moderator hid this author's earlier review of this record: deleting it and posting again does not undo that.
        const stored: ReviewRecord = hide ? { ...record, status: 'HIDDEN' } : record;
        reviewsRepo.create(tx, stored);
        return stored;
      });
      return reviewView(created);
    },

    get: async (id: string, caller: Caller) => reviewView(await visibleTo(id, caller)),

    async list(query: { targetType: TargetType; targetId: string; limit: number; cursor?: string }, caller: Caller) {
      const page = await reviewsRepo.ofTarget(query.targetType, query.targetId, {
        limit: query.limit,
        cursor: query.cursor,
        query: `reviews:${query.targetType}:${query.targetId}`,
        caller: caller.userId,
      });
      return { items: page.items.map(reviewView), nextCursor: page.nextCursor };
    },

    async mine(caller: Caller, query: { limit: number; cursor?: string }) {
      const page = await reviewsRepo.ofUser(caller.userId, { ...query, query: 'reviews:mine', caller: caller.userId });
      return { items: page.items.map(reviewView), nextCursor: page.nextCursor };
    },

    async summary(type: TargetType, targetId: string) {
      const [[target], histogram] = await Promise.all([targetSource(type).activeByIds([targetId]), reviewsRepo.histogram(type, targetId)]);
      if (!target) throw new NotFoundError('No such record');
      return {
        targetType: type,
        targetId,
        average: target.ratingAvg,
        count: target.ratingCount,
        histogram: { 1: histogram[0], 2: histogram[1], 3: histogram[2], 4: histogram[3], 5: histogram[4] },
      };
    },

    async update(id: string, caller: Caller, patch: z.output<typeof ReviewPatchSchema>) {
      const photos = patch.photoIds ? await photosOf(caller.userId, patch.photoIds) : undefined;
      const t = now();
      const after = await inTransaction(async (tx) => {
        const review = await reviewsRepo.get(id, tx);
        if (!review || (review.userId !== caller.userId && review.status !== 'VISIBLE')) throw notFound();
        if (review.userId !== caller.userId) throw new ForbiddenError('Only its author edits a review').withCode('REVIEW_NOT_AUTHOR');
        const fields: Partial<ReviewRecord> = { updatedAt: t, editedAt: t };
        if (patch.stars !== undefined) fields.stars = patch.stars;
        if (patch.text !== undefined) fields.text = patch.text;
        if (photos) fields.photos = photos;
        reviewsRepo.update(tx, id, fields);
        return { ...review, ...fields };
      });
      return reviewView(after);
    },

    async remove(id: string, caller: Caller) {
      await inTransaction(async (tx) => {
        const review = await reviewsRepo.get(id, tx);
        if (!review || (review.userId !== caller.userId && review.status !== 'VISIBLE')) throw notFound();
        if (review.userId !== caller.userId)
          throw new ForbiddenError('Only its author deletes a review (administrators hide it)').withCode('REVIEW_NOT_AUTHOR');
        reviewsRepo.remove(tx, id);
      });
      return { deleted: true as const };
    },

    async reply(id: string, caller: AuthContext, text: string) {
      // The admin path (the platform's own records): the permission that manages every record.
      if (isAdmin(caller)) assertPermission(caller, 'catalog.manage');
      const review = await visibleTo(id, caller);
      if (!(await targetSource(review.targetType).isManagedBy(review.targetId, caller)))
        throw new ForbiddenError('Only the managers of the reviewed record reply').withCode('REVIEW_NOT_MANAGER');
      const t = now();
      const after = await inTransaction(async (tx) => {
        const current = await reviewsRepo.get(id, tx);
        if (!current) throw notFound();
        if (current.reply) throw new ConflictError('This review has a reply already').withCode('REVIEW_ALREADY_REPLIED');
        const reply = { text, by: caller.userId, at: t };
        reviewsRepo.update(tx, id, { reply });
        return { ...current, reply };
      });
      return reviewView(after);
    },

    /** One report per reviewer and review: a repeat (also two at once) changes nothing and answers 200. */
    async report(id: string, caller: Caller, body: z.output<typeof ReportBodySchema>, setStatus: (code: number) => void) {
      const review = await visibleTo(id, caller);
      if (review.userId === caller.userId) throw new UnprocessableError('You cannot report your own review').withCode('REVIEW_OWN');
      const { created } = await reviewReports.file({ targetId: id, reporterId: caller.userId, detail: { reason: body.reason, note: body.note ?? null } });
      if (!created) setStatus(200);
      return { reported: true as const };
    },

    async reportQueue(query: { status: ReportRecord['status']; limit: number; cursor?: string }, caller: Caller) {
      const page = await reviewReports.list(caller, query);
      const reviews = await Promise.all(page.items.map((r) => reviewsRepo.get(r.targetId)));
      return {
        items: page.items.map((r, i) => ({
          id: r.id,
          reviewId: r.targetId,
          reportedBy: r.reporterId,
          reason: r.detail.reason,
          note: r.detail.note,
          status: r.resolution ? ('RESOLVED' as const) : ('OPEN' as const),
          resolution: r.resolution?.outcome ?? null,
          createdAt: iso(r.createdAt),
          resolvedAt: isoOrNull(r.resolution?.at ?? null),
          review: reviews[i] ? reviewView(reviews[i]) : null,
        })),
        nextCursor: page.nextCursor,
      };
    },

    /**
     * DISMISS closes this report; HIDE_REVIEW hides the review and closes every open report of it. Again with the
     * action it was resolved with: nothing changes (`resolved: 0`); with the other action: 409 REVIEW_REPORT_RESOLVED.
     */
    async resolve(id: string, caller: Caller, action: ReportOutcome) {
      const hide = action === 'HIDE_REVIEW';
      const { report, closed, changed, effect } = await reviewReports.resolve(caller, id, action, {
        wholeTarget: hide,
        async alongside(tx, reported, _closing, resolution) {
          const review = await reviewsRepo.get(reported.targetId, tx);
          if (!hide) return review?.status ?? null;
          if (review && review.status !== 'HIDDEN') reviewsRepo.update(tx, review.id, { status: 'HIDDEN', updatedAt: resolution.at });
          // Also when the author deleted it first: the next review of theirs on this record is born hidden.
          reviewsRepo.txHide(tx, { reviewId: reported.targetId, hiddenBy: caller.userId, reportId: id, hiddenAt: resolution.at });
          return review ? ('HIDDEN' as const) : null;
        },
      });
      if (!changed) return { resolved: 0, reviewStatus: (await reviewsRepo.get(report.targetId))?.status ?? null };
      return { resolved: closed.length, reviewStatus: effect ?? null };
    },

    /**
     * Recomputes a record's figures from its visible reviews (an aggregate query, not increments): a duplicated or
     * reordered trigger delivery cannot skew them, and the read time keeps a late, older computation from winning.
     */
    async recompute(type: TargetType, targetId: string) {
      const { count, average, readTime } = await reviewsRepo.aggregate(type, targetId);
      const figures = ratingFigures(average, count);
      const applied = await targetSource(type).applyRating(targetId, { ...figures, asOf: readTime });
      return { ...figures, applied };
    },
  };
}
