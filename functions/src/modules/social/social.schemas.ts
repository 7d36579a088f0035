import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { writtenText } from '../../platform/kits/text/text.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { MEDIA_KINDS } from '../media';
import { BIO_MAX, HANDLE_PATTERN, POST_IMAGES_MAX, POST_TEXT_MAX, POST_VISIBILITIES } from './social.model';

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
      .describe(`Your READY uploads (POST /media): up to ${POST_IMAGES_MAX} images, or one audio clip`),
    location: LocationSchema.nullable().optional(),
    visibility: z.enum(POST_VISIBILITIES).default('PUBLIC').describe('FOLLOWERS: only your followers (and you) see it'),
  })
  .refine((b) => b.text !== undefined || (b.mediaIds?.length ?? 0) > 0, { message: 'a post needs text or media' })
  .meta({ id: 'SocialPostBody' });

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
    type: z.literal('POST'),
    author: z.object({ id: z.string(), name: z.string(), handle: z.string().nullable() }).describe('As they were when posting'),
    text: z.string().describe('Plain text, as written'),
    media: z.array(z.object({ id: z.string(), kind: z.enum(MEDIA_KINDS), mimeType: z.string(), url: z.string() })),
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
