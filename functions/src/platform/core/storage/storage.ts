import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppConfig } from '../config';
import { storageAdmin } from '../firebase/firebase';

// The storage seam: Cloud Storage in production, a local folder where no Storage emulator can run.
export interface StoredObject {
  data: Buffer;
  contentType: string;
}

export interface ObjectInfo {
  size: number;
  contentType: string;
}

/** Where and how a client PUTs the bytes of a presigned upload. */
export interface SignedUpload {
  url: string;
  /** Headers the PUT must carry exactly as given (they are part of the signature). */
  headers: Record<string, string>;
}

export interface ObjectStorage {
  readonly driver: 'local' | 'gcs';
  /** `downloadToken` makes the object readable at publicUrl(key, token). */
  put(key: string, data: Buffer, contentType: string, downloadToken?: string): Promise<void>;
  /** Streams the bytes in; a failed stream leaves no object behind. */
  putStream(key: string, data: Readable, contentType: string, downloadToken?: string): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  /** Size and type from the object's metadata, without reading it. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** The first `bytes` bytes (or fewer). */
  readHead(key: string, bytes: number): Promise<Buffer>;
  readStream(key: string): Readable;
  copy(from: string, to: string, downloadToken?: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** local: served by the API (GET /media/files/...); gcs: a Firebase download-token URL. */
  publicUrl(key: string, downloadToken: string): string;
  /**
   * gcs only: a V4 signed URL a client PUTs the bytes to. The signature fixes the content type, a size
   * range (x-goog-content-length-range) and creation only (x-goog-if-generation-match: 0), so the object
   * can be written once, within the limit, and never replaced through the URL.
   */
  signedUploadUrl?(key: string, contentType: string, expiresAtMs: number, maxBytes: number): Promise<SignedUpload>;
}

// Keys are built by the API (`kyc/<uid>/<id>`), never by clients; anything else is refused.
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,400}$/.test(key) || key.split('/').some((part) => part === '..' || part === '')) {
    throw new Error(`unsafe object key: ${key}`);
  }
}

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

