import { z } from 'zod';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { AUDIO_TYPES, IMAGE_TYPES, MEDIA_KINDS, MEDIA_STATUSES, VIDEO_TYPES } from './media.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const MediaItemSchema = z
  .object({
    id: z.string(),
    objectKey: z.string().describe('Storage key of the object'),
    publicUrl: z.string().describe('GET it for the exact bytes (local storage: served by this API; Cloud Storage: a download-token URL)'),
    mimeType: z.enum([...AUDIO_TYPES, ...IMAGE_TYPES, ...VIDEO_TYPES]),
    sizeBytes: z.number().int(),
    kind: z
      .enum(MEDIA_KINDS)
      .describe(
        'AUDIO for every accepted audio type (the audio upload routes); IMAGE for POST /upload/image; VIDEO for POST /upload/video and presigned videos',
      ),
    status: z.enum(MEDIA_STATUSES).describe('READY after a successful upload; PENDING while a presigned upload is awaited; FAILED when its bytes were refused'),
  })
  .meta({ id: 'MediaItem' });

const binary = (description: string) => z.string().meta({ format: 'binary' }).describe(description);

export const SingleUploadFormSchema = z
  .object({ file: binary(`One audio file: ${AUDIO_TYPES.join(', ')}; at most 15 MB. The bytes must be of the declared type.`) })
  .meta({ id: 'SingleUploadForm' });

export const ImageUploadFormSchema = z
  .object({ file: binary(`One image: ${IMAGE_TYPES.join(', ')}; at most 15 MB. The bytes must be of the declared type.`) })
  .meta({ id: 'ImageUploadForm' });

export const VideoUploadFormSchema = z
  .object({
    file: binary(
      `One video: ${VIDEO_TYPES.join(', ')}; at most MEDIA_MAX_FILE_BYTES (15 MB) here, larger ones (up to MEDIA_MAX_VIDEO_BYTES, 100 MB) through POST /upload/presign. The bytes must be of the declared type.`,
    ),
  })
  .meta({ id: 'VideoUploadForm' });

export const MultipleUploadFormSchema = z
  .object({ files: z.array(binary('Audio file')).max(10).describe('Repeated field `files`, at most MEDIA_MAX_FILES (10)') })
  .meta({ id: 'MultipleUploadForm' });

export const PresignBodySchema = z
  .object({
    contentType: z
      .string()
      .min(1)
      .max(100)
      .describe(`Must be one of ${[...AUDIO_TYPES, ...VIDEO_TYPES].join(', ')} (a video gives a VIDEO item)`),
    filename: z.string().trim().min(1).max(200).optional(),
    sizeBytes: z
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024)
      .optional()
      .describe(
        'Announced size (413 when over the limit of its kind: MEDIA_MAX_FILE_BYTES, or MEDIA_MAX_VIDEO_BYTES for a video); the real size is checked on completion',
      ),
  })
  .meta({ id: 'PresignBody' });

export const PresignResponseSchema = z
  .object({
    media: MediaItemSchema.describe('The item, PENDING until completed'),
    upload: z.object({
      method: z.literal('PUT'),
      url: z.string().describe('Where to PUT the bytes (local storage: this API; Cloud Storage: a V4 signed URL)'),
      headers: z
        .record(z.string(), z.string())
        .describe(
          'Headers the PUT must carry exactly as given (Cloud Storage: part of the signature: content type, x-goog-content-length-range, x-goog-if-generation-match: 0)',
        ),
      maxBytes: z.number().int(),
      expiresAt: IsoTimeSchema,
    }),
    completeUrl: z.string().describe('POST here (bearer token) once uploaded: the bytes are checked and the item becomes READY'),
  })
  .meta({ id: 'PresignResponse' });

export const ReceivedSchema = z.object({ received: z.literal(true), sizeBytes: z.number().int() }).meta({ id: 'PresignedUploadReceived' });
export const MediaIdParamsSchema = IdParamsSchema;
export const UploadTokenQuerySchema = z.object({ token: z.string().min(1).max(200) });
export const MediaFileParamsSchema = z.object({ ownerId: DocumentIdSchema, name: z.string().regex(/^[A-Za-z0-9]+\.[a-z0-9]+$/) });
export const MediaListQuerySchema = z.object({
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional()
    .describe('Only items with these exact bytes (lets an uploader skip what it already sent)'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
