import { createHmac, timingSafeEqual } from 'node:crypto';

// Terms the server hands a client and takes back unchanged (a ride's or a parcel's quote): the JSON in base64url, a
// dot, and its HMAC-SHA256 under a key derived from a server secret for one purpose, so a quote of one kind is never
// read as another's and the client can change neither the price nor the points.

/** The key of one purpose (`ride-quotes`, `delivery-quotes`) from the server's secret. */
export function purposeKey(serverSecret: string, purpose: string): Buffer {
  return createHmac('sha256', serverSecret).update(purpose).digest();
}

export function signTerms(terms: unknown, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(terms)).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The terms `signTerms` signed with this key; undefined when forged, altered or malformed. */
export function readSignedTerms<T>(token: string, key: Buffer): T | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}
