import type { Role } from './roles';
import { ROLES } from './roles';
import { UnauthorizedError } from '../errors/app-error';

// Who is calling. Filled by the access-token verifier; the auth module adds session checks.
export interface AuthContext {
  userId: string;
  roles: Role[];
  sessionId: string;
  tokenId: string;
  /** Administrator permission list from the account (see holdsPermission); undefined: every permission. */
  permissions?: string[];
}

/**
 * Verifies a bearer token. `beside`, when given, is called once, when the signature is verified, side by side with
 * the checks that need the database (the session): work for the caller a valid token names, such as counting a
 * per-user rate limit. It gets the user id only (the token's roles may be out of date). The token's own refusal is
 * thrown first; then `beside`'s.
 */
export type AccessTokenVerifier = (token: string, beside?: (caller: { userId: string }) => Promise<unknown>) => Promise<AuthContext>;

export const ACCESS_TOKEN_TYPE = 'access';
export const REFRESH_TOKEN_TYPE = 'refresh';
export const JWT_ALGORITHM = 'HS256';

interface AccessClaims {
  sub?: unknown;
  jti?: unknown;
  sid?: unknown;
  typ?: unknown;
  roles?: unknown;
}

// Signature, algorithm (allowlisted), expiry and token type. Revocation is layered on by the auth module.
export function createJwtAccessTokenVerifier(secret: string): AccessTokenVerifier {
  return async (token, beside) => {
    const jwt = require('jsonwebtoken') as typeof import('jsonwebtoken');
    let claims: AccessClaims;
    try {
      claims = jwt.verify(token, secret, { algorithms: [JWT_ALGORITHM] }) as AccessClaims;
    } catch (err) {
      const expired = err instanceof Error && err.name === 'TokenExpiredError';
      throw new UnauthorizedError(expired ? 'Access token expired' : 'Invalid access token').withCode('TOKEN_INVALID');
    }
    if (claims.typ !== ACCESS_TOKEN_TYPE) throw new UnauthorizedError('Invalid access token').withCode('TOKEN_INVALID');
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.sid !== 'string') {
      throw new UnauthorizedError('Invalid access token').withCode('TOKEN_INVALID');
    }
    const roles = Array.isArray(claims.roles) ? claims.roles : [];
    if (!roles.every((r): r is Role => (ROLES as readonly unknown[]).includes(r))) {
      throw new UnauthorizedError('Invalid access token').withCode('TOKEN_INVALID');
    }
    const auth: AuthContext = { userId: claims.sub, roles, sessionId: claims.sid, tokenId: claims.jti };
    if (beside) await beside({ userId: auth.userId });
    return auth;
  };
}
