import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { writtenText } from '../../platform/kits/text/text.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { MEDIA_KINDS } from '../media';
import {
  BIO_MAX,
  COMMENT_TEXT_MAX,
  HANDLE_PATTERN,
  POST_IMAGES_MAX,
  POST_TEXT_MAX,
  POST_TYPES,
  POST_VISIBILITIES,
  REEL_SECONDS_MAX,
  REPORT_OUTCOMES,
  REPORT_REASONS,
} from './social.model';

const LocationSchema = LatLngBodySchema.extend({ name: writtenText(120).nullable().optional().describe('A place name shown with the post') });

export const PostBodySchema = z
  .object({
    text: writtenText(POST_TEXT_MAX)
      .optional()
      .describe(`Up to ${POST_TEXT_MAX} characters (code points). #hashtags and @handles are read from it; it is returned as plain text, never HTML.`),
    mediaIds: z
      .array(DocumentIdSchema)
      .max(POST_IMAGES_MAX)
      .optional()
      .describe(`Your READY uploads: up to ${POST_IMAGES_MAX} images, or one video or audio clip (a short video for the reels tab: POST /social/reels)`),
    location: LocationSchema.nullable().optional(),
    visibility: z.enum(POST_VISIBILITIES).default('PUBLIC').describe('FOLLOWERS: only your followers (and you) see it'),
  })
  .refine((b) => b.text !== undefined || (b.mediaIds?.length ?? 0) > 0, { message: 'a post needs text or media' })
  .meta({ id: 'SocialPostBody' });

export const ReelBodySchema = z
  .object({
    videoMediaId: DocumentIdSchema.describe('One of your READY videos (POST /upload/video, or a presigned upload)'),
    coverMediaId: DocumentIdSchema.optional().describe('One of your READY images, shown before the video plays'),
    durationSec: z.number().int().min(1).max(REEL_SECONDS_MAX).describe(`The video's length, 1 to ${REEL_SECONDS_MAX} seconds`),
    caption: writtenText(POST_TEXT_MAX).optional().describe('#hashtags and @handles are read from it, as from a post'),
    location: LocationSchema.nullable().optional(),
    visibility: z.enum(POST_VISIBILITIES).default('PUBLIC'),
  })
  .meta({ id: 'SocialReelBody' });

export const ReelsFeedQuerySchema = PageQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(30).default(10) });

export const PostPatchSchema = z
  .object({
    text: writtenText(POST_TEXT_MAX).optional(),
    location: LocationSchema.nullable().optional().describe('null removes it'),
    visibility: z.enum(POST_VISIBILITIES).optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'SocialPostPatch' });

export const CountsSchema = z.object({ likes: z.number().int(), comments: z.number().int(), shares: z.number().int(), views: z.number().int() });

