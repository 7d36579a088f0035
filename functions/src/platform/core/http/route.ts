import { costCountingMiddleware, countingCosts } from '../deploy/cost-log';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { AccessTokenVerifier, AuthContext } from '../auth/access-token';
import { assertHat, assertPermission, optionalAuth, requireAuth } from '../auth/guard';
import type { AdminPermission, Hat, Role } from '../auth/roles';
import { sendRateLimitHeaders, type RateLimiter, type RateLimitRule } from '../ratelimit/rate-limit';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../errors/app-error';
import type { ErrorCode } from '../errors/codes';
import { isWellFormedText } from '../../kits/text/text';
import { IdempotencyKeySchema, type IdempotencyStore } from '../../kits/idempotency/idempotency';
import { answerEarly, besideGuard, earlyRunOf } from './beside-guard';
import { runClaimed } from './claimed-run';
import { perUserRateLimit } from './per-user-limit';
import { hasBody, isJsonContentType } from './json-body';
import { sendJson } from './send-json';
import { validationErrorFromZod } from '../errors/zod-problems';
import { clientEdge, clientIp, ipRateLimitSubject } from './client-ip';
import { appCheckGuard, type AppCheckMode, type AppCheckVerifier } from '../auth/app-check';
import { answeredAtDeadline, handlerStarted, useUploadDeadline } from './deadline';
import type { ApiTag } from '../openapi/tags';
import type { AnswerInCommit } from '../../kits/idempotency/idempotency';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

// 'public'; 'optional': public, but a bearer token, when sent, is verified (401 if it does not) and handed to the
// handler (operations that act for a signed-in caller on some inputs); or the roles allowed (an empty list: any
// authenticated user).
export type AuthRule = 'public' | 'optional' | readonly Role[];

export interface HandlerContext<TBody, TQuery, TParams> {
  body: TBody;
  query: TQuery;
  params: TParams;
  /** The validated `request.headers` (unknown headers dropped); `{}` when the route declares none. */
  headers: Record<string, string | undefined>;
  auth: AuthContext | undefined;
  req: Request;
  res: Response;
  /** Overrides the documented success status for this response (e.g. 503 from a failing probe). */
  status(code: number): void;
  /** The request's Idempotency-Key (routes with `idempotent`); always set when it is 'required'. */
  idempotencyKey?: string;
  /**
   * Routes with `claimBeside`: resolves once this request holds its key's claim (at once without an idempotency
   * store) and its per-user rate limit admitted it; the handler awaits it before its first write. It rejects when the
   * request does not run, and the handler's outcome is dropped: a replay or a deadline answer (ClaimNotHeldError),
   * the claim's 409 or 422, or the limit's 429.
   */
  claimed?: () => Promise<void>;
  /** The caller the token names (authenticated routes): with `besideGuard`, known before the session is checked. */
  caller?: { userId: string };
  /**
   * Authenticated routes: resolves with the caller's AuthContext once every guard let the request in (at once unless
   * the handler started beside the guards: `besideGuard`), which awaits it before its first write. It rejects (NotAdmittedError) when the request was refused or answered first, and
   * the handler's outcome is then dropped (beside-guard.ts).
   */
  admitted?: () => Promise<AuthContext>;
  /**
   * Idempotent runs (an Idempotency-Key, claimed fresh): stores `result`, as the route answers it (its schema, and the
   * status as set by then), as the key's answer in the handler's own transaction, so nothing is written after its
   * commit; `return answerInCommit(tx, result)` from the transaction and return that very object from the handler
   * (each attempt builds its own): that return is the sign its transaction committed. Any other return is stored after,
   * as usual (a failed conditional update, then a transaction). A claim written since (a renewal, 20 s into a run)
   * fails the commit whole (a 500; nothing kept, the key freed). Absent without a key or with a store that cannot (the
   * memory store); a no-op where the claim was not a fresh create.
   */
  answerInCommit?: AnswerInCommit;
}

/**
 * What a service called by a `claimBeside` route needs of the request's run, handed on as one object: `claimed` to
 * await before its first write (required, so no caller can forget it), and the context's `answerInCommit` if any.
 */
