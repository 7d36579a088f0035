import { z } from 'zod';
import type { AppContext } from '../../platform/core/http/module';
import { streamMultipart } from '../../platform/core/http/multipart';
import { requestBody } from '../../platform/core/http/raw-body';
import { sendFileStream } from '../../platform/core/http/send-file';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { RateLimitRule } from '../../platform/core/ratelimit/rate-limit';
import { DeletedSchema } from '../../platform/core/http/ids';
import { AUDIO_TYPES, IMAGE_TYPES, VIDEO_TYPES } from './media.model';
import {
  ImageUploadFormSchema,
  MediaFileParamsSchema,
  MediaIdParamsSchema,
  MediaItemSchema,
  MediaListQuerySchema,
  MultipleUploadFormSchema,
  PresignBodySchema,
  PresignResponseSchema,
  ReceivedSchema,
  SingleUploadFormSchema,
  UploadTokenQuerySchema,
  VideoUploadFormSchema,
} from './media.schemas';
import { mediaServicesFor } from './media.wiring';

// The public file route's limit is counted per instance: a shared count would add a Firestore write to every image an
// app shows. It slows a client guessing or scraping links down (each instance allows 600 a minute; generous enough
// for many phones behind one carrier's NAT address); a CDN or Cloud Armor in front is the answer to a real flood.
const FILE_DOWNLOADS: RateLimitRule = { scope: 'media-files', limit: 600, windowSec: 60, counted: 'instance' };

// Spec: bearer JWT with USER, ADMIN or PARTNER_* roles.
const UPLOADERS = ['USER', 'ADMIN', 'PARTNER_OWNER', 'PARTNER_STAFF'] as const;
const retryOf = (operation: string, key: string | undefined) => (key === undefined ? undefined : { operation: `upload-${operation}`, key });

