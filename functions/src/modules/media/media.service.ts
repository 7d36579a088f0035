import { iso } from '../../platform/kits/time/time';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256, sha256Digester } from '../../platform/kits/ids/digest';
import { stableId } from '../../platform/kits/ids/stable-id';
import { Transform, type Readable } from 'node:stream';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { truncateText } from '../../platform/kits/text/text';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { BadRequestError, ConflictError, NotFoundError, UnsupportedMediaTypeError } from '../../platform/core/errors/app-error';
import type { IncomingFile } from '../../platform/core/http/multipart';
import { PayloadTooLargeError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import type { ObjectStorage } from '../../platform/core/storage/storage';
import {
  ACCEPTED_TYPES,
  AUDIO_TYPES,
  baseType,
  bytesMatch,
  EXTENSION,
  isAcceptedType,
  presignKindOf,
  VIDEO_TYPES,
  toItem,
  type MediaKind,
  type MediaRecord,
  type MediaType,
} from './media.model';
import { isLiveLink, linkToken } from './media.links';
import { mediaRepo } from './media.repo';
import { IDEMPOTENCY_TTL_MS, IdempotencyKeyReusedError } from '../../platform/kits/idempotency/idempotency';

type FileTypeModule = { fileTypeFromBuffer(data: Uint8Array): Promise<{ ext: string; mime: string } | undefined> };

// file-type (maintained, ESM-only) is loaded on first use through Node's require(esm) (Node >= 20.19).
async function sniff(data: Buffer): Promise<string | undefined> {
  const fileType = require('file-type') as FileTypeModule;
  return (await fileType.fileTypeFromBuffer(data))?.mime;
}

const token = () => randomBytes(24).toString('base64url');
// Compared as bytes: equal character counts can differ in bytes (multi-byte characters), which
// timingSafeEqual refuses with an exception.
const sameSecret = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

// Enough of a file's start for the sniffer (ID3 tags, RIFF, Ogg and ISO headers): the rest is never read to check a type.
const SNIFF_BYTES = 64 * 1024;

/** Passes bytes through, keeping the first SNIFF_BYTES, the size and the sha256; errors past `maxBytes`. */
function inspector(maxBytes: number) {
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const hash = sha256Digester();
  const stream = new Transform({
    transform(chunk: Buffer, _enc, next) {
      size += chunk.length;
      if (size > maxBytes) return next(new PayloadTooLargeError(`The upload exceeds ${maxBytes} bytes`));
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      hash.update(chunk);
      next(null, chunk);
    },
  });
  // The write to storage attaches after an await; a failure before that (a body cut at the limit while it
  // is still arriving in one piece) is kept on the stream (errored) for it, not thrown as unhandled.
  stream.on('error', () => undefined);
  return { stream, result: () => ({ head: Buffer.concat(head), size, sha256: hash.digest() }) };
}

// pipe() does not pass errors on: a failing source (413 past the limit, a dropped connection) must fail
// the inspector, and with it the write to storage.
function through(source: Readable, transform: Transform): Transform {
  source.on('error', (err) => transform.destroy(err));
  return source.pipe(transform);
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = sha256Digester();
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest();
}

const FILES_PATH = '/api/v1/media/files/';

export function createMediaService(deps: {
  storage: ObjectStorage;
  maxFileBytes: number;
  /** A video's limit, through a presigned upload (a direct one stays under maxFileBytes: the request cap). */
  maxVideoBytes?: number;
  presignTtlSec: number;
  apiPublicUrl: string;
  /** Signs short-lived links (media.links). */
  linkSecret: string;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { storage } = deps;
  /** A presigned upload's size limit: its kind's. */
  const presignLimitOf = (record: Pick<MediaRecord, 'kind'>) => (record.kind === 'VIDEO' ? (deps.maxVideoBytes ?? deps.maxFileBytes) : deps.maxFileBytes);

  // The declared type must be accepted and the bytes must be of that type.
  function acceptedType(declaredRaw: string, label: string, kind: MediaKind): MediaType {
    const declared = baseType(declaredRaw);
    if (!isAcceptedType(declared, kind))
      throw new UnsupportedMediaTypeError(`${label}: ${declared || 'no type'} is not accepted (${ACCEPTED_TYPES[kind].join(', ')})`);
    return declared;
  }
  async function assertBytesMatch(declared: MediaType, head: Buffer, label: string): Promise<void> {
    const sniffed = await sniff(head);
    const known = `not a known ${declared.split('/')[0]} format`;
    if (!bytesMatch(declared, sniffed)) throw new UnsupportedMediaTypeError(`${label}: declared ${declared} but the bytes are ${sniffed ?? known}`);
  }

  function newRecord(
    ownerId: string,
    type: MediaType,
    filename: string,
    source: MediaRecord['source'],
    kind: MediaKind = 'AUDIO',
    id = mediaRepo.newId(),
  ): MediaRecord {
    const objectKey = `media/${ownerId}/${id}.${EXTENSION[type]}`;
    const downloadToken = token();
    const t = now();
    return {
      id,
      ownerId,
      objectKey,
      publicUrl: storage.publicUrl(objectKey, downloadToken),
      mimeType: type,
      sizeBytes: 0,
      kind,
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
    await Promise.all(keys.map((key) => storage.delete(key).catch((err: Error) => logger.error('media cleanup failed', { key, error: err.message }))));
  }

  // Where a presigned upload lands; the item's object is a copy made on completion, so bytes written to
  // the upload URL later can never change a READY item.
  const uploadKeyOf = (record: Pick<MediaRecord, 'ownerId' | 'id'>) => `uploads/${record.ownerId}/${record.id}`;

  async function refuse(record: MediaRecord, keys: string[], error: Error): Promise<never> {
    await removeObjects(keys);
    await mediaRepo.update(record.id, { status: 'FAILED', updatedAt: now() });
    throw error;
  }

  return {
    /**
     * Direct uploads. Each file streams into storage as it arrives (never whole in memory), its first
     * bytes kept for the type check; the records are written once every file passed. Any refusal
     * (type, size, a failing store) removes every object the request stored.
     */
    async upload(
      ownerId: string,
      receive: (sink: (file: IncomingFile) => Promise<MediaRecord & { head: Buffer }>) => Promise<{ files: Array<MediaRecord & { head: Buffer }> }>,
      kind: MediaKind = 'AUDIO',
      retry?: { operation: string; key: string },
    ) {
      const stored: string[] = [];
      const ids: string[] = [];
      // With an Idempotency-Key the items are named by it: a retry after a failure that did land (an answer lost
      // between Firestore and us) writes the same items again, never a second set.
      // Letters and digits only: the id names the object behind publicUrl (media/<owner>/<id>.<ext>).
      const retryBase = retry && stableId({ caller: ownerId, key: [retry.operation, retry.key], encoding: 'hex' });
      let recorded = false;
      try {
        const { files } = await receive(async (file) => {
          const type = acceptedType(file.declaredType, `file (${file.filename})`, kind);
          const record = newRecord(ownerId, type, file.filename, 'upload', kind, retryBase ? `${retryBase}${String(ids.length).padStart(2, '0')}` : undefined);
          if (retryBase) {
            // An item of this name older than a key's lifetime belongs to an earlier upload that reused the key:
            // it is never overwritten (its bytes stay as they are).
            const earlier = await mediaRepo.get(record.id);
            if (earlier && earlier.createdAt < now() - IDEMPOTENCY_TTL_MS) throw new IdempotencyKeyReusedError();
          }
          ids.push(record.id);
          const inspect = inspector(deps.maxFileBytes);
          stored.push(record.objectKey);
          await storage.putStream(record.objectKey, through(file.stream, inspect.stream), type, record.downloadToken);
          const { head, size, sha256 } = inspect.result();
          return { ...record, head, sizeBytes: size, sha256, status: 'READY' as const };
        });
        if (files.length === 0) throw new BadRequestError('No file in the request');
        for (const [i, file] of files.entries()) {
          if (file.sizeBytes === 0) throw new BadRequestError(`file ${i + 1} (${file.filename}) is empty`);
          await assertBytesMatch(file.mimeType, file.head, `file ${i + 1} (${file.filename})`);
        }
        const records = files.map(({ head: _head, ...record }) => record);
        recorded = true;
        await mediaRepo.createAll(records);
        return records.map(toItem);
      } catch (err) {
        // A failed commit may still have landed: the items go first, and the bytes only once no item can point
        // at them (with the database unreachable they stay, and a retry with the key rewrites the same items).
        if (recorded) {
          const removed = await mediaRepo.deleteAll(ids).then(
            () => true,
            (cleanup: Error) => (logger.error('media cleanup failed: items kept with their bytes', { ids, error: cleanup.message }), false),
          );
          if (!removed) throw err;
        }
        await removeObjects(stored);
        throw err;
      }
    },

    async presign(ownerId: string, body: { contentType: string; filename?: string; sizeBytes?: number }) {
      const type = baseType(body.contentType);
      const kind = presignKindOf(type);
      if (!type.startsWith('audio/') && !type.startsWith('video/')) throw new UnsupportedMediaTypeError('contentType must be audio/* or video/*');
      if (!kind) throw new UnsupportedMediaTypeError(`${type} is not accepted (${[...AUDIO_TYPES, ...VIDEO_TYPES].join(', ')})`);
      const uploadToken = token();
      const expiresAt = now() + deps.presignTtlSec * 1000;
      const record: MediaRecord = {
        ...newRecord(ownerId, type as MediaType, body.filename ?? 'upload', 'presign', kind),
        uploadTokenHash: sha256(uploadToken),
        uploadExpiresAt: expiresAt,
      };
      const maxBytes = presignLimitOf(record);
      if (body.sizeBytes !== undefined && body.sizeBytes > maxBytes)
        throw new PayloadTooLargeError(`A ${kind.toLowerCase()} upload takes at most ${maxBytes} bytes`);
      const upload = storage.signedUploadUrl
        ? await storage.signedUploadUrl(uploadKeyOf(record), type, expiresAt, maxBytes)
        : {
            url: `${deps.apiPublicUrl}/api/v1/upload/presign/${record.id}/content?token=${encodeURIComponent(uploadToken)}`,
            headers: { 'content-type': type },
          };
      await mediaRepo.create(record);
      return {
        media: toItem(record),
        upload: { method: 'PUT' as const, url: upload.url, headers: upload.headers, maxBytes, expiresAt: iso(expiresAt) },
        completeUrl: `${deps.apiPublicUrl}/api/v1/upload/presign/${record.id}/complete`,
      };
    },

    // Local storage only: the presigned PUT lands here, authorised by the upload token in the URL.
    // The body is read only once the token, state, type and announced length are known to be right,
    // and streams to storage with the size limit enforced as it comes.
    async receive(id: string, uploadToken: string, headers: { contentType?: string; contentLength?: string }, body: Readable) {
      const record = await mediaRepo.get(id);
      if (!record || !record.uploadTokenHash || !sameSecret(record.uploadTokenHash, sha256(uploadToken))) throw new NotFoundError('Upload not found');
      if (record.status !== 'PENDING') throw new ConflictError(`The upload is already ${record.status}`).withCode('UPLOAD_STATE');
      if ((record.uploadExpiresAt ?? 0) < now()) throw new ConflictError('The upload URL has expired').withCode('UPLOAD_STATE');
      if (baseType(headers.contentType ?? '') !== record.mimeType) throw new UnsupportedMediaTypeError(`Content-Type must be ${record.mimeType}, as presigned`);
      const maxBytes = presignLimitOf(record);
      if (headers.contentLength !== undefined && Number(headers.contentLength) > maxBytes)
        throw new PayloadTooLargeError(`The upload exceeds ${maxBytes} bytes`);
      const inspect = inspector(maxBytes);
      await storage.putStream(uploadKeyOf(record), through(body, inspect.stream), record.mimeType);
      const { size } = inspect.result();
      if (size === 0) {
        await storage.delete(uploadKeyOf(record));
        throw new BadRequestError('Empty body');
      }
      return { received: true as const, sizeBytes: size };
    },

    // Confirms a presigned upload. The size comes from the object's metadata (nothing is read when it is
    // too large); the bytes are copied to the item's own key, and that copy is what gets checked (the
    // first bytes sniffed, the hash streamed), so nothing written to the upload URL meanwhile or later
    // can change a READY item.
    async complete(auth: AuthContext, id: string) {
      const record = await mediaRepo.get(id);
      if (!record || record.ownerId !== auth.userId) throw new NotFoundError('Media not found');
      if (record.status === 'READY') return toItem(record);
      if (record.status === 'FAILED') throw new ConflictError('This upload was refused; presign a new one').withCode('UPLOAD_STATE');
      const uploadKey = uploadKeyOf(record);
      // A racing completion may finish first and remove the upload under this one: its READY item is the answer.
      const finishedMeanwhile = async () => {
        const current = await mediaRepo.get(id);
        return current?.status === 'READY' ? toItem(current) : undefined;
      };
      const uploaded = await storage.stat(uploadKey);
      if (!uploaded) {
        const ready = await finishedMeanwhile();
        if (ready) return ready;
        throw new ConflictError('Nothing was uploaded to the presigned URL yet').withCode('UPLOAD_STATE');
      }
      const maxBytes = presignLimitOf(record);
      if (uploaded.size > maxBytes) await refuse(record, [uploadKey], new PayloadTooLargeError(`The upload exceeds ${maxBytes} bytes`));
      try {
        await storage.copy(uploadKey, record.objectKey, record.downloadToken);
      } catch (err) {
        const ready = await finishedMeanwhile();
        if (ready) return ready;
        throw err;
      }
      const copied = await storage.stat(record.objectKey);
      if (!copied || copied.size === 0 || copied.size > maxBytes)
        await refuse(record, [uploadKey, record.objectKey], new PayloadTooLargeError(`The upload must be 1 to ${maxBytes} bytes`));
      await assertBytesMatch(record.mimeType, await storage.readHead(record.objectKey, SNIFF_BYTES), 'upload').catch((err: Error) =>
        refuse(record, [uploadKey, record.objectKey], err),
      );
      const ready: Partial<MediaRecord> = {
        status: 'READY',
        sizeBytes: copied!.size,
        sha256: await sha256Of(storage.readStream(record.objectKey)),
        uploadTokenHash: null,
        updatedAt: now(),
      };
      // Only a PENDING item becomes READY: a racing second completion keeps the first one's result.
      const final = await inTransaction(async (tx) => {
        const current = await mediaRepo.get(id, tx);
        if (!current || current.status !== 'PENDING') return current;
        mediaRepo.txUpdate(tx, id, ready);
        return { ...current, ...ready } as MediaRecord;
      });
      await removeObjects([uploadKey]);
      if (!final) throw new NotFoundError('Media not found');
      return toItem(final);
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
      await removeObjects([record.objectKey, uploadKeyOf(record)]);
      return { deleted: true as const };
    },

    /**
     * A link to one of `ownerId`'s READY images that works for `ttlSec` seconds from `at` (whoever holds it: a store
     * checking a prescription), served by this API (downloadMediaFile) with either storage driver; undefined for
     * another user's item, a missing one or one not an image.
     */
    async temporaryImageUrl(ownerId: string, id: string, ttlSec: number, at = now()): Promise<{ url: string; expiresAt: number } | undefined> {
      const item = await mediaRepo.get(id);
      if (!item || item.ownerId !== ownerId || item.status !== 'READY' || item.kind !== 'IMAGE') return undefined;
      const expiresAt = at + ttlSec * 1000;
      // Where the local driver's publicUrl points, else (Cloud Storage) at the configured address.
      const local = item.publicUrl.indexOf(FILES_PATH);
      const base = local >= 0 ? item.publicUrl.slice(0, local) : deps.apiPublicUrl;
      return { url: `${base}${FILES_PATH}${item.objectKey}?token=${encodeURIComponent(linkToken(item, expiresAt, deps.linkSecret))}`, expiresAt };
    },

    // What publicUrl points at with local storage (the download token in the URL is the permission), and a short-lived
    // link's bytes with either driver (media.links). Streamed out, never read whole.
    async file(ownerId: string, name: string, token: string) {
      const id = name.split('.')[0];
      const record = await mediaRepo.get(id);
      const key = `media/${ownerId}/${name}`;
      if (!record || record.objectKey !== key || record.status !== 'READY') throw new NotFoundError('File not found');
      const permanent = storage.driver === 'local' && sameSecret(record.downloadToken, token);
      const temporary = !permanent && isLiveLink(record, token, now(), deps.linkSecret);
      if (!permanent && !temporary) throw new NotFoundError('File not found');
      const info = await storage.stat(key);
      if (!info) throw new NotFoundError('File not found');
      return { ...info, stream: storage.readStream(key), temporary };
    },
  };
}
