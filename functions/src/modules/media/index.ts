// Public face of the media module (uploads). Other modules reference a caller's media items through it.
import type { Transaction } from 'firebase-admin/firestore';
import type { AppConfig } from '../../platform/core/config';

export { AUDIO_TYPES, IMAGE_TYPES, MEDIA_KINDS, MEDIA_STATUSES, type MediaKind, type MediaStatus } from './media.model';
import type { MediaKind } from './media.model';

export interface Attachment {
  id: string;
  kind: MediaKind;
  mimeType: string;
  url: string;
  /** When it was uploaded (epoch ms). */
  createdAt: number;
}

/**
 * A media item `ownerId` may attach (to a chat message, a post…): theirs and READY. Undefined otherwise, the
 * same for another user's item as for a missing one (ids of others' uploads are not confirmed).
 */
export async function attachableMedia(ownerId: string, id: string, tx?: Transaction): Promise<Attachment | undefined> {
  const { mediaRepo } = require('./media.repo') as typeof import('./media.repo');
  const item = await mediaRepo.get(id, tx);
  if (!item || item.ownerId !== ownerId || item.status !== 'READY') return undefined;
  return { id: item.id, kind: item.kind, mimeType: item.mimeType, url: item.publicUrl, createdAt: item.createdAt };
}

/** One of `ownerId`'s READY image uploads as a photo reference (catalog photos, review photos); undefined otherwise. */
export async function attachableImage(ownerId: string, id: string, tx?: Transaction): Promise<{ id: string; url: string; createdAt: number } | undefined> {
  const media = await attachableMedia(ownerId, id, tx);
  return media?.kind === 'IMAGE' ? { id: media.id, url: media.url, createdAt: media.createdAt } : undefined;
}

/** Short-lived links to users' images under this configuration's server secret (media.links). */
export function imageLinks(config: Readonly<AppConfig>): ImageLinks {
  return {
    temporaryImageUrl: (ownerId, id, ttlSec, at) => {
      const { mediaServicesFor } = require('./media.wiring') as typeof import('./media.wiring');
      return mediaServicesFor(config).media.temporaryImageUrl(ownerId, id, ttlSec, at);
    },
  };
}

export interface ImageLinks {
  /** A link to one of `ownerId`'s READY images that works for `ttlSec` seconds from `at`; undefined like attachableImage. */
  temporaryImageUrl(ownerId: string, id: string, ttlSec: number, at: number): Promise<{ url: string; expiresAt: number } | undefined>;
}
