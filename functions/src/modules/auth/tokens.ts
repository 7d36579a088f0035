import { randomUUID } from 'node:crypto';
import type { Role } from '../../platform/core/auth/roles';
import { ACCESS_TOKEN_TYPE, JWT_ALGORITHM, REFRESH_TOKEN_TYPE } from '../../platform/core/auth/access-token';
import { UnauthorizedError } from '../../platform/core/errors/app-error';

type Jwt = typeof import('jsonwebtoken');
const jwt = (): Jwt => require('jsonwebtoken') as Jwt;

export const TWO_FA_TOKEN_TYPE = '2fa';

// What a session remembers of its current token pair, so a retried refresh can re-sign the same pair.
export interface IssuedToken {
  jti: string;
  iat: number; // seconds
  exp: number; // seconds
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  access: IssuedToken & { roles: Role[] };
  refresh: IssuedToken;
}

export interface TokenSigner {
  newPair(userId: string, sessionId: string, roles: Role[], nowMs: number): TokenPair;
  /** Deterministic: the same stored claims give byte-identical tokens (HS256). */
  resign(userId: string, sessionId: string, access: IssuedToken & { roles: Role[] }, refresh: IssuedToken): TokenPair;
  verifyRefresh(token: string): { userId: string; sessionId: string; jti: string };
  signTwoFa(userId: string, challengeId: string, nowMs: number, ttlSec: number): string;
  verifyTwoFa(token: string): { userId: string; challengeId: string };
}

export function createTokenSigner(opts: { accessSecret: string; refreshSecret: string; accessTtlSec: number; refreshTtlSec: number }): TokenSigner {
  const sign = (payload: object, secret: string) => jwt().sign(payload, secret, { algorithm: JWT_ALGORITHM });
  const resign: TokenSigner['resign'] = (userId, sessionId, access, refresh) => ({
    accessToken: sign(
      { sub: userId, sid: sessionId, jti: access.jti, typ: ACCESS_TOKEN_TYPE, roles: access.roles, iat: access.iat, exp: access.exp },
      opts.accessSecret,
    ),
    refreshToken: sign({ sub: userId, sid: sessionId, jti: refresh.jti, typ: REFRESH_TOKEN_TYPE, iat: refresh.iat, exp: refresh.exp }, opts.refreshSecret),
    access,
    refresh,
  });
  const verify = (token: string, secret: string, typ: string, message: string): Record<string, unknown> => {
    let claims: Record<string, unknown>;
    try {
      claims = jwt().verify(token, secret, { algorithms: [JWT_ALGORITHM] }) as Record<string, unknown>;
    } catch {
      throw new UnauthorizedError(message);
    }
    if (claims.typ !== typ || typeof claims.sub !== 'string' || typeof claims.jti !== 'string') throw new UnauthorizedError(message);
    return claims;
  };
  return {
    newPair(userId, sessionId, roles, nowMs) {
      const iat = Math.floor(nowMs / 1000);
      return resign(
        userId,
        sessionId,
        { jti: randomUUID(), iat, exp: iat + opts.accessTtlSec, roles: [...roles] },
        { jti: randomUUID(), iat, exp: iat + opts.refreshTtlSec },
      );
    },
    resign,
    verifyRefresh(token) {
      const claims = verify(token, opts.refreshSecret, REFRESH_TOKEN_TYPE, 'Invalid refresh token');
      if (typeof claims.sid !== 'string') throw new UnauthorizedError('Invalid refresh token');
      return { userId: claims.sub as string, sessionId: claims.sid, jti: claims.jti as string };
    },
    signTwoFa(userId, challengeId, nowMs, ttlSec) {
      const iat = Math.floor(nowMs / 1000);
      return sign({ sub: userId, jti: challengeId, typ: TWO_FA_TOKEN_TYPE, iat, exp: iat + ttlSec }, opts.accessSecret);
    },
    verifyTwoFa(token) {
      const claims = verify(token, opts.accessSecret, TWO_FA_TOKEN_TYPE, 'Invalid or expired two-factor token');
      return { userId: claims.sub as string, challengeId: claims.jti as string };
    },
  };
}
