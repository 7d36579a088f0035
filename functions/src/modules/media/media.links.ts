import { purposeKey, readSignedTerms, signTerms } from '../../platform/kits/ids/signed';
import type { MediaRecord } from './media.model';

// Short-lived links to an item's bytes (a prescription shown to a store): its id and expiry signed under a key derived
// from the item's own download token, a secret the server keeps. Whoever holds a link reads the bytes until it
// lapses and can neither extend it nor turn it to another item; deleting the item ends every link to it.

type LinkTerms = { m: string; x: number };

const keyOf = (record: Pick<MediaRecord, 'downloadToken'>) => purposeKey(record.downloadToken, 'media-links');

/** The token of a link to the item that works until `expiresAt` (epoch ms). */
export function linkToken(record: Pick<MediaRecord, 'id' | 'downloadToken'>, expiresAt: number): string {
  return signTerms({ m: record.id, x: expiresAt } satisfies LinkTerms, keyOf(record));
}

/** True when `token` is a link to this item not lapsed at `now`; false for a forged, altered, lapsed or other token. */
export function isLiveLink(record: Pick<MediaRecord, 'id' | 'downloadToken'>, token: string, now: number): boolean {
  const terms = readSignedTerms<LinkTerms>(token, keyOf(record));
  return terms?.m === record.id && typeof terms.x === 'number' && now < terms.x;
}
