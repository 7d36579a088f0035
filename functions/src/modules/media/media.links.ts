import { purposeKey, readSignedTerms, signTerms } from '../../platform/kits/ids/signed';
import type { MediaRecord } from './media.model';

// Short-lived links to an item's bytes (a prescription shown to a store): its id and expiry signed under a key derived
// from the server's secret and the item's id and download token (the token alone is no secret: it is in publicUrl).
// Whoever holds a link reads the bytes until it lapses (at most MAX_LINK_TTL_MS ahead) and can neither extend it nor
// turn it to another item; deleting the item ends every link to it.

type LinkTerms = { m: string; x: number };

/** No link is honoured further ahead than this, whoever signed it. */
export const MAX_LINK_TTL_MS = 60 * 60 * 1000;

const keyOf = (record: Pick<MediaRecord, 'id' | 'downloadToken'>, serverSecret: string) =>
  purposeKey(serverSecret, `media-links:${record.id}:${record.downloadToken}`);

/** The token of a link to the item that works until `expiresAt` (epoch ms). */
export function linkToken(record: Pick<MediaRecord, 'id' | 'downloadToken'>, expiresAt: number, serverSecret: string): string {
  return signTerms({ m: record.id, x: expiresAt } satisfies LinkTerms, keyOf(record, serverSecret));
}

/** True when `token` is a link to this item not lapsed at `now`; false for a forged, altered, lapsed or other token. */
export function isLiveLink(record: Pick<MediaRecord, 'id' | 'downloadToken'>, token: string, now: number, serverSecret: string): boolean {
  const terms = readSignedTerms<LinkTerms>(token, keyOf(record, serverSecret));
  return terms?.m === record.id && typeof terms.x === 'number' && now < terms.x && terms.x <= now + MAX_LINK_TTL_MS;
}
