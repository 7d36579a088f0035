import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { AccessTokenVerifier, AuthContext } from '../auth/access-token';
import { assertHat, assertPermission, requireAuth } from '../auth/guard';
import type { AdminPermission, Hat, Role } from '../auth/roles';
import type { RateLimiter, RateLimitRule } from '../ratelimit/rate-limit';
import { UnsupportedMediaTypeError } from '../errors/app-error';
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
  auth: AuthContext | undefined;
  req: Request;
  res: Response;
  /** Overrides the documented success status for this response (e.g. 503 from a failing probe). */
  status(code: number): void;
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
  /** Per-client-IP limit, checked before validation and the handler. */
  rateLimit?: RateLimitRule;
  /** Error statuses this operation may return besides 400/401/403/500 implied by its shape. */
  errors?: number[];
  handler(ctx: HandlerContext<TBody, TQuery, TParams>): Promise<TResult> | TResult;
}

// Erases the generics so routes of different shapes fit in one list.
export type AnyRoute = RouteDefinition<any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function defineRoute<TBody, TQuery, TParams, TResult>(
  route: RouteDefinition<TBody, TQuery, TParams, TResult>,
): AnyRoute {
  return route as AnyRoute;
}

type Location = 'body' | 'query' | 'params';

// Validates every part of the request and reports all failures together.
function parseRequest(route: AnyRoute, req: Request): Record<Location, unknown> {
  const input: Record<Location, unknown> = { body: undefined, query: undefined, params: undefined };
  const failures: Array<{ error: z.ZodError; location: Location }> = [];
  for (const location of ['params', 'query', 'body'] as const) {
    const schema = route.request?.[location];
    if (!schema) continue;
    const parsed = schema.safeParse(req[location]);
    if (parsed.success) input[location] = parsed.data;
    else failures.push({ error: parsed.error, location });
  }
  if (failures.length > 0) throw validationErrorFromZod(failures);
  return input;
}

// One route = guard + validation + handler + response shaping, all from the same zod schemas.
export function toExpressHandlers(
  route: AnyRoute,
  deps: { verifyAccessToken: AccessTokenVerifier; rateLimiter: RateLimiter },
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
    Promise.resolve()
      .then(() => {
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
        return route.handler(ctx);
      })
      .then((result) => {
        if (route.response.binary) return;
        // The response schema strips anything the contract does not name (e.g. internal fields).
        const body = route.response.schema.parse(result);
        res.status(statusOverride ?? route.response.status ?? 200).json(body);
      })
      .catch(next);
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
