// `media/{id}`: uploaded media items (API only; files in Cloud Storage).
export const MEDIA = 'media';

// Accepted upload types (spec: the audio routes give kind AUDIO) and what a byte sniffer may report for each.
export const AUDIO_TYPES = ['audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/ogg', 'audio/mp4', 'audio/aac', 'audio/webm'] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];

// Images (chat photos) come through their own route (POST /upload/image): the audio routes keep the spec's types.
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
// Short videos (social reels): MP4 (H.264/HEVC from phones), QuickTime (iPhone .mov), WebM (Android, the web).
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
export type VideoType = (typeof VIDEO_TYPES)[number];
export type MediaType = AudioType | ImageType | VideoType;
export const MEDIA_KINDS = ['AUDIO', 'IMAGE', 'VIDEO'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const ACCEPTED_TYPES: Record<MediaKind, readonly MediaType[]> = { AUDIO: AUDIO_TYPES, IMAGE: IMAGE_TYPES, VIDEO: VIDEO_TYPES };

const SNIFFED_AS: Record<MediaType, readonly string[]> = {
  'image/jpeg': ['image/jpeg'],
  'image/png': ['image/png'],
  'image/webp': ['image/webp'],
  'audio/mpeg': ['audio/mpeg'],
  'audio/wav': ['audio/wav', 'audio/vnd.wave', 'audio/x-wav'],
  'audio/x-wav': ['audio/wav', 'audio/vnd.wave', 'audio/x-wav'],
  'audio/ogg': ['audio/ogg', 'audio/opus'],
  'audio/mp4': ['audio/mp4', 'audio/x-m4a'],
  'audio/aac': ['audio/aac'],
  // WebM is one container for audio and video; sniffers report video/webm for both.
  'audio/webm': ['audio/webm', 'video/webm'],
  // An MP4 whose brand says M4V (some Android encoders) is still an MP4 video.
  'video/mp4': ['video/mp4', 'video/x-m4v'],
  'video/quicktime': ['video/quicktime'],
  'video/webm': ['video/webm'],
};

export const EXTENSION: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/webm': 'webm',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

export function isAudioType(type: string): type is AudioType {
  return (AUDIO_TYPES as readonly string[]).includes(type);
}

/** The kind of a type a presigned upload may take (audio or video; images go through POST /upload/image). */
export function presignKindOf(type: string): 'AUDIO' | 'VIDEO' | undefined {
  if ((AUDIO_TYPES as readonly string[]).includes(type)) return 'AUDIO';
  if ((VIDEO_TYPES as readonly string[]).includes(type)) return 'VIDEO';
  return undefined;
}

/** Whether `type` is accepted for uploads of this kind. */
export function isAcceptedType(type: string, kind: MediaKind): type is MediaType {
  return (ACCEPTED_TYPES[kind] as readonly string[]).includes(type);
}

// Content-Type parameters (e.g. "; codecs=opus") do not change the type.
export function baseType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

export function bytesMatch(declared: MediaType, sniffed: string | undefined): boolean {
  return sniffed !== undefined && SNIFFED_AS[declared].includes(sniffed);
}

export const MEDIA_STATUSES = ['PENDING', 'READY', 'FAILED'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

// `media/{id}`
export interface MediaRecord {
  id: string;
  ownerId: string;
  objectKey: string;
  publicUrl: string;
  mimeType: MediaType;
  sizeBytes: number;
  kind: MediaKind;
  status: MediaStatus;
  downloadToken: string;
  filename: string;
  sha256: string | null;
  source: 'upload' | 'presign';
  uploadTokenHash: string | null;
  uploadExpiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

// Exactly the spec's fields.
export function toItem(m: MediaRecord) {
  return { id: m.id, objectKey: m.objectKey, publicUrl: m.publicUrl, mimeType: m.mimeType, sizeBytes: m.sizeBytes, kind: m.kind, status: m.status };
}
