import express, { type Express, type RequestHandler } from 'express';
import { getConfig, type AppConfig } from './platform/core/config';
import type { AccessTokenVerifier } from './platform/core/auth/access-token';
import { firebaseAppCheckVerifier, type AppCheckVerifier } from './platform/core/auth/app-check';
import { errorHandler, notFoundHandler } from './platform/core/errors/error-handler';
import { corsFromOrigins } from './platform/core/http/cors';
import { jsonBody } from './platform/core/http/json-body';
import { requestContext } from './platform/core/http/request-context';
import { createClientIpResolver } from './platform/core/http/client-ip';
import { requestDeadline } from './platform/core/http/deadline';
import type { ApiModule, AppContext } from './platform/core/http/module';
import { toExpressHandlers, type AnyRoute } from './platform/core/http/route';
import { API_PREFIX, buildOpenApiDocument } from './platform/core/openapi/document';
import { LISTENED_DOCUMENTS, MODULES } from './modules';
import { createRequestVerifier } from './modules/auth';
import { createRateLimiter, memoryRateLimitStore, type RateLimiter } from './platform/core/ratelimit/rate-limit';
import { firestoreRateLimitStore } from './platform/core/ratelimit/rate-limit.store';
import { API_VERSION } from './version';
import { firestoreIdempotencyStore, type IdempotencyStore } from './platform/kits/idempotency/idempotency';
import { logger } from './platform/core/logging/logger';
import { useCursorSecret } from './platform/kits/firestore/paginate';
import { useDefaultLocale } from './platform/kits/i18n/default-locale';

export interface CreateAppOptions {
  config?: Readonly<AppConfig>;
  verifyAccessToken?: AccessTokenVerifier;
  rateLimiter?: RateLimiter;
  /** The limiter of rules counted per instance (`counted: 'instance'`); in this instance's memory by default. */
  instanceRateLimiter?: RateLimiter;
  idempotency?: IdempotencyStore;
  modules?: readonly ApiModule[];
  /** App Check token verification (APP_CHECK); firebase-admin's by default. */
  verifyAppCheckToken?: AppCheckVerifier;
}

export interface BuiltApp {
  app: Express;
  routes: AnyRoute[];
  openApiDocument(): Record<string, unknown>;
}

// One factory for Cloud Functions, the plain node server (benchmarks, Cloud Run) and tests.
export function buildApp(options: CreateAppOptions = {}): BuiltApp {
  const config = options.config ?? getConfig();
  useCursorSecret(config.JWT_SECRET);
  useDefaultLocale(config.DEFAULT_LOCALE);
  const ctx: AppContext = {
    config,
    verifyAccessToken: options.verifyAccessToken ?? createRequestVerifier(config),
    rateLimiter: options.rateLimiter ?? createRateLimiter(firestoreRateLimitStore(), Date.now, config.RATE_LIMITS),
    idempotency: options.idempotency ?? firestoreIdempotencyStore(),
  };
  const routes = (options.modules ?? MODULES).flatMap((module) => module.routes?.(ctx) ?? []);
  const scopes = new Set(routes.flatMap((route) => (route.rateLimit ? [route.rateLimit.scope] : [])));
  const unknown = Object.keys(config.RATE_LIMITS).filter((scope) => !scopes.has(scope));
  if (unknown.length > 0) logger.warn('RATE_LIMITS names scopes no route uses', { unknown, known: [...scopes].sort() });

  let document: Record<string, unknown> | undefined;
  const openApiDocument = () => (document ??= buildOpenApiDocument(routes, API_VERSION));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('etag', false);
  app.use(
    requestContext({
      logRequests: config.LOG_REQUESTS,
      clientIp: createClientIpResolver({ source: config.CLIENT_IP_SOURCE, hostingEdges: config.HOSTING_EDGE_RANGES }),
    }),
  );
  app.use(requestDeadline(config.REQUEST_DEADLINE_MS, config.DEADLINE_OVERDUE_LIMIT));
  app.use(corsFromOrigins(config.CORS_ORIGINS));
  app.use(jsonBody(config.JSON_BODY_LIMIT_BYTES));

  // One sub-router per first path segment, found by a map lookup: a request is matched against its area's
  // routes only, not against every route (or every area) of the API in turn.
  const areas = new Map<string, express.Router>();
  const appCheck = { mode: config.APP_CHECK, verify: options.verifyAppCheckToken ?? firebaseAppCheckVerifier() };
  const instanceRateLimiter = options.instanceRateLimiter ?? createRateLimiter(memoryRateLimitStore(), Date.now, config.RATE_LIMITS);
  const handlerDeps = { ...ctx, instanceRateLimiter, uploadDeadlineMs: config.UPLOAD_DEADLINE_MS, appCheck, edgeLimitFactor: config.HOSTING_EDGE_LIMIT_FACTOR };
  for (const route of routes) {
    if (route.availability && !route.availability.enabled) continue;
    const segment = route.path.split('/')[1];
    let area = areas.get(segment);
    if (!area) {
      area = express.Router({ strict: false, mergeParams: true });
      areas.set(segment, area);
    }
    area[route.method](route.path.slice(segment.length + 1) || '/', ...toExpressHandlers(route, handlerDeps));
  }
  app.use(API_PREFIX, areaDispatcher(areas));

  app.get('/docs-json', docsGate(config), (_req, res) => {
    res.json(openApiDocument());
  });
  // The Firestore half of the contract (the documents apps listen to): the files openapi/ holds, rendered on first use.
  // Cached by file, not by req.path: Express matches any case and a trailing slash, so paths are unbounded.
  const firestoreContract: { json?: string; types?: string } = {};
  app.get(['/docs/firestore.schema.json', '/docs/firestore-documents.d.ts'], docsGate(config), (req, res) => {
    const { renderFirestoreSchema, renderFirestoreTypes } = require('./platform/core/openapi/firestore') as typeof import('./platform/core/openapi/firestore');
    if (/\.json\/?$/i.test(req.path)) {
      firestoreContract.json ??= renderFirestoreSchema(LISTENED_DOCUMENTS);
      res.type('application/schema+json').send(firestoreContract.json);
    } else {
      firestoreContract.types ??= renderFirestoreTypes(LISTENED_DOCUMENTS);
      res.type('text/plain').send(firestoreContract.types);
    }
  });
  app.use('/docs', docsGate(config), swaggerUi(openApiDocument));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return { app, routes, openApiDocument };
}

