import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The media module's switches: upload counts, sizes and presigned URL lifetimes.
export const mediaSwitches = defineSwitches({
  MEDIA_MAX_FILES: { schema: positiveInt(10, 10), effect: 'files per `POST /upload/multiple`' },
  MEDIA_MAX_FILE_BYTES: {
    schema: positiveInt(15 * 1024 * 1024, 32 * 1024 * 1024),
    effect: 'size limit of one uploaded file, 15 MB (413 beyond, enforced while streaming)',
  },
  MEDIA_MAX_VIDEO_BYTES: {
    schema: positiveInt(100 * 1024 * 1024, 1024 * 1024 * 1024),
    effect:
      'size limit of one video (reels), 100 MB: through a presigned upload (POST /upload/presign); POST /upload/video takes up to MEDIA_MAX_FILE_BYTES, as Cloud Functions caps a request at 32 MB',
  },
  MEDIA_PRESIGN_TTL_SEC: { schema: positiveInt(15 * 60, 24 * 3600, 60), effect: 'lifetime of a presigned upload URL' },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof mediaSwitches> {}
}
