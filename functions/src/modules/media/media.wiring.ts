import { perConfig, type AppConfig } from '../../platform/core/config';
import { createObjectStorage } from '../../platform/core/storage/storage';
import { createMediaService } from './media.service';

// Services of the media module, built once per configuration.
export const mediaServicesFor = perConfig((config: Readonly<AppConfig>) => {
  const storage = createObjectStorage(config);
  const media = createMediaService({
    storage,
    maxFileBytes: config.MEDIA_MAX_FILE_BYTES,
    maxVideoBytes: config.MEDIA_MAX_VIDEO_BYTES,
    presignTtlSec: config.MEDIA_PRESIGN_TTL_SEC,
    apiPublicUrl: config.API_PUBLIC_URL,
    linkSecret: config.JWT_SECRET,
  });
  return { storage, media };
});
