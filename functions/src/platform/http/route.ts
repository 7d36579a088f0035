import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { AccessTokenVerifier, AuthContext } from '../auth/access-token';
import { assertHat, assertPermission, requireAuth } from '../auth/guard';
import type { AdminPermission, Hat, Role } from '../auth/roles';
import type { RateLimiter, RateLimitRule } from '../ratelimit/rate-limit';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../errors/app-error';
import type { ErrorCode } from '../errors/codes';
import { isWellFormedText } from '../text';
import { IdempotencyKeySchema, recordId, requestHashOf, type Claim, type IdempotencyStore } from '../idempotency/idempotency';
import { validationErrorFromZod } from '../errors/zod-problems';
import { clientIp } from './client-ip';
import type { ApiTag } from '../openapi/tags';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

// 'public', or the roles allowed (an empty list: any authenticated user).
export type AuthRule = 'public' | readonly Role[];

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
}

export interface RouteDefinition<TBody = unknown, TQuery = unknown, TParams = unknown, TResult = unknown> {
  method: HttpMethod;
  /** Express-style path under /api/v1, e.g. `/users/admin/:id`. */
  path: string;
  tag: ApiTag;
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
   * A creation a retry could duplicate: an `Idempotency-Key` header makes it run once per key, caller and
   * operation (platform/idempotency); documented in OpenAPI with its 409 and 422. 'required': money moves, so a
   * request without the header is refused (400 IDEMPOTENCY_KEY_REQUIRED); the handler gets the key to derive ids.
   */
  idempotent?: boolean | 'required';
  /** Per-client-IP limit, checked before validation and the handler. */
  rateLimit?: RateLimitRule;
  /** Error statuses this operation may return besides 400/401/403/500 implied by its shape. */
  errors?: number[];
  /** Specific error codes this operation may answer (documented with their statuses in OpenAPI). */
  codes?: ErrorCode[];
  handler(ctx: HandlerContext<TBody, TQuery, TParams>): Promise<TResult> | TResult;
}

// Erases the generics so routes of different shapes fit in one list.
export type AnyRoute = RouteDefinition<any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function defineRoute<TBody, TQuery, TParams, TResult>(
  route: RouteDefinition<TBody, TQuery, TParams, TResult>,
): AnyRoute {
  return route as AnyRoute;
}

type Location = 'body' | 'query' | 'params' | 'headers';

// The first string (value or key) with half a surrogate pair, by its path: it has no UTF-8 form, so
// Firestore would refuse it deep inside a service (a 500). Refused at the edge instead.
function malformedTextAt(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return isWellFormedText(value) ? undefined : path;
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const at = `${path}.${key}`;
    if (!isWellFormedText(key)) return at;
    const found = malformedTextAt(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

// Validates every part of the request and reports all failures together.
function parseRequest(route: AnyRoute, req: Request): Record<Exclude<Location, 'headers'>, unknown> & { headers: Record<string, string | undefined> } {
  const malformed = malformedTextAt(req.body, 'body') ?? malformedTextAt(req.query, 'query');
  if (malformed) throw new ValidationError(`Validation failed: ${malformed}: text is not valid Unicode (a lone surrogate)`, [{ field: malformed, message: 'text is not valid Unicode (a lone surrogate)', code: 'invalid_text' }]);
  const input: Record<Location, unknown> = { body: undefined, query: undefined, params: undefined, headers: {} };
  const failures: Array<{ error: z.ZodError; location: Location }> = [];
  for (const location of ['params', 'headers', 'query', 'body'] as const) {
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
  deps: { verifyAccessToken: AccessTokenVerifier; rateLimiter: RateLimiter; idempotency?: IdempotencyStore },
): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  const rule = route.rateLimit;
  if (rule) {
    handlers.push((req, _res, next) => {
      deps.rateLimiter.hit(rule, clientIp(req)).then(() => next(), next);
    });
  }
  if (route.auth !== 'public') handlers.push(requireAuth(deps.verifyAccessToken, route.auth));
  handlers.push((req, res, next) => {
    let statusOverride: number | undefined;
    let claim: Extract<Claim, { kind: 'run' }> | undefined;
    let replayed = false;
    Promise.resolve()
      .then(async () => {
        if (route.request?.body && req.method !== 'GET') {
          // A bodiless request validates as `{}`, so optional-only bodies (e.g. logout) need no JSON at all.
          if (!hasBody(req)) req.body = {};
          else if (!req.is(['application/json', 'application/*+json'])) {
            throw new UnsupportedMediaTypeError('Content-Type must be application/json');
          }
        }
        if (route.permission && res.locals.auth) assertPermission(res.locals.auth as AuthContext, route.permission);
        if (route.hat && res.locals.auth) assertHat(res.locals.auth as AuthContext, route.hat);
        const ctx: HandlerContext<unknown, unknown, unknown> = {
          ...parseRequest(route, req),
          auth: res.locals.auth as AuthContext | undefined,
          req,
          res,
          status: (code) => {
            statusOverride = code;
          },
        };
        const key = route.idempotent ? req.get('idempotency-key') : undefined;
        if (key === undefined && route.idempotent === 'required') {
          throw new BadRequestError('This operation moves money: send an Idempotency-Key header (any unique string, reused on retries)', [{ field: 'headers.idempotency-key', message: 'is required' }]).withCode('IDEMPOTENCY_KEY_REQUIRED');
        }
        if (key !== undefined) {
          const parsedKey = IdempotencyKeySchema.safeParse(key);
          if (!parsedKey.success) throw validationErrorFromZod([{ error: parsedKey.error, location: 'headers.idempotency-key' }]);
          ctx.idempotencyKey = key;
        }
        if (key !== undefined && deps.idempotency) {
          const caller = ctx.auth?.userId ?? `ip:${clientIp(req)}`;
          const claimed = await deps.idempotency.claim(recordId(caller, `${route.method} ${route.path}`, key), requestHashOf([ctx.params, ctx.body]), Date.now());
          if (claimed.kind === 'replay') {
            replayed = true;
            res.status(claimed.answer.status).set('Idempotent-Replayed', 'true').json(claimed.answer.body);
            return undefined;
          }
          claim = claimed;
        }
        return route.handler(ctx);
      })
      .then(async (result) => {
        if (replayed || route.response.binary) return;
        // The response schema strips anything the contract does not name (e.g. internal fields).
        const body = route.response.schema.parse(result);
        const status = statusOverride ?? route.response.status ?? 200;
        if (claim) await deps.idempotency!.complete(claim.id, claim.token, { status, body }, Date.now());
        if (status === 204) res.status(204).end();
        else res.status(status).json(body);
      })
      .catch(async (err: unknown) => {
        // A failed run frees its key: nothing was created, so the client may retry it.
        if (claim) await deps.idempotency!.release(claim.id, claim.token).catch(() => undefined);
        next(err);
      });
  });
  return handlers;
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function toOpenApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