export type ClaimedRun = Required<Pick<HandlerContext<unknown, unknown, unknown>, 'claimed'>> &
  Pick<HandlerContext<unknown, unknown, unknown>, 'answerInCommit'>;

export interface RouteDefinition<TBody = unknown, TQuery = unknown, TParams = unknown, TResult = unknown> {
  method: HttpMethod;
  /** Express-style path under /api/v1, e.g. `/users/admin/:id`. */
  path: string;
  /**
   * The OpenAPI operationId generated clients name their method after: camelCase, named after the action
   * (`createRide`, `listMyRides`), never derived from the path, unique in the API; `admin…` for `/admin` paths.
   * Stable: renaming it breaks every generated client.
   */
  operationId: string;
  /** This route is a compatibility alias of the operation with that operationId: documented as deprecated, pointing at it. */
  aliasOf?: string;
  tag: ApiTag;
  /** More tags it is listed under (an operation several areas share, such as `GET /bookings` for every booking vertical). */
  alsoTags?: readonly ApiTag[];
  summary: string;
  description?: string;
  auth: AuthRule;
  /** A route switched off by configuration is not mounted (404) but stays documented with its note. */
  availability?: { enabled: boolean; note: string };
  request?: {
    body?: z.ZodType<TBody>;
    query?: z.ZodType<TQuery>;
    params?: z.ZodType<TParams>;
    /** Request headers the operation reads (lower-case names), e.g. `idempotency-key`; 400 when invalid. */
    headers?: z.ZodObject;
  };
  /** `binary`: the handler writes the bytes itself (e.g. a file download); documented with those content types. */
  response: { status?: number; description: string; schema: z.ZodType<TResult>; binary?: readonly string[] };
  /** Extra documented responses, e.g. `{ 503: { description, schema } }`. */
  otherResponses?: Record<number, { description: string; schema?: z.ZodType }>;
  /** The app the operation belongs to: the caller must have that hat unlocked (e.g. CON for consumer bookings, which drivers lack). */
  hat?: Hat;
  /** Admin permission required besides the roles (see ADMIN_PERMISSIONS). */
  permission?: AdminPermission;
  /** Documents a multipart/form-data body, which the handler parses itself (parseMultipart). */
  multipart?: z.ZodType;
  /**
   * The handler streams a raw upload body itself; like `multipart`, the request counts against UPLOAD_DEADLINE_MS.
   * Documented as a binary body of these content types.
   */
  streamsBody?: { contentTypes: readonly string[]; description: string };
  /**
   * A creation a retry could duplicate: an `Idempotency-Key` header makes it run once per key, caller and
   * operation (platform/kits/idempotency); documented in OpenAPI with its 409 and 422. 'required': money moves, so a
   * request without the header is refused (400 IDEMPOTENCY_KEY_REQUIRED); the handler gets the key to derive ids.
   */
  idempotent?: boolean | 'required';
  /**
   * With `idempotent: 'required'`: the handler starts beside the key's claim and must await `ctx.claimed()` before its
   * first write (nothing checks that it does: review it like a transaction), so its reads (pricing a cart) overlap the
   * claim's round trip. Its answer counts only when the claim is held.
   */
  claimBeside?: boolean;
  /**
   * The handler starts once the token's signature is verified, beside the session check and the per-user limit (its
   * first reads overlap theirs); it gets `ctx.caller`, not `ctx.auth`, and must await `ctx.admitted()` before its first
   * write (nothing checks that it does: review it like a transaction). A keyed request starts after its claim as usual.
   */
  besideGuard?: boolean;
  /** Per-client-IP (or, with `per: 'user'`, per-caller) limit, checked before validation and the handler. */
  rateLimit?: RateLimitRule;
  /** `false`: not called by our apps (probes, gateways, links opened in a browser), so no App Check token (APP_CHECK). */
  appCheck?: false;
  /** Error statuses this operation may return besides 400/401/403/500 implied by its shape. */
  errors?: number[];
  /** Specific error codes this operation may answer (documented with their statuses in OpenAPI). */
  codes?: ErrorCode[];
  handler(ctx: HandlerContext<TBody, TQuery, TParams>): Promise<TResult> | TResult;
}