export function createApp(options: CreateAppOptions = {}): Express {
  return buildApp(options).app;
}

// What `router.use('/<segment>', area)` does, without testing each area's prefix in turn: the area sees the
// path below its segment (req.url, req.baseUrl as Express sets them) and both are restored when it passes on.
function areaDispatcher(areas: ReadonlyMap<string, express.Router>): RequestHandler {
  return (req, res, next) => {
    const url = req.url;
    const end = url.indexOf('/', 1);
    const queryAt = url.indexOf('?');
    const segmentEnd = end === -1 || (queryAt !== -1 && queryAt < end) ? (queryAt === -1 ? url.length : queryAt) : end;
    // Lower-cased: Express matches paths case-insensitively, and did so for these prefixes.
    const area = url.startsWith('/') ? areas.get(url.slice(1, segmentEnd).toLowerCase()) : undefined;
    if (!area) return next();
    const baseUrl = req.baseUrl;
    req.baseUrl = baseUrl + url.slice(0, segmentEnd);
    req.url = url.slice(segmentEnd) || '/';
    if (req.url.startsWith('?')) req.url = `/${req.url}`;
    const done = (err?: unknown) => {
      req.url = url;
      req.baseUrl = baseUrl;
      next(err as Error | undefined);
    };
    if (!FAST_METHODS.has(req.method) || !runMatchedRoute(area, req, res, done)) area(req, res, done);
  };
}

// Express's router walks its layers with a closure set per request (next, restore, params). An area holds routes
// only (no router.use), so for the plain methods the matching route's own handlers are run directly, matched by
// the router's own layers (same paths, case-insensitivity and parameter decoding); HEAD, OPTIONS and anything
// unmatched still go through the router.
const FAST_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
interface RouterLayer {
  match(path: string): boolean;
  params: Record<string, string>;
  route?: { methods: Record<string, boolean>; stack: Array<{ handle: RequestHandler }> };
}

function runMatchedRoute(area: express.Router, req: express.Request, res: express.Response, done: (err?: unknown) => void): boolean {
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const method = req.method.toLowerCase();
  for (const layer of (area as unknown as { stack: RouterLayer[] }).stack) {
    let matched: boolean;
    try {
      matched = layer.match(path);
    } catch (err) {
      done(err); // a parameter that cannot be decoded (URIError): the error handler answers 404
      return true;
    }
    if (!matched || !layer.route?.methods[method]) continue;
    req.params = layer.params;
    const handlers = layer.route.stack;
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return done(err);
      const layerHandler = handlers[i++];
      if (!layerHandler) return done();
      try {
        layerHandler.handle(req, res, step);
      } catch (thrown) {
        done(thrown);
      }
    };
    step();
    return true;
  }
  return false;
}

function docsGate(config: Readonly<AppConfig>): RequestHandler {
  // Switched off, the docs look like any unknown route.
  return (req, res, next) => (config.SWAGGER_ENABLED ? next() : notFoundHandler(req, res, next));
}

// swagger-ui-express (and its bundled assets) are loaded on the first /docs request only.
function swaggerUi(openApiDocument: () => Record<string, unknown>): RequestHandler {
  let handlers: RequestHandler[] | undefined;
  return (req, res, next) => {
    if (!handlers) {
      const ui = require('swagger-ui-express') as typeof import('swagger-ui-express');
      handlers = [...ui.serve, ui.setup(openApiDocument(), { customSiteTitle: 'Super-app API docs' })];
    }
    const chain = handlers;
    const run = (i: number): void => {
      if (i >= chain.length) return next();
      chain[i](req, res, (err?: unknown) => (err ? next(err) : run(i + 1)));
    };
    run(0);
  };
}
