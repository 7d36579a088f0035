import type { RateLimitRule } from '../../platform/core/ratelimit/rate-limit';
import type { TargetType } from '../favorites';

// `reviews/{targetType}_{targetId}_{userId}`: one review per user and record (the id enforces it). API only.
// `review_reports/{reviewId}_{userId}`: a user's report of a review, for the administrators' queue.
// `review_hides/{reviewId}`: a moderator hid the review of this author on this record. It outlives the review, so
// a review the author deletes and posts again is created HIDDEN (the hide sticks to the author and the record).
export const REVIEWS = 'reviews';
export const REVIEW_REPORTS = 'review_reports';
export const REVIEW_HIDES = 'review_hides';

/**
 * Per-user limits (scopes of RATE_LIMITS): one review per record anyway, so 20 an hour is far above honest use
 * (reviewing a day out) and stops a script rating many records; reports likewise feed the moderators' queue.
 */
export const REVIEW_RATE_LIMITS = {
  create: { scope: 'review-create', limit: 20, windowSec: 3600, per: 'user' },
  report: { scope: 'review-report', limit: 20, windowSec: 3600, per: 'user' },
} satisfies Record<string, RateLimitRule>;

export interface HideRecord {
  reviewId: string;
  hiddenBy: string;
  /** The report whose resolution hid it. */
  reportId: string;
  hiddenAt: number;
}
export const REVIEW_STATUSES = ['VISIBLE', 'HIDDEN'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REPORT_REASONS = ['SPAM', 'OFFENSIVE', 'FAKE', 'OFF_TOPIC', 'OTHER'] as const;
/** HIDE_REVIEW hides the review and closes every open report of it; DISMISS closes one report. */
export const REPORT_OUTCOMES = ['HIDE_REVIEW', 'DISMISS'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export interface ReviewRecord {
  id: string;
  targetType: TargetType;
  targetId: string;
  userId: string;
  authorName: string;
  stars: number;
  text: string | null;
  photos: Array<{ id: string; url: string }>;
  /** True once the user is known to have used the record (an order, booking or ride); no such link exists yet. */
  verified: boolean;
  status: ReviewStatus;
  reply: { text: string; by: string; at: number } | null;
  createdAt: number;
  updatedAt: number;
  editedAt: number | null;
}

/** A stored report (`review_reports/{reviewId}_{userId}`), through the moderation kit (reviews.reports.ts). */
export interface ReportRecord {
  reviewId: string;
  userId: string;
  reason: (typeof REPORT_REASONS)[number];
  note: string | null;
  status: 'OPEN' | 'RESOLVED';
  resolution: ReportOutcome | null;
  resolvedBy: string | null;
  createdAt: number;
  resolvedAt: number | null;
}

export const reviewId = (type: TargetType, targetId: string, userId: string) => `${type}_${targetId}_${userId}`;
export const reportId = (reviewId: string, userId: string) => `${reviewId}_${userId}`;

/** The figures kept on a record: the average to two decimals (0 when unrated). */
export function ratingFigures(average: number | null, count: number): { average: number; count: number } {
  return { average: count === 0 || average === null ? 0 : Math.round(average * 100) / 100, count };
}
