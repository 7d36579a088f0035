import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from '../../src/platform/core/auth/roles';

export interface TokenOptions {
  userId?: string;
  roles?: Role[] | string[];
  typ?: string;
  expiresInSec?: number;
  algorithm?: jwt.Algorithm;
}

// Mints tokens the way the auth module will (HS256, typ, jti, sid), for guard tests.
export function signAccessToken(secret: string, options: TokenOptions = {}): string {
  return jwt.sign({ roles: options.roles ?? ['USER'], typ: options.typ ?? 'access', sid: `sess-${randomUUID()}` }, secret, {
    algorithm: options.algorithm ?? 'HS256',
    subject: options.userId ?? `user-${randomUUID()}`,
    jwtid: randomUUID(),
    expiresIn: options.expiresInSec ?? 900,
  });
}

// An unsigned token (alg "none"): must always be refused.
export function unsignedToken(payload: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}
