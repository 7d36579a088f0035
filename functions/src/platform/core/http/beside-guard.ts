import type { Request, Response } from 'express';
import type { AuthContext } from '../auth/access-token';
import type { BesideOutcome } from '../auth/guard';
import { handlerStarted } from './deadline';

// A route with `besideGuard` starts its handler as soon as the caller's token is verified by its signature, beside the
// session check and the per-user limit, so its first reads overlap them (one round trip less). The handler knows the
// caller (`ctx.caller`, the token's user id) and must await `ctx.admitted()` before its first write: it resolves with the
// caller's AuthContext once every guard let the request in (session, limit, roles, hat, permission), and rejects when
// the request is refused or its response ends first, and the handler's outcome is then dropped. A keyed request
// (Idempotency-Key) is not started early: its claim decides whether it runs at all (claimed-run.ts).

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

/** The run a `besideGuard` route started for this response, if it did. */
export function earlyRunOf<C>(res: Response): EarlyRun<C> | undefined {
  return runs.get(res) as EarlyRun<C> | undefined;
}

export interface BesideGuardRoute<C> {
  idempotent?: boolean | 'required';
  /** Builds the handler's context from the request (throws its 4xx: the request is then not started early). */
  context(req: Request, res: Response): C & { caller?: { userId: string }; admitted?: () => Promise<AuthContext> };
  handler(ctx: C): unknown;
}

/**
 * The guard's `beside` for a `besideGuard` route: starts the handler, then runs the route's own `beside` (a per-user
 * limit) if it has one, whose outcome the guard awaits as before.
 */
export function besideGuard<C>(route: BesideGuardRoute<C>, limit?: (caller: { userId: string }, res: Response) => Promise<BesideOutcome>) {
  return (caller: { userId: string }, res: Response): Promise<BesideOutcome> => {
    startEarly(route, caller, res);
    return limit ? limit(caller, res) : Promise.resolve(nothingToSettle);
  };
}

const nothingToSettle: BesideOutcome = { admitted: () => undefined, refused: () => Promise.resolve() };

function startEarly<C>(route: BesideGuardRoute<C>, caller: { userId: string }, res: Response): void {
  const req = res.req;
  if (runs.has(res) || (route.idempotent && req.get('idempotency-key') !== undefined)) return;
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
