import type { AppConfig } from '../../platform/core/config';
import { ServiceUnavailableError, UnauthorizedError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';

export interface GoogleIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export type GoogleIdTokenVerifier = (idToken: string) => Promise<GoogleIdentity>;

// google-auth-library checks signature (Google's certs), issuer and expiry, and the audience we pass —
// always the configured client ids: without an audience the library would accept any app's token.
export function createGoogleVerifier(config: Readonly<AppConfig>): GoogleIdTokenVerifier {
  const audience = [...config.GOOGLE_CLIENT_IDS];
  let client: import('google-auth-library').OAuth2Client | undefined;
  return async (idToken) => {
    if (audience.length === 0) throw new ServiceUnavailableError('Google sign-in is not configured (GOOGLE_CLIENT_IDS)');
    if (!client) {
      const { OAuth2Client } = require('google-auth-library') as typeof import('google-auth-library');
      client = new OAuth2Client({ endpoints: { oauth2FederatedSignonPemCertsUrl: config.GOOGLE_CERTS_URL } });
    }
    let payload: import('google-auth-library').TokenPayload | undefined;
    try {
      payload = (await client.verifyIdToken({ idToken, audience })).getPayload();
    } catch (err) {
      const message = (err as Error).message ?? '';
      if (message.startsWith('Failed to retrieve verification certificates')) {
        logger.error('google certs unavailable', { error: message });
        throw new ServiceUnavailableError('Google sign-in is temporarily unavailable');
      }
      throw new UnauthorizedError(`Invalid Google ID token: ${describe(message)}`);
    }
    if (!payload?.sub) throw new UnauthorizedError('Invalid Google ID token: no subject');
    return {
      subject: payload.sub,
      email: payload.email ? payload.email.toLowerCase() : null,
      emailVerified: payload.email_verified === true,
      name: payload.name ?? null,
    };
  };
}

// The library's messages embed the whole token; keep only the reason.
function describe(message: string): string {
  if (/audience/i.test(message)) return 'wrong audience';
  if (/too late|expired/i.test(message)) return 'expired';
  if (/no pem found/i.test(message)) return 'unknown signing key';
  if (/signature/i.test(message)) return 'bad signature';
  if (/issuer/i.test(message)) return 'wrong issuer';
  return 'malformed';
}
