import { createHash } from 'node:crypto';

// Ids derived from keys, so a retried creation lands on the same document (tx.create then answers "already
// exists" instead of writing a second one). One formula for every module: sha256 of the parts joined by NUL
// (no part can forge another's boundary), base64url, cut to `length`, after an optional readable prefix.

export interface StableIdParts {
  /** What the id is for within its collection (an operation, a conversation, a promotion…). */
  scope?: string;
  /** Whose key it is: the same key from two callers gives two ids. */
  caller?: string;
  /** The key itself, or several parts of it in a fixed order. */
  key: string | readonly string[];
  /** Readable prefix kept in front of the hash (`dm_`, `m_`…). */
  prefix?: string;
  /** Characters of the hash kept (24 = 144 bits in base64url; the default). */
  length?: number;
  /** base64url (the default), or hex where only letters and digits are accepted (payment ids at the gateways, names of stored objects). */
  encoding?: 'base64url' | 'hex';
}

export function stableId({ scope, caller, key, prefix = '', length = 24, encoding = 'base64url' }: StableIdParts): string {
  const parts = [...(scope === undefined ? [] : [scope]), ...(caller === undefined ? [] : [caller]), ...(typeof key === 'string' ? [key] : key)];
  const max = encoding === 'hex' ? 64 : 43;
  if (!Number.isInteger(length) || length < 16 || length > max) throw new Error(`stableId: length must be 16..${max}, got ${length}`);
  return prefix + createHash('sha256').update(parts.join('\u0000')).digest(encoding).slice(0, length);
}
