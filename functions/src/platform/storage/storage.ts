import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AppConfig } from '../config';
import { storageAdmin } from '../firebase/firebase';

// The storage seam: Cloud Storage in production, a local folder where no Storage emulator can run.
export interface StoredObject {
  data: Buffer;
  contentType: string;
}

export interface ObjectStorage {
  readonly driver: 'local' | 'gcs';
  /** `downloadToken` makes the object readable at publicUrl(key, token). */
  put(key: string, data: Buffer, contentType: string, downloadToken?: string): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** local: served by the API (GET /media/files/...); gcs: a Firebase download-token URL. */
  publicUrl(key: string, downloadToken: string): string;
  /** gcs only: a V4 signed URL a client PUTs the bytes to. */
  signedUploadUrl?(key: string, contentType: string, expiresAtMs: number): Promise<string>;
}

// Keys are built by the API (`kyc/<uid>/<id>`), never by clients; anything else is refused.
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]{0,400}$/.test(key) || key.split('/').some((part) => part === '..' || part === '')) {
    throw new Error(`unsafe object key: ${key}`);
  }
}

export function localStorage(root: string, apiPublicUrl: string): ObjectStorage {
  const file = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    driver: 'local',
    publicUrl: (key, token) => `${apiPublicUrl}/api/v1/media/files/${key}?token=${encodeURIComponent(token)}`,
    async put(key, data, contentType) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Data then metadata, each written to a temp name and renamed: a reader never sees half an object.
      await fs.writeFile(`${target}.tmp`, data);
      await fs.rename(`${target}.tmp`, target);
      await fs.writeFile(`${target}.meta.json.tmp`, JSON.stringify({ contentType }));
      await fs.rename(`${target}.meta.json.tmp`, `${target}.meta.json`);
    },
    async get(key) {
      const target = file(key);
      try {
        const [data, meta] = await Promise.all([fs.readFile(target), fs.readFile(`${target}.meta.json`, 'utf8')]);
        return { data, contentType: (JSON.parse(meta) as { contentType: string }).contentType };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      const target = file(key);
      await Promise.all([fs.rm(target, { force: true }), fs.rm(`${target}.meta.json`, { force: true })]);
    },
  };
}

export function cloudStorage(bucketName: string | undefined): ObjectStorage {
  const bucket = () => (bucketName ? storageAdmin().bucket(bucketName) : storageAdmin().bucket());
  return {
    driver: 'gcs',
    async put(key, data, contentType, downloadToken) {
      assertSafeKey(key);
      const metadata = downloadToken ? { metadata: { firebaseStorageDownloadTokens: downloadToken } } : undefined;
      await bucket().file(key).save(data, { contentType, resumable: false, metadata });
    },
    // The URL Firebase clients use for a token-protected object (the Storage emulator serves the same path).
    publicUrl(key, token) {
      const host = process.env.FIREBASE_STORAGE_EMULATOR_HOST ? `http://${process.env.FIREBASE_STORAGE_EMULATOR_HOST}` : 'https://firebasestorage.googleapis.com';
      return `${host}/v0/b/${bucket().name}/o/${encodeURIComponent(key)}?alt=media&token=${encodeURIComponent(token)}`;
    },
    async signedUploadUrl(key, contentType, expiresAtMs) {
      assertSafeKey(key);
      const [url] = await bucket().file(key).getSignedUrl({ version: 'v4', action: 'write', expires: expiresAtMs, contentType });
      return url;
    },
    async get(key) {
      assertSafeKey(key);
      const file = bucket().file(key);
      try {
        const [[data], [meta]] = await Promise.all([file.download(), file.getMetadata()]);
        return { data, contentType: meta.contentType ?? 'application/octet-stream' };
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
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
