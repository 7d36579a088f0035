import type { Request, RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/app-error';
import type { AccessTokenVerifier, AuthContext } from './access-token';
import type { Role } from './roles';

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim());
  return match?.[1];
}

export function authOf(res: { locals: Record<string, unknown> }): AuthContext | undefined {
  return res.locals.auth as AuthContext | undefined;
}

// 401 without a valid bearer token; 403 when none of `roles` is held (any authenticated user when empty).
export function requireAuth(verify: AccessTokenVerifier, roles: readonly Role[] = []): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    if (!token) {
      next(new UnauthorizedError('Missing bearer token'));
      return;
    }
    verify(token)
      .then((auth) => {
        if (roles.length > 0 && !roles.some((role) => auth.roles.includes(role))) {
          throw new ForbiddenError(`Requires one of the roles: ${roles.join(', ')}`);
        }
        res.locals.auth = auth;
        next();
      })
      .catch(next);
  };
}
