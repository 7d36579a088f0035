import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SINKS_URL } from './sinks';

// Google ID tokens signed by keys of our own; the API fetches their public half from the sinks
// (GOOGLE_CERTS_URL in npm test's environment). Nothing reaches Google.
export const GOOGLE_CLIENT_ID = process.env.GOOGLE_CLIENT_IDS?.split(',')[0] ?? 'superapp-test.apps.googleusercontent.com';

export function googleKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    kid: randomUUID(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export async function publishGoogleKeys(keys: Array<{ kid: string; publicPem: string }>): Promise<void> {
  const res = await fetch(`${SINKS_URL}/google/certs`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Object.fromEntries(keys.map((k) => [k.kid, k.publicPem]))),
  });
  if (!res.ok) throw new Error(`publishing Google test keys: ${res.status}`);
}

export function googleIdToken(
  key: { kid: string; privatePem: string },
  claims: { sub: string; email?: string; email_verified?: boolean; name?: string; aud?: string; expiresInSec?: number; iss?: string },
): string {
  const now = Math.floor(Date.now() / 1000);
  const { expiresInSec = 3600, aud = GOOGLE_CLIENT_ID, iss = 'https://accounts.google.com', ...rest } = claims;
  return jwt.sign({ ...rest, iss, aud, iat: now - 10, exp: now + expiresInSec }, key.privatePem, { algorithm: 'RS256', keyid: key.kid });
}
