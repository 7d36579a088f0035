import type { NextFunction, Request, Response } from 'express';
import type { AuthContext } from '../auth/access-token';
import type { BesideOutcome } from '../auth/guard';
import { BoundedMap } from '../../kits/memo/bounded-map';
import { answeredAtDeadline, handlerStarted } from './deadline';

// A route with `besideGuard` starts its handler as soon as the caller's token is verified by its signature, beside the
// session check and the per-user limit, so its first reads overlap them (one round trip less). The handler knows the
// caller (`ctx.caller`, the token's user id) and must await `ctx.admitted()` before its first write: it resolves with the
// caller's AuthContext once every guard let the request in (session, limit, roles, hat, permission), and rejects when
// the request is refused or its response ends first, and the handler's outcome is then dropped. A keyed request
// (Idempotency-Key) is not started early: its claim decides whether it runs at all (claimed-run.ts); nor is a caller
// its per-user limit refused in this window (a flood costs no reads), nor a request already answered.

/** What `ctx.admitted()` rejects with when the request was answered without the handler (never sent to the client). */
export class NotAdmittedError extends Error {
  constructor() {
    super('the request was not let in by its guards');
  }
}

interface EarlyRun<C> {
  ctx: C;
  /** The handler's outcome (never rejected unhandled). */
  result: Promise<unknown>;
  /** Every guard let the request in: the handler may write. */
  open(auth: AuthContext): void;
  /** The request is answered without the handler: its `admitted()` rejects. */
  refuse(): void;
}

const runs = new WeakMap<Response, EarlyRun<unknown>>();
/** Callers a session check refused lately (a revoked token gives its limit's hit back): not started early for a minute. */
const refusedLately = new BoundedMap<string, number>(10_000);
const REFUSED_FOR_MS = 60_000;

/** The run a `besideGuard` route started for this response, if it did. */
export function earlyRunOf<C>(res: Response): EarlyRun<C> | undefined {
  return runs.get(res) as EarlyRun<C> | undefined;
}

export interface BesideGuardRoute<C> {
  idempotent?: boolean | 'required';
  /** A caller not to start early (e.g. one its per-user limit refused in this window): its refusal costs no reads. */
  holdBack?(caller: { userId: string }): boolean;
  /** Builds the handler's context from the request (throws its 4xx: the request is then not started early). */
  context(req: Request, res: Response): C & { caller?: { userId: string }; admitted?: () => Promise<AuthContext> };
  handler(ctx: C): unknown;
}

/**
 * The guard's `beside` for a `besideGuard` route: starts the handler, then runs the route's own `beside` (a per-user
 * limit) if it has one, whose outcome the guard awaits as before.
 */
export function besideGuard<C>(route: BesideGuardRoute<C>, limit?: (caller: { userId: string }, res: Response) => Promise<BesideOutcome>) {
  return async (caller: { userId: string }, res: Response): Promise<BesideOutcome> => {
    startEarly(route, caller, res);
    const outcome = limit ? await limit(caller, res) : nothingToSettle;
    return {
      admitted: () => outcome.admitted(),
      refused: () => {
        refusedLately.set(caller.userId, Date.now() + REFUSED_FOR_MS);
        return outcome.refused();
      },
    };
  };
}

const nothingToSettle: BesideOutcome = { admitted: () => undefined, refused: () => Promise.resolve() };

function startEarly<C>(route: BesideGuardRoute<C>, caller: { userId: string }, res: Response): void {
  const req = res.req;
  if (runs.has(res) || (route.idempotent && req.get('idempotency-key') !== undefined) || route.holdBack?.(caller)) return;
  if ((refusedLately.get(caller.userId) ?? 0) > Date.now()) return;
  // Answered already (the deadline's 503 while the body was read, a client gone): its 'close' is past, so nothing would
  // ever settle the gate.
  if (answeredAtDeadline(res) || res.destroyed || res.writableEnded) return;
  let ctx: ReturnType<BesideGuardRoute<C>['context']>;
  try {
    ctx = route.context(req, res);
  } catch {
    return; // bad input is answered in its turn, after the guards (a refused caller learns nothing of its body)
  }
  let open!: (auth: AuthContext) => void;
  let refuse!: (err: Error) => void;
  const gate = new Promise<AuthContext>((resolve, reject) => {
    open = resolve;
    refuse = reject;
  });
  gate.catch(() => undefined);
  // Whatever answers the request first (a 401, a 429, a 403, the deadline's 503, a client gone) closes the gate.
  res.once('close', () => refuse(new NotAdmittedError()));
  ctx.caller = caller;
  ctx.admitted = () => gate;
  const settled = handlerStarted(res);
  const result = Promise.resolve().then(() => route.handler(ctx));
  result.then(settled, settled);
  result.catch(() => undefined);
  runs.set(res, { ctx, result, open, refuse: () => refuse(new NotAdmittedError()) });
}

/**
 * Answers a request whose handler started early, once every guard let it in: `checks` (the route's hat and permission),
 * then the gate opens and the handler's outcome is the answer. False when no handler started early for it.
 */
export function answerEarly(res: Response, checks: (auth: AuthContext) => void, respond: (result: unknown) => void, next: NextFunction): boolean {
  const early = runs.get(res);
  if (!early) return false;
  const auth = res.locals.auth as AuthContext;
  try {
    checks(auth);
  } catch (err) {
    early.refuse();
    next(err);
    return true;
  }
  // A client gone meanwhile: nothing is written for an answer nobody reads.
  if (res.destroyed) {
    early.refuse();
    return true;
  }
  early.open(auth);
  early.result.then(
    (value) => {
      try {
        respond(value);
      } catch (err) {
        next(err);
      }
    },
    (err: unknown) => {
      if (!(err instanceof NotAdmittedError)) next(err);
    },
  );
  return true;
}