export function localStorage(root: string, apiPublicUrl: string): ObjectStorage {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  // Data then metadata, each written to a temp name and renamed: a reader never sees half an object.
  // A temp name per writer: two writers of one key (racing requests, one process or several) never
  // write into, or rename away, each other's temp file.
  const tempOf = (target: string) => `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const writeAtomically = async (target: string, data: Buffer | string) => {
    const temp = tempOf(target);
    try {
      await fs.writeFile(temp, data);
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  };
  const writeMeta = (target: string, contentType: string) => writeAtomically(`${target}.meta.json`, JSON.stringify({ contentType }));
  const storage: ObjectStorage = {
    driver: 'local',
    publicUrl: (key, token) => `${apiPublicUrl}/api/v1/media/files/${key}?token=${encodeURIComponent(token)}`,
    async put(key, data, contentType) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await writeAtomically(target, data);
      await writeMeta(target, contentType);
    },
    async putStream(key, data, contentType) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = tempOf(target);
      try {
        await pipeline(data, createWriteStream(temp));
        await fs.rename(temp, target);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
      await writeMeta(target, contentType);
    },
    async get(key) {
      const target = file(key);
      try {
        const [data, meta] = await Promise.all([fs.readFile(target), fs.readFile(`${target}.meta.json`, 'utf8')]);
        return { data, contentType: (JSON.parse(meta) as { contentType: string }).contentType };
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async stat(key) {
      const target = file(key);
      try {
        const [info, meta] = await Promise.all([fs.stat(target), fs.readFile(`${target}.meta.json`, 'utf8')]);
        return { size: info.size, contentType: (JSON.parse(meta) as { contentType: string }).contentType };
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async readHead(key, bytes) {
      const handle = await fs.open(file(key), 'r');
      try {
        const buffer = Buffer.alloc(bytes);
        const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    readStream: (key) => createReadStream(file(key)),
    async copy(from, to) {
      const source = file(from);
      const info = await storage.stat(from);
      if (!info) throw Object.assign(new Error(`no object ${from}`), { code: 'ENOENT' });
      const target = file(to);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = tempOf(target);
      try {
        await fs.copyFile(source, temp);
        await fs.rename(temp, target);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
      await writeMeta(target, info.contentType);
    },
    async delete(key) {
      const target = file(key);
      await Promise.all([fs.rm(target, { force: true }), fs.rm(`${target}.meta.json`, { force: true })]);
    },
  };
  return storage;
}

type Bucket = ReturnType<ReturnType<typeof storageAdmin>['bucket']>;

export function cloudStorage(
  bucketName: string | undefined,
  bucketOf: () => Bucket = () => (bucketName ? storageAdmin().bucket(bucketName) : storageAdmin().bucket()),
): ObjectStorage {
  const bucket = bucketOf;
  const tokenMetadata = (downloadToken?: string) => (downloadToken ? { metadata: { firebaseStorageDownloadTokens: downloadToken } } : undefined);
  const notFound = (err: unknown) => (err as { code?: number }).code === 404;
  return {
    driver: 'gcs',
    async put(key, data, contentType, downloadToken) {
      assertSafeKey(key);
      await bucket()
        .file(key)
        .save(data, { contentType, resumable: false, metadata: tokenMetadata(downloadToken) });
    },
    async putStream(key, data, contentType, downloadToken) {
      assertSafeKey(key);
      // One request (not resumable): a failed stream aborts it and no object is created.
      await pipeline(
        data,
        bucket()
          .file(key)
          .createWriteStream({ contentType, resumable: false, metadata: tokenMetadata(downloadToken) }),
      );
    },
    // The URL Firebase clients use for a token-protected object (the Storage emulator serves the same path).
    publicUrl(key, token) {
      const host = process.env.FIREBASE_STORAGE_EMULATOR_HOST
        ? `http://${process.env.FIREBASE_STORAGE_EMULATOR_HOST}`
        : 'https://firebasestorage.googleapis.com';
      return `${host}/v0/b/${bucket().name}/o/${encodeURIComponent(key)}?alt=media&token=${encodeURIComponent(token)}`;
    },
    async signedUploadUrl(key, contentType, expiresAtMs, maxBytes) {
      assertSafeKey(key);
      const extensionHeaders = { 'x-goog-content-length-range': `1,${maxBytes}`, 'x-goog-if-generation-match': '0' };
      const [url] = await bucket().file(key).getSignedUrl({ version: 'v4', action: 'write', expires: expiresAtMs, contentType, extensionHeaders });
      return { url, headers: { 'content-type': contentType, ...extensionHeaders } };
    },
    async get(key) {
      assertSafeKey(key);
      const file = bucket().file(key);
      try {
        const [[data], [meta]] = await Promise.all([file.download(), file.getMetadata()]);
        return { data, contentType: meta.contentType ?? 'application/octet-stream' };
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    async stat(key) {
      assertSafeKey(key);
      try {
        const [meta] = await bucket().file(key).getMetadata();
        return { size: Number(meta.size ?? 0), contentType: meta.contentType ?? 'application/octet-stream' };
      } catch (err) {
        if (notFound(err)) return undefined;
        throw err;
      }
    },
    async readHead(key, bytes) {
      assertSafeKey(key);
      const [data] = await bucket()
        .file(key)
        .download({ start: 0, end: bytes - 1 });
      return data;
    },
    readStream(key) {
      assertSafeKey(key);
      return bucket().file(key).createReadStream();
    },
    async copy(from, to, downloadToken) {
      assertSafeKey(from);
      assertSafeKey(to);
      await bucket()
        .file(from)
        .copy(bucket().file(to), { metadata: tokenMetadata(downloadToken)?.metadata });
    },
    async delete(key) {
      assertSafeKey(key);
      await bucket().file(key).delete({ ignoreNotFound: true });
    },
  };
}

export function defaultLocalStorageDir(): string {
  return path.join(os.tmpdir(), 'superapp-storage', process.env.GCLOUD_PROJECT ?? 'demo-superapp');
}

// auto: Cloud Storage in production or when a Storage emulator is configured, else the local folder.
export function storageDriver(config: Readonly<AppConfig>): 'local' | 'gcs' {
  if (config.STORAGE_DRIVER !== 'auto') return config.STORAGE_DRIVER;
  return config.NODE_ENV === 'production' || process.env.FIREBASE_STORAGE_EMULATOR_HOST ? 'gcs' : 'local';
}

export function createObjectStorage(config: Readonly<AppConfig>): ObjectStorage {
  return storageDriver(config) === 'gcs'
    ? cloudStorage(config.STORAGE_BUCKET)
    : localStorage(config.STORAGE_LOCAL_DIR ?? defaultLocalStorageDir(), config.API_PUBLIC_URL);
}