export const PostSchema = z
  .object({
    id: z.string(),
    type: z.enum(POST_TYPES).describe('REEL: a short video (`media` holds it, `reel` its length and cover)'),
    author: z.object({ id: z.string(), name: z.string(), handle: z.string().nullable() }).describe('As they were when posting'),
    text: z.string().describe('Plain text, as written'),
    media: z.array(z.object({ id: z.string(), kind: z.enum(MEDIA_KINDS), mimeType: z.string(), url: z.string() })),
    reel: z
      .object({ durationSec: z.number().int(), cover: z.object({ id: z.string(), url: z.string() }).nullable() })
      .nullable()
      .describe('A reel’s length and cover image; null for a post'),
    location: z.object({ lat: z.number(), lng: z.number(), name: z.string().nullable() }).nullable(),
    visibility: z.enum(POST_VISIBILITIES),
    hashtags: z.array(z.string()).describe('Folded: lower case, without diacritics (#PhởHàNội is phohanoi)'),
    mentions: z.array(z.object({ userId: z.string(), handle: z.string() })).describe('The @handles of the text that named someone'),
    counts: CountsSchema,
    likedByMe: z.boolean(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SocialPost' });

export const PostPageSchema = z.object({ items: z.array(PostSchema), nextCursor: z.string().nullable() }).meta({ id: 'SocialPostPage' });

export const FeedQuerySchema = PageQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(50).default(20) });

export const ProfileBodySchema = z
  .object({
    handle: z
      .string()
      .trim()
      .toLowerCase()
      .regex(HANDLE_PATTERN, '3 to 30 of a-z, 0-9, _ and ., starting with a letter or digit, not ending with a dot')
      .nullable()
      .optional()
      .describe('Unique; how others @mention you. null gives it up'),
    bio: writtenText(BIO_MAX).nullable().optional(),
    avatarMediaId: DocumentIdSchema.nullable().optional().describe('One of your READY image uploads; null removes it'),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'SocialProfileBody' });

export const ProfileSchema = z
  .object({
    userId: z.string(),
    name: z.string(),
    handle: z.string().nullable(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    counts: z.object({ posts: z.number().int(), followers: z.number().int(), following: z.number().int() }),
    following: z.boolean().describe('You follow them'),
    followsYou: z.boolean(),
  })
  .meta({ id: 'SocialProfile' });

export const FollowResultSchema = z
  .object({ userId: z.string(), following: z.boolean(), followers: z.number().int().describe('Their followers now') })
  .meta({ id: 'SocialFollowResult' });

export const PersonPageSchema = z
  .object({
    items: z.array(z.object({ userId: z.string(), name: z.string(), handle: z.string().nullable(), since: IsoTimeSchema })),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'SocialPersonPage' });

export const LikeResultSchema = z
  .object({ postId: z.string(), liked: z.boolean(), likes: z.number().int().describe('The post’s likes now') })
  .meta({ id: 'SocialLikeResult' });

export const CommentBodySchema = z
  .object({
    text: writtenText(COMMENT_TEXT_MAX).describe(`Up to ${COMMENT_TEXT_MAX} characters (code points); @handles are read from it. Plain text, never HTML.`),
    parentId: DocumentIdSchema.optional().describe('The comment this replies to (a reply to a reply joins its thread: one level)'),
  })
  .meta({ id: 'SocialCommentBody' });

export const CommentPatchSchema = z.object({ text: writtenText(COMMENT_TEXT_MAX) }).meta({ id: 'SocialCommentPatch' });

export const CommentSchema = z
  .object({
    id: z.string(),
    postId: z.string(),
    parentId: z.string().nullable().describe('The thread’s top-level comment; null for a top-level comment'),
    author: z.object({ id: z.string(), name: z.string(), handle: z.string().nullable() }),
    text: z.string().describe('Plain text, as written'),
    mentions: z.array(z.object({ userId: z.string(), handle: z.string() })),
    replies: z.number().int().describe('Active replies (0 for a reply)'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SocialComment' });

export const CommentPageSchema = z.object({ items: z.array(CommentSchema), nextCursor: z.string().nullable() }).meta({ id: 'SocialCommentPage' });

export const MarkResultSchema = z
  .object({
    postId: z.string(),
    saved: z.boolean().optional(),
    shared: z.boolean().optional(),
    shares: z.number().int().optional().describe('The post’s shares now'),
    shareUrl: z.string().optional().describe('The link to send (opens the post in the app)'),
  })
  .meta({ id: 'SocialMarkResult' });

export const ViewsBodySchema = z
  .object({ postIds: z.array(DocumentIdSchema).min(1).max(50).describe('Posts shown on screen (an app batches them); each person counts once per post') })
  .meta({ id: 'SocialViewsBody' });

export const ViewsResultSchema = z
  .object({ counted: z.array(z.string()).describe('Posts this call counted a first view of (others: seen before, or not visible to you)') })
  .meta({ id: 'SocialViewsResult' });

export const HashtagParamsSchema = z.object({
  tag: z.string().min(1).max(60).describe('With or without #, any case and accents: folded as posts fold them (#PhởHàNội is phohanoi)'),
});

export const HashtagSchema = z
  .object({ tag: z.string().describe('Folded'), posts: z.number().int().describe('Active public posts carrying it, counted up to 10,000 (an app shows 10k+)') })
  .meta({ id: 'SocialHashtag' });

export const ReportBodySchema = z
  .object({
    reason: z.enum(REPORT_REASONS),
    note: writtenText(500).optional().describe('What the moderators should know'),
  })
  .meta({ id: 'SocialReportBody' });

export const ReportedSchema = z.object({ reported: z.literal(true) }).meta({ id: 'SocialReported' });

export const ReportQueueQuerySchema = PageQuerySchema.extend({ status: z.enum(['OPEN', ...REPORT_OUTCOMES]).default('OPEN') });

export const SocialReportSchema = z
  .object({
    id: z.string(),
    targetType: z.enum(['POST', 'COMMENT']),
    targetId: z.string(),
    reportedBy: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    excerpt: z.string().describe('The reported text as it was when reported (first 280 characters)'),
    authorId: z.string(),
    status: z.enum(['OPEN', ...REPORT_OUTCOMES]),
    resolvedBy: z.string().nullable(),
    resolvedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'SocialReport' });

export const ReportPageSchema = z.object({ items: z.array(SocialReportSchema), nextCursor: z.string().nullable() }).meta({ id: 'SocialReportPage' });

export const ResolveBodySchema = z.object({ action: z.enum(REPORT_OUTCOMES), note: writtenText(500).optional() }).meta({ id: 'SocialReportResolution' });

export const ModerationResultSchema = z
  .object({ targetType: z.enum(['POST', 'COMMENT']), targetId: z.string(), status: z.enum(['ACTIVE', 'HIDDEN', 'DELETED']), resolved: z.number().int() })
  .meta({ id: 'SocialModerationResult' });
