import { defineReportQueue, OPEN, type Report, type ReportLayout } from '../../platform/kits/moderation/moderation';
import { REPORT_OUTCOMES, REVIEW_REPORTS, reportId, type ReportOutcome, type ReportRecord } from './reviews.model';

// Reported reviews: the moderation kit's queue over `review_reports`, whose documents keep the fields and ids they
// had before the kit (`{reviewId}_{userId}`; status OPEN or RESOLVED, the outcome in `resolution`), so reports
// filed earlier still count as the first report of their reporter. Oldest first: the moderators' queue.

export type ReviewReportDetail = Pick<ReportRecord, 'reason' | 'note'>;
export type ReviewReport = Report<ReviewReportDetail, ReportOutcome>;

const layout: ReportLayout<ReviewReportDetail, ReportOutcome> = {
  targetField: 'reviewId',
  statusOf: (outcome) => (outcome === null ? OPEN : 'RESOLVED'),
  toDocument: (r): ReportRecord => ({
    reviewId: r.targetId,
    userId: r.reporterId,
    reason: r.detail.reason,
    note: r.detail.note,
    status: r.resolution ? 'RESOLVED' : 'OPEN',
    resolution: r.resolution?.outcome ?? null,
    resolvedBy: r.resolution?.by ?? null,
    createdAt: r.createdAt,
    resolvedAt: r.resolution?.at ?? null,
  }),
  fromDocument: (id, d) => ({
    id,
    targetId: d.reviewId,
    reporterId: d.userId,
    createdAt: d.createdAt,
    resolution: d.status !== OPEN && d.resolution ? { outcome: d.resolution, by: d.resolvedBy, at: d.resolvedAt, note: null } : null,
    detail: { reason: d.reason, note: d.note ?? null },
  }),
};

export const reviewReports = defineReportQueue<ReviewReportDetail, ReportOutcome>({
  name: 'reviews:reports',
  collection: REVIEW_REPORTS,
  outcomes: REPORT_OUTCOMES,
  permission: 'moderation',
  order: 'asc',
  layout,
  reportId: (reviewId, userId) => reportId(reviewId, userId),
  resolvedCode: 'REVIEW_REPORT_RESOLVED',
});