export function mediaRoutes({ config }: AppContext): AnyRoute[] {
  const { media } = mediaServicesFor(config);
  const limits = (field: string, maxFiles: number) => ({ fileFields: [field], maxFiles, maxFileBytes: config.MEDIA_MAX_FILE_BYTES });
  const uploadErrors = 'Refusals store nothing: wrong or disguised type → 415; file over the size limit → 413; no file, wrong field or too many files → 400.';
  // The key is claimed before a byte is read: a retry after a lost answer (a timeout, a 503 DEADLINE_EXCEEDED)
  // gets the same items back and its own bytes are never stored; 409 while the first is still streaming.
  // The body is not read before the claim, so its Content-Length stands for it in the request hash.
  const retrySafe =
    " Send an Idempotency-Key to retry safely: the same key with the same file returns the same items (the retry's file is not read or stored); the same key with another file (another Content-Length) is 422 IDEMPOTENCY_KEY_REUSED. Uploads count against UPLOAD_DEADLINE_MS, not REQUEST_DEADLINE_MS.";
  return [
    defineRoute({
      method: 'post',
      path: '/upload/single',
      operationId: 'uploadAudio',
      tag: 'media',
      summary: 'Upload one audio file',
      description: `${uploadErrors}${retrySafe}`,
      auth: UPLOADERS,
      idempotent: true,
      multipart: SingleUploadFormSchema,
      response: { status: 201, description: 'The stored item (READY).', schema: MediaItemSchema },
      handler: async ({ req, auth, idempotencyKey }) =>
        (await media.upload(auth!.userId, (sink) => streamMultipart(req, limits('file', 1), sink), 'AUDIO', retryOf('single', idempotencyKey)))[0],
    }),
    defineRoute({
      method: 'post',
      path: '/upload/image',
      operationId: 'uploadImage',
      tag: 'media',
      summary: 'Upload one image (a chat photo)',
      description: `JPEG, PNG or WebP, kind IMAGE; send it as a chat message with type IMAGE. ${uploadErrors}${retrySafe}`,
      auth: UPLOADERS,
      idempotent: true,
      multipart: ImageUploadFormSchema,
      response: { status: 201, description: 'The stored item (READY).', schema: MediaItemSchema },
      handler: async ({ req, auth, idempotencyKey }) =>
        (await media.upload(auth!.userId, (sink) => streamMultipart(req, limits('file', 1), sink), 'IMAGE', retryOf('image', idempotencyKey)))[0],
    }),
    defineRoute({
      method: 'post',
      path: '/upload/video',
      operationId: 'uploadVideo',
      tag: 'media',
      summary: 'Upload one short video (a reel)',
      description: `MP4, QuickTime or WebM, kind VIDEO, up to MEDIA_MAX_FILE_BYTES (15 MB; Cloud Functions caps a request at 32 MB): larger videos, up to MEDIA_MAX_VIDEO_BYTES (100 MB), go through POST /upload/presign. ${uploadErrors}${retrySafe}`,
      auth: UPLOADERS,
      idempotent: true,
      multipart: VideoUploadFormSchema,
      response: { status: 201, description: 'The stored item (READY).', schema: MediaItemSchema },
      handler: async ({ req, auth, idempotencyKey }) =>
        (
          await media.upload(
            auth!.userId,
            (sink) => streamMultipart(req, { ...limits('file', 1), maxFileBytes: Math.min(config.MEDIA_MAX_FILE_BYTES, config.MEDIA_MAX_VIDEO_BYTES) }, sink),
            'VIDEO',
            retryOf('video', idempotencyKey),
          )
        )[0],
    }),
    defineRoute({
      method: 'post',
      path: '/upload/multiple',
      operationId: 'uploadAudioFiles',
      tag: 'media',
      summary: 'Upload up to MEDIA_MAX_FILES (10) audio files at once',
      description: `${uploadErrors} One refused file refuses the whole request.${retrySafe}`,
      auth: UPLOADERS,
      idempotent: true,
      multipart: MultipleUploadFormSchema,
      response: { status: 201, description: 'One item per file, in order.', schema: z.array(MediaItemSchema) },
      handler: ({ req, auth, idempotencyKey }) =>
        media.upload(auth!.userId, (sink) => streamMultipart(req, limits('files', config.MEDIA_MAX_FILES), sink), 'AUDIO', retryOf('multiple', idempotencyKey)),
    }),
    defineRoute({
      method: 'post',
      path: '/upload/presign',
      operationId: 'presignUpload',
      tag: 'media',
      summary: 'Start a direct upload: get a URL to PUT the bytes to',
      description: `contentType must be one of ${[...AUDIO_TYPES, ...VIDEO_TYPES].join(', ')} (415 otherwise); a video gives a VIDEO item and takes up to MEDIA_MAX_VIDEO_BYTES (100 MB; an announced sizeBytes above its kind's limit is 413). PUT the bytes to upload.url with the given headers before upload.expiresAt, then POST completeUrl.`,
      auth: UPLOADERS,
      errors: [413, 415],
      request: { body: PresignBodySchema },
      response: {
        status: 201,
        description:
          "The PENDING item and where to upload. With Cloud Storage, upload.url is a V4 signed URL of the bucket, not this API: PUT the raw bytes there without a bearer token and with exactly upload.headers (signed: content type, size range, create-only). With local storage (STORAGE_DRIVER=local, or auto outside production without a Storage emulator) it is this API's PUT /upload/presign/{id}/content (putPresignedUploadContent), authorised by the token in the URL. Then POST completeUrl.",
        schema: PresignResponseSchema,
      },
      handler: ({ body, auth }) => media.presign(auth!.userId, body),
    }),
    defineRoute({
      method: 'put',
      path: '/upload/presign/:id/content',
      operationId: 'putPresignedUploadContent',
      tag: 'media',
      summary: 'Receive the bytes of a presigned upload (local storage)',
      description:
        'The upload token in the URL authorises the request; the body is the raw file with the presigned Content-Type, at most upload.maxBytes (413, checked on Content-Length and while streaming). Writable only while the item is PENDING. With Cloud Storage the URL points at Google instead, signed with the content type, a size range and create-only.',
      auth: 'public',
      streamsBody: {
        contentTypes: [...AUDIO_TYPES, ...VIDEO_TYPES],
        description: 'The raw bytes of the file, sent with the Content-Type given to POST /upload/presign (upload.headers), at most upload.maxBytes.',
      },
      errors: [404, 409, 413, 415],
      codes: ['UPLOAD_STATE'],
      request: { params: MediaIdParamsSchema, query: UploadTokenQuerySchema },
      response: { description: 'Stored; now POST the completeUrl.', schema: ReceivedSchema },
      appCheck: false,
      handler: ({ params, query, req }) =>
        media.receive(params.id, query.token, { contentType: req.get('content-type'), contentLength: req.get('content-length') }, requestBody(req)),
    }),
    defineRoute({
      method: 'post',
      path: '/upload/presign/:id/complete',
      operationId: 'completePresignedUpload',
      tag: 'media',
      summary: 'Confirm a presigned upload',
      description:
        "Checks the upload like a direct upload: the size from the object metadata (413 when too large, nothing read), then the bytes are copied to the item's own key and its first bytes sniffed (415 when not the declared type). READY on success; a refusal deletes the objects and marks the item FAILED. Bytes written to the upload URL afterwards never change a READY item. Repeating it on a READY item returns the item; with an Idempotency-Key a retry while the first still runs is 409 instead of a second copy.",
      auth: UPLOADERS,
      idempotent: true,
      errors: [404, 409, 413, 415],
      codes: ['UPLOAD_STATE'],
      request: { params: MediaIdParamsSchema },
      response: { description: 'The READY item.', schema: MediaItemSchema },
      handler: ({ params, auth }) => media.complete(auth!, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/media',
      operationId: 'listMyMedia',
      tag: 'media',
      summary: 'My media items (newest first)',
      auth: UPLOADERS,
      request: { query: MediaListQuerySchema },
      response: { description: 'Items.', schema: z.object({ items: z.array(MediaItemSchema) }) },
      handler: async ({ query, auth }) => ({ items: await media.list(auth!.userId, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/media/:id',
      operationId: 'getMedia',
      tag: 'media',
      summary: 'One media item (owner or administrator)',
      auth: UPLOADERS,
      errors: [404],
      request: { params: MediaIdParamsSchema },
      response: { description: 'The item.', schema: MediaItemSchema },
      handler: ({ params, auth }) => media.get(auth!, params.id),
    }),
    defineRoute({
      method: 'delete',
      path: '/media/:id',
      operationId: 'deleteMedia',
      tag: 'media',
      summary: 'Delete a media item and its object (owner or administrator)',
      auth: UPLOADERS,
      errors: [404],
      request: { params: MediaIdParamsSchema },
      response: { description: 'Deleted.', schema: DeletedSchema },
      handler: ({ params, auth }) => media.remove(auth!, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/media/files/media/:ownerId/:name',
      operationId: 'downloadMediaFile',
      tag: 'media',
      summary: 'The bytes behind a publicUrl (local storage) or a short-lived link',
      description:
        'Public: the token in the URL is the permission. Either the item’s download token (its publicUrl; local storage only, Cloud Storage serves its own URLs), or the token of a short-lived link the API handed out (an order’s prescriptionUrl; either storage), which works until it lapses and is 404 after, like an altered token. A short-lived link’s bytes are sent `cache-control: private, no-store`.',
      auth: 'public',
      errors: [404],
      rateLimit: FILE_DOWNLOADS,
      request: { params: MediaFileParamsSchema, query: UploadTokenQuerySchema },
      response: { description: 'The exact bytes with their Content-Type.', schema: z.any(), binary: [...AUDIO_TYPES, ...IMAGE_TYPES, ...VIDEO_TYPES] },
      appCheck: false,
      handler: async ({ params, query, res }) => {
        const { temporary, ...file } = await media.file(params.ownerId, params.name, query.token);
        await sendFileStream(res, file, { 'cache-control': temporary ? 'private, no-store' : 'public, max-age=31536000, immutable' });
      },
    }),
  ];
}
