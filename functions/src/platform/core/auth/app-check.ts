import type { RequestHandler } from 'express';
import { AppError, ServiceUnavailableError } from '../errors/app-error';
import { firebaseApp } from '../firebase/firebase';
import { logger } from '../logging/logger';

// Firebase App Check on the routes our apps call (APP_CHECK): the X-Firebase-AppCheck header must hold a token
// attested for one of the project's apps, so scripts replaying the API with a stolen or made-up client get nothing.
//   off      nothing is checked (the default; the emulators have no App Check).
//   monitor  verified and logged when missing or invalid, never refused: shows which clients would be cut off.
//   enforce  401 APP_CHECK_REQUIRED (no header) or APP_CHECK_INVALID (not verified).
// Routes our apps do not call declare `appCheck: false` (health probes, gateways' IPNs and return pages, public
// file and shared-trip links opened by browsers, presigned uploads).

export type AppCheckMode = 'off' | 'monitor' | 'enforce';
export const APP_CHECK_HEADER = 'x-firebase-appcheck';

/** A token that does not verify (malformed, forged, expired, another project's). */
export class InvalidAppCheckToken extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidAppCheckToken';
  }
}

/** Resolves with the app the token was issued to; rejects with InvalidAppCheckToken, or anything else on a fault. */
export type AppCheckVerifier = (token: string) => Promise<{ appId: string }>;

// firebase-admin reports every token problem as app-check/invalid-argument or app-check/app-check-token-expired; a
// missing project id (app-check/invalid-credential) is our fault, not the client's.
const TOKEN_PROBLEMS = /app-check\/(invalid-argument|app-check-token-expired)$/;

type AdminVerify = (token: string) => Promise<{ appId: string }>;
const adminVerify: AdminVerify = (token) =>
  (require('firebase-admin/app-check') as typeof import('firebase-admin/app-check')).getAppCheck(firebaseApp()).verifyToken(token);

export function firebaseAppCheckVerifier(verifyToken: AdminVerify = adminVerify): AppCheckVerifier {
  return async (token) => {
    try {
      const { appId } = await verifyToken(token);
      return { appId };
    } catch (err) {
      const code = String((err as { code?: unknown }).code ?? '');
      if (TOKEN_PROBLEMS.test(code)) throw new InvalidAppCheckToken((err as Error).message);
      throw err;
    }
  };
}

// Monitor mode's log lines, sampled: a client without a token must not be able to write one line per request. Per
// guard (one per route) and instance, at most one line per reason ('missing' or 'invalid': never the verifier's
// message, which can quote what the client sent) per interval, carrying how many were let through unlogged since.
export const APP_CHECK_LOG_INTERVAL_MS = 60_000;

function monitorLog(now: () => number, intervalMs: number) {
  const last = new Map<'missing' | 'invalid', { at: number; suppressed: number }>();
  return (operation: string, reason: 'missing' | 'invalid', detail?: string) => {
    const t = now();
    const seen = last.get(reason);
    if (seen && t - seen.at < intervalMs) {
      seen.suppressed += 1;
      return;
    }
    last.set(reason, { at: t, suppressed: 0 });
    logger.warn('app check failed (APP_CHECK=monitor: let through)', {
      operation,
      reason,
      ...(detail === undefined ? {} : { detail: detail.slice(0, 200) }),
      suppressed: seen?.suppressed ?? 0,
      intervalSec: intervalMs / 1000,
    });
  };
}

export function appCheckGuard(
  mode: Exclude<AppCheckMode, 'off'>,
  verify: AppCheckVerifier,
  operation: string,
  clock: { now?: () => number; logIntervalMs?: number } = {},
): RequestHandler {
  const log = monitorLog(clock.now ?? Date.now, clock.logIntervalMs ?? APP_CHECK_LOG_INTERVAL_MS);
  return (req, res, next) => {
    const token = req.get(APP_CHECK_HEADER)?.trim();
    const refuse = (err: AppError, reason: 'missing' | 'invalid', detail?: string) => {
      if (mode === 'enforce') return next(err);
      log(operation, reason, detail);
      next();
    };
    if (!token) return refuse(new AppError(401, 'This operation needs an App Check token (X-Firebase-AppCheck)').withCode('APP_CHECK_REQUIRED'), 'missing');
    verify(token).then(
      ({ appId }) => {
        res.locals.appCheckAppId = appId;
        next();
      },
      (err: unknown) => {
        if (err instanceof InvalidAppCheckToken)
          return refuse(new AppError(401, 'The App Check token is not valid').withCode('APP_CHECK_INVALID'), 'invalid', err.message);
        // The keys could not be fetched, or the project is not set up: not the client's fault.
        logger.error('app check verification failed', { operation, err: err instanceof Error ? err.message : String(err) });
        if (mode === 'enforce') return next(new ServiceUnavailableError('App Check could not be verified; retry shortly'));
        next();
      },
    );
  };
}
