import { createHash } from 'node:crypto';

// Content digests (a file's sha256, a request's fingerprint), for comparing and storing, never as ids from keys
// (those are stableId's). Here so modules do not import node:crypto's hashing (lint) and every digest is sha256.

export type DigestEncoding = 'hex' | 'base64url';

/** sha256 of bytes or text. */
export function sha256(data: Buffer | string, encoding: DigestEncoding = 'hex'): string {
  return createHash('sha256').update(data).digest(encoding);
}

/** Which of `buckets` a key falls in (the first 32 bits of its sha256): the same key always lands in the same one. */
export function bucketOf(key: string, buckets: number): number {
  return parseInt(sha256(key).slice(0, 8), 16) % buckets;
}

/** sha256 of bytes arriving in chunks (a stream being written elsewhere): `update` each, `digest` once at the end. */
export function sha256Digester(encoding: DigestEncoding = 'hex'): { update(chunk: Buffer): void; digest(): string } {
  const hash = createHash('sha256');
  return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest(encoding) };
}