/** The names of an operation, for helpers that build routes from a few arguments. */
export type OperationNames = Pick<RouteDefinition, 'operationId' | 'aliasOf'>;

// Erases the generics so routes of different shapes fit in one list.
export type AnyRoute = RouteDefinition<any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function defineRoute<TBody, TQuery, TParams, TResult>(route: RouteDefinition<TBody, TQuery, TParams, TResult>): AnyRoute {
  return route as AnyRoute;
}

type Location = 'body' | 'query' | 'params' | 'headers';

// The first string (value or key) with half a surrogate pair, by its path: it has no UTF-8 form, so
// Firestore would refuse it deep inside a service (a 500). Refused at the edge instead.
function malformedTextAt(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  const record = value as Record<string, unknown>;
  // Paths are built only for what is descended into or reported: this runs on every request (Object.keys, not
  // for…in: a profile of the P2 load put the for…in walk at a tenth of the stack's time).
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!isWellFormedText(key)) return `${path}.${key}`;
    const inner = record[key];
    if (typeof inner === 'string') {
      if (!isWellFormedText(inner)) return `${path}.${key}`;
    } else if (inner !== null && typeof inner === 'object') {
      const found = malformedTextAt(inner, `${path}.${key}`, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

// Validates every part of the request and reports all failures together.
const LOCATIONS = ['params', 'headers', 'query', 'body'] as const;

function parseRequest(route: AnyRoute, req: Request): Record<Exclude<Location, 'headers'>, unknown> & { headers: Record<string, string | undefined> } {
  const malformed = malformedTextAt(req.body, 'body') ?? malformedTextAt(req.query, 'query');
  if (malformed)
    throw new ValidationError(`Validation failed: ${malformed}: text is not valid Unicode (a lone surrogate)`, [
      { field: malformed, message: 'text is not valid Unicode (a lone surrogate)', code: 'invalid_text' },
    ]);
  const input: Record<Location, unknown> = { body: undefined, query: undefined, params: undefined, headers: {} };
  const failures: Array<{ error: z.ZodError; location: Location }> = [];
  for (const location of LOCATIONS) {
    const schema = route.request?.[location];
    if (!schema) continue;
    const parsed = schema.safeParse(req[location]);
    if (parsed.success) input[location] = parsed.data;
    else failures.push({ error: parsed.error, location });
  }
  // A path id that cannot exist names nothing: 404, as for an id that is merely unknown.
  if (failures.some((f) => f.location === 'params')) throw new NotFoundError(`Cannot ${req.method} ${req.originalUrl.split('?')[0]}: no such resource`);
  if (failures.length > 0) throw validationErrorFromZod(failures);
  return { ...input, headers: input.headers as Record<string, string | undefined> };
}

// One route = guard + validation + handler + response shaping, all from the same zod schemas.
export function toExpressHandlers(
  route: AnyRoute,
  deps: {
    verifyAccessToken: AccessTokenVerifier;
    rateLimiter: RateLimiter;
    /** The limiter of rules counted per instance (`counted: 'instance'`), in this instance's memory. */
    instanceRateLimiter?: RateLimiter;
    idempotency?: IdempotencyStore;
    uploadDeadlineMs?: number;
    appCheck?: { mode: AppCheckMode; verify: AppCheckVerifier };
    /** HOSTING_EDGE_LIMIT_FACTOR: per-IP limits also count the Hosting edge, at this multiple of the limit (0: not). */
    edgeLimitFactor?: number;
  },
): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  // npm test counts what each operation costs in Firestore reads and writes (the cost budgets), from its first step.
  if (countingCosts()) handlers.push(costCountingMiddleware(route.operationId) as unknown as RequestHandler);
  // First: a request without an attested app costs no rate-limit write, session lookup or validation.
  if (deps.appCheck && deps.appCheck.mode !== 'off' && route.appCheck !== false)
    handlers.push(appCheckGuard(deps.appCheck.mode, deps.appCheck.verify, `${route.method.toUpperCase()} ${route.path}`));
  const uploadDeadlineMs = deps.uploadDeadlineMs;
  if (uploadDeadlineMs !== undefined && (route.multipart || route.streamsBody)) {
    handlers.push((_req, res, next) => {
      useUploadDeadline(res, uploadDeadlineMs);
      next();
    });
  }
  // claimBeside: every request has a key (so `ctx.claimed` is always there); an idempotent binary answer is never stored.
  if (route.claimBeside && route.idempotent !== 'required')
    throw new Error(`${route.method.toUpperCase()} ${route.path}: claimBeside needs idempotent: 'required'`);
  if (
    route.besideGuard &&
    (!Array.isArray(route.auth) || route.claimBeside || route.idempotent === 'required' || route.multipart || route.streamsBody || route.response.binary)
  )
    throw new Error(`${route.method.toUpperCase()} ${route.path}: besideGuard needs an authenticated JSON route whose key is not required`);
  if (route.idempotent && route.response.binary) throw new Error(`${route.method.toUpperCase()} ${route.path}: a binary answer cannot be idempotent`);
  const rule = route.rateLimit;
  const edgeFactor = deps.edgeLimitFactor ?? 0;
  const limiter = rule?.counted === 'instance' ? deps.instanceRateLimiter : deps.rateLimiter;
  if (rule && !limiter) throw new Error(`${route.method.toUpperCase()} ${route.path}: a limit counted per instance needs the instance's limiter`);
  if (rule && limiter && rule.per !== 'user') {
    handlers.push((req, res, next) => {
      const edge = edgeFactor > 0 ? clientEdge(req) : undefined;
      limiter.hit(rule, ipRateLimitSubject(clientIp(req)), edge === undefined ? undefined : { subject: `edge:${edge}`, factor: edgeFactor }).then((state) => {
        sendRateLimitHeaders(res, state);
        next();
      }, next);
    });
  }
  // Per-user limits count the caller of a validly signed token (a bad token is a 401, never a hit) beside the session
  // check; a revoked session's request (401) takes its hit back, a refused role's (403) keeps it.
  if (rule && limiter && rule.per === 'user' && !Array.isArray(route.auth))
    throw new Error(`${route.method.toUpperCase()} ${route.path}: a per-user rate limit needs an authenticated route`);
  // A keyed request awaits the limit's verdict with its claim (per-user-limit.ts).
  const perUser = rule && limiter && rule.per === 'user' ? perUserRateLimit(route, rule, limiter, deps.idempotency !== undefined) : undefined;
  if (route.auth === 'optional') handlers.push(optionalAuth(deps.verifyAccessToken));
  else if (route.auth !== 'public') {
    // The early start's context takes a status the handler sets (e.g. a 503 probe) from where the answer reads it.
    const early = route.besideGuard
      ? besideGuard(
          {
            // Without a store of keys, a keyed request runs as any other (no claim decides it).
            idempotent: deps.idempotency !== undefined && route.idempotent,
            holdBack: perUser && ((caller) => perUser.refusedNow(caller.userId)),
            context: (req, res) => handlerContext(route, req, res, (code) => void (res.locals.earlyStatus = code)),
            handler: route.handler,
          },
          perUser?.beside,
        )
      : perUser?.beside;
    handlers.push(requireAuth(deps.verifyAccessToken, route.auth, early));
  }
  handlers.push((req, res, next) => {
    // A guard that stalled past the deadline (rate limiter, session lookup): the 503 went out, so work that had
    // not started never starts (the client's retry runs it).
    if (answeredAtDeadline(res)) {
      earlyRunOf(res)?.refuse();
      return;
    }
    let statusOverride: number | undefined;
    const respond = (result: unknown) => {
      if (route.response.binary) return;
      // The response schema strips anything the contract does not name (e.g. internal fields).
      const body = route.response.schema.parse(result);
      sendJson(res, statusOverride ?? (res.locals.earlyStatus as number | undefined) ?? route.response.status ?? 200, body);
    };
    // Started beside the guards, which all let the caller in: the route's last checks, then its writes may go.
    if (route.besideGuard && answerEarly(res, (auth) => assertAccess(route, auth), respond, next)) return;
    let ctx: HandlerContext<unknown, unknown, unknown>;
    try {
      ctx = handlerContext(route, req, res, (code) => {
        statusOverride = code;
      });
    } catch (err) {
      // Over its limit, a request is refused as such before its input is judged (a keyed one learns it only now).
      const verdict = perUser?.verdictOf(res);
      if (verdict) verdict.then(() => next(err), next);
      else next(err);
      return;
    }
    const settled = handlerStarted(res);
    if (route.claimBeside) ctx.claimed = () => Promise.resolve();
    if (ctx.idempotencyKey !== undefined && deps.idempotency) {
      runClaimed(route, deps.idempotency, req, res, ctx, () => statusOverride, perUser?.verdictOf(res)).then(settled, (err: unknown) => {
        settled();
        next(err);
      });
      return;
    }
    // Synchronous handlers answer without a promise hop; asynchronous ones once they settle.
    try {
      const result = route.handler(ctx);
      if (isPromiseLike(result)) {
        result.then(
          (value) => {
            settled();
            try {
              respond(value);
            } catch (err) {
              next(err);
            }
          },
          (err: unknown) => {
            settled();
            next(err);
          },
        );
      } else {
        settled();
        respond(result);
      }
    } catch (err) {
      settled();
      next(err);
    }
  });
  return handlers;
}

// A route open to partners (or users) and administrators guards only its admin path with the permission: a caller
// holding one of the route's other roles passes here, and the service checks the permission where it acts as admin.
function actsInAnotherRole(route: AnyRoute, auth: AuthContext): boolean {
  return Array.isArray(route.auth) && route.auth.some((role) => role !== 'ADMIN' && auth.roles.includes(role));
}

// The route's permission and hat, for a caller the guard let in.
function assertAccess(route: AnyRoute, auth: AuthContext): void {
  if (route.permission && !actsInAnotherRole(route, auth)) assertPermission(auth, route.permission);
  if (route.hat) assertHat(auth, route.hat);
}

// Validates the request and builds what the handler receives (throws the 4xx errors).
function handlerContext(route: AnyRoute, req: Request, res: Response, status: (code: number) => void): HandlerContext<unknown, unknown, unknown> {
  if (route.request?.body && req.method !== 'GET') {
    // A bodiless request validates as `{}`, so optional-only bodies (e.g. logout) need no JSON at all.
    if (!hasBody(req)) req.body = {};
    else if (!isJsonContentType(req.headers['content-type'])) throw new UnsupportedMediaTypeError('Content-Type must be application/json');
  }
  const auth = res.locals.auth as AuthContext | undefined;
  if (auth) assertAccess(route, auth);
  // `besideGuard` handlers learn the AuthContext from `admitted()` alone, however they were started.
  const ctx: HandlerContext<unknown, unknown, unknown> = { ...parseRequest(route, req), auth: route.besideGuard ? undefined : auth, req, res, status };
  if (auth) ctx.caller = { userId: auth.userId };
  // Let in already: a handler written for `besideGuard` runs the same without it (or for a keyed request).
  if (auth) ctx.admitted = () => Promise.resolve(auth);
  const key = route.idempotent ? req.get('idempotency-key') : undefined;
  if (key === undefined && route.idempotent === 'required') {
    throw new BadRequestError('This operation moves money: send an Idempotency-Key header (any unique string, reused on retries)', [
      { field: 'headers.idempotency-key', message: 'is required' },
    ]).withCode('IDEMPOTENCY_KEY_REQUIRED');
  }
  if (key !== undefined) {
    const parsedKey = IdempotencyKeySchema.safeParse(key);
    if (!parsedKey.success) throw validationErrorFromZod([{ error: parsedKey.error, location: 'headers.idempotency-key' }]);
    ctx.idempotencyKey = key;
  }
  return ctx;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
