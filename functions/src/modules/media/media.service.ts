import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { truncateText } from '../../platform/text';
import type { AuthContext } from '../../platform/auth/access-token';
import { BadRequestError, ConflictError, NotFoundError, UnsupportedMediaTypeError } from '../../platform/errors/app-error';
import type { UploadedFile } from '../../platform/http/multipart';
import { logger } from '../../platform/logging/logger';
import type { ObjectStorage } from '../../platform/storage/storage';
import { AUDIO_TYPES, baseType, bytesMatch, EXTENSION, isAudioType, toItem, type AudioType, type MediaRecord } from './media.model';
import { mediaRepo } from './media.repo';

type FileTypeModule = { fileTypeFromBuffer(data: Uint8Array): Promise<{ ext: string; mime: string } | undefined> };

// file-type (maintained, ESM-only) is loaded on first use through Node's require(esm) (Node >= 20.19).
async function sniff(data: Buffer): Promise<string | undefined> {
  const fileType = require('file-type') as FileTypeModule;
  return (await fileType.fileTypeFromBuffer(data))?.mime;
}

const token = () => randomBytes(24).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
// Compared as bytes: equal character counts can differ in bytes (multi-byte characters), which
// timingSafeEqual refuses with an exception.
const sameSecret = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

export function createMediaService(deps: { storage: ObjectStorage; maxFileBytes: number; presignTtlSec: number; apiPublicUrl: string; now?: () => number }) {
  const now = deps.now ?? Date.now;

  // The declared type must be accepted and the bytes must be of that type.
  async function checkedType(declaredRaw: string, data: Buffer, label: string): Promise<AudioType> {
    const declared = baseType(declaredRaw);
    if (!isAudioType(declared)) throw new UnsupportedMediaTypeError(`${label}: ${declared || 'no type'} is not accepted (${AUDIO_TYPES.join(', ')})`);
    const sniffed = await sniff(data);
    if (!bytesMatch(declared, sniffed)) throw new UnsupportedMediaTypeError(`${label}: declared ${declared} but the bytes are ${sniffed ?? 'not a known audio format'}`);
    return declared;
  }

  function newRecord(ownerId: string, type: AudioType, filename: string, source: MediaRecord['source']): MediaRecord {
    const id = mediaRepo.newId();
    const objectKey = `media/${ownerId}/${id}.${EXTENSION[type]}`;
    const downloadToken = token();
    const t = now();
    return {
      id,
      ownerId,
      objectKey,
      publicUrl: deps.storage.publicUrl(objectKey, downloadToken),
      mimeType: type,
      sizeBytes: 0,
      kind: 'AUDIO',
      status: 'PENDING',
      downloadToken,
      filename: truncateText(filename, 200),
      sha256: null,
      source,
      uploadTokenHash: null,
      uploadExpiresAt: null,
      createdAt: t,
      updatedAt: t,
    };
  }

  async function removeObjects(keys: string[]) {
    await Promise.all(keys.map((key) => deps.storage.delete(key).catch((err: Error) => logger.error('media cleanup failed', { key, error: err.message }))));
  }

  return {
    // Every file is checked before anything is stored; a failure while storing removes what was stored.
    async upload(ownerId: string, files: UploadedFile[]) {
      if (files.length === 0) throw new BadRequestError('No file in the request');
      const records: MediaRecord[] = [];
      for (const [i, file] of files.entries()) {
        const type = await checkedType(file.declaredType, file.data, `file ${i + 1} (${file.filename})`);
        records.push({ ...newRecord(ownerId, type, file.filename, 'upload'), sizeBytes: file.data.length, sha256: sha256(file.data), status: 'READY' });
      }
      const stored: string[] = [];
      try {
        for (const [i, record] of records.entries()) {
          await deps.storage.put(record.objectKey, files[i].data, record.mimeType, record.downloadToken);
          stored.push(record.objectKey);
        }
        await mediaRepo.createAll(records);
      } catch (err) {
        await removeObjects(stored);
        throw err;
      }
      return records.map(toItem);
    },

    async presign(ownerId: string, body: { contentType: string; filename?: string; sizeBytes?: number }) {
      const type = baseType(body.contentType);
      if (!type.startsWith('audio/')) throw new UnsupportedMediaTypeError('contentType must be audio/*');
      if (!isAudioType(type)) throw new UnsupportedMediaTypeError(`${type} is not accepted (${AUDIO_TYPES.join(', ')})`);
      const uploadToken = token();
      const expiresAt = now() + deps.presignTtlSec * 1000;
      const record: MediaRecord = { ...newRecord(ownerId, type, body.filename ?? 'upload', 'presign'), uploadTokenHash: sha256(uploadToken), uploadExpiresAt: expiresAt };
      const url = deps.storage.signedUploadUrl
        ? await deps.storage.signedUploadUrl(record.objectKey, type, expiresAt)
        : `${deps.apiPublicUrl}/api/v1/upload/presign/${record.id}/content?token=${encodeURIComponent(uploadToken)}`;
      await mediaRepo.create(record);
      return {
        media: toItem(record),
        upload: { method: 'PUT' as const, url, headers: { 'content-type': type }, maxBytes: deps.maxFileBytes, expiresAt: new Date(expiresAt).toISOString() },
        completeUrl: `${deps.apiPublicUrl}/api/v1/upload/presign/${record.id}/complete`,
      };
    },

    // Local storage only: the presigned PUT lands here, authorised by the upload token in the URL.
    // The body is read only once the token, state and Content-Type are known to be right.
    async receive(id: string, uploadToken: string, contentType: string | undefined, readBody: () => Promise<Buffer>) {
      const record = await mediaRepo.get(id);
      if (!record || !record.uploadTokenHash || !sameSecret(record.uploadTokenHash, sha256(uploadToken))) throw new NotFoundError('Upload not found');
      if (record.status !== 'PENDING') throw new ConflictError(`The upload is already ${record.status}`);
      if ((record.uploadExpiresAt ?? 0) < now()) throw new ConflictError('The upload URL has expired');
      if (baseType(contentType ?? '') !== record.mimeType) throw new UnsupportedMediaTypeError(`Content-Type must be ${record.mimeType}, as presigned`);
      const data = await readBody();
      if (data.length === 0) throw new BadRequestError('Empty body');
      await deps.storage.put(record.objectKey, data, record.mimeType, record.downloadToken);
      return { received: true as const, sizeBytes: data.length };
    },

    // Confirms a presigned upload: the stored bytes are checked like a direct upload, then READY.
    async complete(auth: AuthContext, id: string) {
      const record = await mediaRepo.get(id);
      if (!record || record.ownerId !== auth.userId) throw new NotFoundError('Media not found');
      if (record.status === 'READY') return toItem(record);
      if (record.status === 'FAILED') throw new ConflictError('This upload was refused; presign a new one');
      const object = await deps.storage.get(record.objectKey);
      if (!object) throw new ConflictError('Nothing was uploaded to the presigned URL yet');
      const refuse = async (error: Error) => {
        await deps.storage.delete(record.objectKey);
        await mediaRepo.update(id, { status: 'FAILED', updatedAt: now() });
        throw error;
      };
      if (object.data.length > deps.maxFileBytes) await refuse(new UnsupportedMediaTypeError(`The upload exceeds ${deps.maxFileBytes} bytes`));
      await checkedType(record.mimeType, object.data, 'upload').catch(refuse);
      const ready: Partial<MediaRecord> = { status: 'READY', sizeBytes: object.data.length, sha256: sha256(object.data), uploadTokenHash: null, updatedAt: now() };
      await mediaRepo.update(id, ready);
      return toItem({ ...record, ...ready });
    },

    async list(ownerId: string, filter: { sha256?: string; limit: number }) {
      return (await mediaRepo.ofOwner(ownerId, filter)).map(toItem);
    },

    async get(auth: AuthContext, id: string) {
      const record = await mediaRepo.get(id);
      if (!record || (record.ownerId !== auth.userId && !auth.roles.includes('ADMIN'))) throw new NotFoundError('Media not found');
      return toItem(record);
    },

    async remove(auth: AuthContext, id: string) {
      const record = await mediaRepo.get(id);
      if (!record || (record.ownerId !== auth.userId && !auth.roles.includes('ADMIN'))) throw new NotFoundError('Media not found');
      await mediaRepo.delete(id);
      await deps.storage.delete(record.objectKey);
      return { deleted: true as const };
    },

    // Local storage only: what publicUrl points at. The download token in the URL is the permission.
    async file(ownerId: string, name: string, downloadToken: string) {
      const id = name.split('.')[0];
      const record = await mediaRepo.get(id);
      const key = `media/${ownerId}/${name}`;
      if (!record || record.objectKey !== key || record.status !== 'READY' || !sameSecret(record.downloadToken, downloadToken)) throw new NotFoundError('File not found');
      const object = await deps.storage.get(key);
      if (!object) throw new NotFoundError('File not found');
      return object;
    },
  };
}
