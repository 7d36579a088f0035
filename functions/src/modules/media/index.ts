// Public face of the media module (uploads). Other modules reference a caller's media items through it.
import type { Transaction } from 'firebase-admin/firestore';

export { AUDIO_TYPES, IMAGE_TYPES, MEDIA_STATUSES, type MediaKind, type MediaStatus } from './media.model';
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

/** Where this API serves an item's bytes: as in its publicUrl with local storage, else at the configured address. */
function filesBaseOf(publicUrl: string): string {
  const at = publicUrl.indexOf(FILES_PATH);
  if (at >= 0) return publicUrl.slice(0, at);
  const { getConfig } = require('../../platform/core/config') as typeof import('../../platform/core/config');
  return getConfig().API_PUBLIC_URL;
}
const FILES_PATH = '/api/v1/media/files/';

/**
 * A link to one of `ownerId`'s READY images that works for `ttlSec` seconds from `at` (whoever holds it: a store
 * checking a prescription), served by this API (downloadMediaFile) with either storage driver. Undefined like
 * attachableImage.
 */
export async function temporaryImageUrl(ownerId: string, id: string, ttlSec: number, at = Date.now()): Promise<{ url: string; expiresAt: number } | undefined> {
  const { mediaRepo } = require('./media.repo') as typeof import('./media.repo');
  const { linkToken } = require('./media.links') as typeof import('./media.links');
  const item = await mediaRepo.get(id);
  if (!item || item.ownerId !== ownerId || item.status !== 'READY' || item.kind !== 'IMAGE') return undefined;
  const expiresAt = at + ttlSec * 1000;
  const url = `${filesBaseOf(item.publicUrl)}${FILES_PATH}${item.objectKey}?token=${encodeURIComponent(linkToken(item, expiresAt))}`;
  return { url, expiresAt };
}
