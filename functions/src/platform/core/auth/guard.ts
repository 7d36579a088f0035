import type { Request, RequestHandler, Response } from 'express';
import { ForbiddenError, UnauthorizedError } from '../errors/app-error';
import type { AccessTokenVerifier, AuthContext } from './access-token';
import { holdsPermission, type AdminPermission, type Hat, type Role } from './roles';

export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim());
  return match?.[1];
}

export function authOf(res: { locals: Record<string, unknown> }): AuthContext | undefined {
  return res.locals.auth as AuthContext | undefined;
}

/**
 * What a `beside` leaves for after the session check: for a caller let in, and for one refused (401). A per-user rate
 * limit may let a keyed request in before its verdict, which the request then awaits with its claim (per-user-limit.ts).
 */
export interface BesideOutcome {
  admitted(): void;
  refused(): Promise<void>;
}

// 401 without a valid bearer token; 403 when none of `roles` is held (any authenticated user when empty).
// `beside`: work for the caller a validly signed token names, run beside the session check (see AccessTokenVerifier),
// e.g. a per-user limit's hit; a 401 then has it undone (a revoked token does not use up its account's limit).
export function requireAuth(
  verify: AccessTokenVerifier,
  roles: readonly Role[] = [],
  beside?: (caller: { userId: string }, res: Response) => Promise<BesideOutcome>,
): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    if (!token) {
      next(new UnauthorizedError('Missing bearer token').withCode('TOKEN_MISSING'));
      return;
    }
    // Run once whatever the verifier does: one that does not take `beside` (a test double, a wrapper) gets it run
    // after; one that calls it twice, or without waiting, still counts once and is waited for.
    let besideRun: Promise<BesideOutcome> | undefined;
    const alongside = beside && ((caller: { userId: string }) => (besideRun ??= beside(caller, res)));
    verify(token, alongside)
      .then(
        async (auth) => {
          if (beside) (await (besideRun ??= beside({ userId: auth.userId }, res))).admitted();
          if (roles.length > 0 && !roles.some((role) => auth.roles.includes(role))) {
            throw new ForbiddenError(`Requires one of the roles: ${roles.join(', ')}`).withCode('ROLE_REQUIRED');
          }
          res.locals.auth = auth;
          next();
        },
        async (err: unknown) => {
          await besideRun?.then((outcome) => outcome.refused()).catch(() => undefined);
          throw err;
        },
      )
      .catch(next);
  };
}

// Routes with auth 'optional': no token is an anonymous caller; a token that is sent must verify (401 otherwise).
export function optionalAuth(verify: AccessTokenVerifier): RequestHandler {
  return (req, res, next) => {
    const token = bearerToken(req);
    if (!token) return next();
    verify(token)
      .then((auth) => {
        res.locals.auth = auth;
        next();
      })
      .catch(next);
  };
}

// Admin routes may name a permission the ADMIN must hold (see holdsPermission: [] holds none).
export function assertPermission(auth: AuthContext, permission: AdminPermission): void {
  if (!holdsPermission(auth.permissions, permission)) throw new ForbiddenError(`Requires the admin permission ${permission}`).withCode('PERMISSION_REQUIRED');
}

// Hats follow roles (see users.model hatsFor); kept here so the platform has no module dependency.
export function hatUnlocked(roles: readonly Role[], hat: Hat): boolean {
  switch (hat) {
    case 'CON':
      return roles.includes('USER') && !roles.includes('DRIVER');
    case 'PAR':
      return roles.some((r) => r === 'PARTNER_OWNER' || r === 'PARTNER_STAFF' || r === 'LANDLORD' || r === 'DOCTOR');
    case 'DRV':
      return roles.includes('DRIVER');
    default:
      return roles.includes('ADMIN');
  }
}

// Consumer bookings (rides, orders, bookings) declare hat CON: the driver hat is exclusive.
export function assertHat(auth: AuthContext, hat: Hat): void {
  if (!hatUnlocked(auth.roles, hat)) {
    throw new ForbiddenError(hat === 'CON' ? 'Drivers cannot book on the consumer app' : `The ${hat} app is not unlocked for this account`).withCode(
      'HAT_LOCKED',
    );
  }
}
