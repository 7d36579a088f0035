// Public face of the media module (uploads). Chat and social will reference a caller's media items through
// commands added here; nothing is needed by other modules yet.
export { AUDIO_TYPES, MEDIA_STATUSES, type MediaStatus } from './media.model';
