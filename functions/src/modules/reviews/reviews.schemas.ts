import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { TargetTypeSchema } from '../favorites';
import { REPORT_REASONS, REVIEW_STATUSES } from './reviews.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const stars = z.number().int().min(1).max(5);
const text = z.string().trim().min(1).max(2000);

export const ReviewBodySchema = z
  .object({
    targetType: TargetTypeSchema,
    targetId: DocumentIdSchema,
    stars,
    text: text.optional(),
    photoIds: z.array(DocumentIdSchema).max(5).optional().describe('Your READY image uploads'),
  })
  .meta({ id: 'ReviewBody' });

export const ReviewPatchSchema = z
  .object({
    stars: stars.optional(),
    text: text.nullable().optional().describe('null removes the text'),
    photoIds: z.array(DocumentIdSchema).max(5).optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'ReviewPatch' });

export const ReviewSchema = z
  .object({
    id: z.string(),
    targetType: TargetTypeSchema,
    targetId: z.string(),
    author: z.object({ id: z.string(), name: z.string() }),
    stars: z.number().int(),
    text: z.string().nullable(),
    photos: z.array(z.object({ id: z.string(), url: z.string() })),
    verified: z.boolean().describe('The author is known to have used it (an order, booking or ride). Unverified until those verticals link reviews.'),
    status: z.enum(REVIEW_STATUSES),
    reply: z.object({ text: z.string(), at: IsoTimeSchema }).nullable().describe('The managing partner’s answer'),
    createdAt: IsoTimeSchema,
    editedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'Review' });

export const ReviewPageSchema = z.object({ items: z.array(ReviewSchema), nextCursor: z.string().nullable() }).meta({ id: 'ReviewPage' });
export const TargetQuerySchema = z.object({ targetType: TargetTypeSchema, targetId: DocumentIdSchema });
export const ReviewListQuerySchema = PageQuerySchema.extend(TargetQuerySchema.shape);

export const ReviewSummarySchema = z
  .object({
    targetType: TargetTypeSchema,
    targetId: z.string(),
    average: z.number().describe('Kept on the record by a trigger (0 when unrated)'),
    count: z.number().int(),
    histogram: z
      .object({ 1: z.number().int(), 2: z.number().int(), 3: z.number().int(), 4: z.number().int(), 5: z.number().int() })
      .describe('Visible reviews per number of stars, counted now'),
  })
  .meta({ id: 'ReviewSummary' });

export const ReplyBodySchema = z.object({ text: z.string().trim().min(1).max(1000) }).meta({ id: 'ReviewReplyBody' });
export const ReportBodySchema = z
  .object({ reason: z.enum(REPORT_REASONS), note: z.string().trim().min(1).max(500).optional() })
  .meta({ id: 'ReviewReportBody' });

export const ReportSchema = z
  .object({
    id: z.string(),
    reviewId: z.string(),
    reportedBy: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    status: z.enum(['OPEN', 'RESOLVED']),
    resolution: z.enum(['HIDE_REVIEW', 'DISMISS']).nullable(),
    createdAt: IsoTimeSchema,
    resolvedAt: IsoTimeSchema.nullable(),
    review: ReviewSchema.nullable().describe('null: deleted by its author since'),
  })
  .meta({ id: 'ReviewReport' });

export const ResolveBodySchema = z
  .object({ action: z.enum(['HIDE_REVIEW', 'DISMISS']).describe('HIDE_REVIEW hides the review (it leaves the figures) and closes every open report of it') })
  .meta({ id: 'ReviewReportResolution' });
export const ReportQueueQuerySchema = PageQuerySchema.extend({ status: z.enum(['OPEN', 'RESOLVED']).default('OPEN') });
