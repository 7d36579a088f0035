import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorBodySchema } from '../errors/error-body';
import { IdempotencyKeySchema } from '../../kits/idempotency/idempotency';
import { ERROR_CODES, generalCode, type ErrorCode } from '../errors/codes';
import { toOpenApiPath, type AnyRoute } from '../http/route';
import { moduleRegistry } from '../module/module';
import { apiTagTable, type ApiTag } from './tags';

export const API_PREFIX = '/api/v1';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: a field that fails validation (each field is named in `details`), or malformed JSON. On Cloud Functions (and its emulator) malformed JSON is refused by the platform before the API runs: that 400 has an HTML (non-JSON) body, so clients must not assume JSON on every 400.',
  403: 'The caller lacks a required role or admin permission.',
  404: 'Not found, hidden by configuration, or a path id that cannot exist.',
  409: 'Conflicts with the current state.',
  413: 'Request body too large.',
  415: 'Unsupported Content-Type.',
  422: 'The Idempotency-Key was already used with another request body.',
  429: 'Rate limited; see Retry-After.',
  500: 'Unexpected server error (no internals are exposed).',
  503: 'Not answered for now: the request passed its deadline (REQUEST_DEADLINE_MS; it may still complete), the instance is overloaded, or a dependency is unavailable. Retry after Retry-After when it is sent.',
};

// Any request may be cut at its deadline, or refused while the instance is overloaded (platform/core/http/deadline).
const EVERY_OPERATION_503: ErrorCode[] = ['DEADLINE_EXCEEDED', 'OVERLOADED'];

// Response headers, declared once under components.headers and referenced where the API sends them.
type HeaderName = 'X-Request-Id' | 'Retry-After' | 'Idempotent-Replayed' | 'RateLimit' | 'RateLimit-Policy';
const HEADERS: Record<
  HeaderName,
  { description: string; schema: { type: 'string' | 'integer'; enum?: string[]; minimum?: number; example?: string | number } }
> = {
  'X-Request-Id': {
    description:
      "The request's id (a UUID the API mints), also `requestId` in error bodies and on the request's log lines. An X-Request-Id the caller sends (8 to 128 letters, digits or `._:-`) is not used as the id: it is logged as `clientRequestId` beside it. On every answer of the API (not on the platform's HTML 400 for malformed JSON).",
    schema: { type: 'string', example: '6f1c2f8e-4a59-4c0e-9d57-2b8f4f3c9a10' },
  },
  'Retry-After': {
    description:
      'Seconds to wait before retrying: always with 429; with 503 DEADLINE_EXCEEDED, OVERLOADED and CONTENDED (not when a dependency is down); with a 409 that asks for a later retry (IDEMPOTENCY_IN_PROGRESS, CART_CHECKOUT_BUSY) on idempotent operations.',
    schema: { type: 'integer', minimum: 1, example: 7 },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key, caller and operation: nothing ran again.',
    schema: { type: 'string', enum: ['true'] },
  },
  RateLimit: {
    description:
      "What is left of the operation's rate limit (IETF draft httpapi-ratelimit-headers, a structured-field list): the policy's name, `r` the requests left in the current window and `t` the seconds until it resets.",
    schema: { type: 'string', example: '"auth-login";r=27;t=112' },
  },
  'RateLimit-Policy': {
    description:
      "The operation's rate limit (IETF draft httpapi-ratelimit-headers): the policy's name (the RATE_LIMITS scope named in the description), `q` the requests allowed per window and `w` the window in seconds.",
    schema: { type: 'string', example: '"auth-login";q=30;w=300' },
  },
};

// Which headers an answer of this operation carries.
function headersOf(route: AnyRoute, status: number): HeaderName[] {
  const names: HeaderName[] = ['X-Request-Id'];
  if (status === 429 || status === 503 || (status === 409 && route.idempotent)) names.push('Retry-After');
  if (route.idempotent && status >= 200 && status < 300) names.push('Idempotent-Replayed');
  if (route.rateLimit) names.push('RateLimit', 'RateLimit-Policy');
  return names;
}

function errorStatuses(route: AnyRoute): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  for (const code of route.codes ?? []) statuses.add(ERROR_CODES[code][0]);
  if (route.idempotent) statuses.add(409).add(422);
  if (route.request?.body || route.request?.query || route.request?.params || route.request?.headers) statuses.add(400);
  if (route.request?.params) statuses.add(404);
  if (route.request?.body) statuses.add(413).add(415);
  if (route.rateLimit) statuses.add(429);
  if (route.multipart) statuses.add(400).add(413).add(415);
  if (route.streamsBody) statuses.add(413).add(415);
  if (route.permission) statuses.add(403);
  if (route.auth !== 'public' || route.appCheck !== false) statuses.add(401);
  if (Array.isArray(route.auth) && route.auth.length > 0) statuses.add(403);
  statuses.add(500).add(503);
  return [...statuses].sort((a, b) => a - b);
}

// The codes an error status of this operation may carry: those its shape implies, then its own.
function codesFor(route: AnyRoute, status: number): ErrorCode[] {
  const implied: ErrorCode[] = [];
  if (status === 400) {
    if (route.request?.body || route.request?.query || route.request?.headers) implied.push('VALIDATION_FAILED');
    if (route.request?.body) implied.push('MALFORMED_JSON');
    // Paged lists (PageQuerySchema): a cursor of another list or caller.
    if ('cursor' in ((route.request?.query as { shape?: object } | undefined)?.shape ?? {})) implied.push('INVALID_CURSOR');
    implied.push('BAD_REQUEST');
  } else if (status === 401) {
    // An optional token is never missing to the guard (the operation may still need it: its own codes say so).
    if (Array.isArray(route.auth)) implied.push('TOKEN_MISSING');
    if (route.auth !== 'public') implied.push('TOKEN_INVALID', 'TOKEN_REVOKED');
    if (route.appCheck !== false) implied.push('APP_CHECK_REQUIRED', 'APP_CHECK_INVALID');
  } else if (status === 403) {
    if (Array.isArray(route.auth) && route.auth.length > 0) implied.push('ROLE_REQUIRED');
    if (route.permission) implied.push('PERMISSION_REQUIRED');
    if (route.hat) implied.push('HAT_LOCKED');
  } else if (status !== 503 || route.errors?.includes(503) || route.codes?.some((code) => ERROR_CODES[code][0] === 503)) implied.push(generalCode(status));
  const own = [
    ...(route.codes ?? []),
    ...(route.idempotent ? (['IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED'] as ErrorCode[]) : []),
    ...(route.idempotent === 'required' ? (['IDEMPOTENCY_KEY_REQUIRED'] as ErrorCode[]) : []),
  ].filter((code) => ERROR_CODES[code][0] === status);
  return [...new Set([...implied, ...own, ...(status === 503 ? EVERY_OPERATION_503 : [])])];
}

// Raw bytes of one of these types (a file download or upload).
function binaryContent(types: readonly string[]) {
  return Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }]));
}

// App Check's token travels on every app-facing operation; whether it is required is the deployment's APP_CHECK.
const AppCheckHeaderSchema = z.string().optional().meta({
  description:
    'Firebase App Check token of the calling app. Required (401 APP_CHECK_REQUIRED / APP_CHECK_INVALID) when the deployment runs APP_CHECK=enforce; ignored when it is off; logged when monitor.',
});

function requestHeaders(route: AnyRoute): { headers?: never } {
  let headers = (route.request?.headers ?? z.object({})) as z.ZodObject;
  if (route.idempotent)
    headers = headers.extend({ 'idempotency-key': route.idempotent === 'required' ? IdempotencyKeySchema : IdempotencyKeySchema.optional() });
  if (route.appCheck !== false) headers = headers.extend({ 'x-firebase-appcheck': AppCheckHeaderSchema });
  return Object.keys(headers.shape).length > 0 ? { headers: headers as never } : {};
}

// What a 401 of this operation can mean: only the causes it has (a public operation has no bearer token to blame).
function unauthorizedText(route: AnyRoute, codes: readonly ErrorCode[]): string {
  const causes: string[] = [];
  if (Array.isArray(route.auth)) causes.push('a missing, invalid, expired or revoked bearer token');
  else if (route.auth === 'optional')
    causes.push(
      `a bearer token that was sent but is invalid, expired or revoked${codes.includes('TOKEN_MISSING') ? ' (or none where the input needs one)' : ''}`,
    );
  if (route.appCheck !== false) causes.push('no valid App Check token while the deployment runs APP_CHECK=enforce');
  const own = codes.filter((code) => !code.startsWith('TOKEN_') && !code.startsWith('APP_CHECK_'));
  if (own.length > 0) causes.push(`the operation's own refusal (${own.join(', ')})`);
  return `Not authenticated: ${causes.join('; or ')}.`;
}

function authText(route: AnyRoute): string {
  if (route.auth === 'public') return 'Auth: public.';
  if (route.auth === 'optional')
    return 'Auth: public; a bearer JWT is optional. When sent it is verified (401 if invalid) and the operation acts for that account where the input needs one.';
  if (route.auth.length === 0) return 'Auth: bearer JWT (any authenticated user).';
  return `Auth: bearer JWT with one of the roles ${route.auth.join(', ')}.`;
}

const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

// Generated clients name their methods after operationIds: each must be a camelCase identifier, used once, and an
// alias must point at an operation that exists (and is not an alias itself). Refused here, so a test fails.
function canonicalOperations(routes: readonly AnyRoute[]): Map<string, AnyRoute> {
  const byId = new Map<string, AnyRoute>();
  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    if (!OPERATION_ID.test(route.operationId ?? ''))
      throw new Error(`${where}: operationId ${JSON.stringify(route.operationId)} is not a camelCase identifier`);
    const taken = byId.get(route.operationId);
    if (taken) throw new Error(`${where}: operationId ${route.operationId} is already used by ${taken.method.toUpperCase()} ${taken.path}`);
    byId.set(route.operationId, route);
  }
  for (const route of routes) {
    if (route.aliasOf === undefined) continue;
    const target = byId.get(route.aliasOf);
    if (!target || target.aliasOf !== undefined)
      throw new Error(`${route.method.toUpperCase()} ${route.path}: aliasOf ${route.aliasOf} names no canonical operation`);
  }
  return byId;
}

function aliasText(target: AnyRoute): string {
  return `Deprecated: an alias of \`${target.operationId}\` (${target.method.toUpperCase()} ${toOpenApiPath(target.path)}), kept for older clients; call that operation instead.`;
}

// The responses of one operation: its own, the declared others, and the errors it can answer, each with its headers.
function responsesOf(route: AnyRoute, headerRefs: Record<HeaderName, { $ref: string }>): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(route.response.status ?? 200)]:
      route.response.status === 204
        ? { description: route.response.description }
        : {
            description: route.response.description,
            content: route.response.binary ? binaryContent(route.response.binary) : { 'application/json': { schema: route.response.schema } },
          },
  };
  for (const [status, other] of Object.entries(route.otherResponses ?? {})) {
    responses[status] = other.schema
      ? { description: other.description, content: { 'application/json': { schema: other.schema } } }
      : { description: other.description };
  }
  for (const status of errorStatuses(route)) {
    const codes = codesFor(route, status);
    responses[String(status)] ??= {
      description: `${status === 401 ? unauthorizedText(route, codes) : (ERROR_DESCRIPTIONS[status] ?? 'Error')}${codes.length > 0 ? ` Codes: ${codes.join(', ')}.` : ''}`,
      content: { 'application/json': { schema: errorBodySchema() } },
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    (response as { headers?: object }).headers = Object.fromEntries(headersOf(route, Number(status)).map((name) => [name, headerRefs[name]]));
  }
  return responses;
}

// An operation's description: alias notice, its text, who may call it, the permission, the rate limit, availability.
function descriptionOf(route: AnyRoute, alias: AnyRoute | undefined): string {
  const limitText = route.rateLimit
    ? `Rate limit: ${route.rateLimit.limit} requests per ${route.rateLimit.windowSec} s per ${route.rateLimit.per === 'user' ? 'user' : 'client IP (an IPv6 client: its /64)'}${route.rateLimit.counted === 'instance' ? ' and server instance' : ''} (429 with Retry-After); scope \`${route.rateLimit.scope}\`, configurable with RATE_LIMITS.`
    : undefined;
  const permissionText = route.permission
    ? `Admin permission: ${route.permission} (administrators with an explicit permission list${Array.isArray(route.auth) && route.auth.some((r) => r !== 'ADMIN') ? "; callers in the route's other roles act in that role" : ''}).`
    : Array.isArray(route.auth) && route.auth.includes('ADMIN')
      ? 'Open to every administrator: no admin permission is needed.'
      : undefined;
  return [alias && aliasText(alias), route.description, authText(route), permissionText, limitText, route.availability?.note].filter(Boolean).join('\n\n');
}

// The OpenAPI document is generated from the same zod schemas that validate requests.
export function buildOpenApiDocument(routes: readonly AnyRoute[], version: string): Record<string, unknown> {
  const operations = canonicalOperations(routes);
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  const headerRefs = Object.fromEntries(
    Object.entries(HEADERS).map(([name, header]) => [name, registry.registerComponent('headers', name, header).ref]),
  ) as Record<HeaderName, { $ref: string }>;

  for (const route of routes) {
    const responses = responsesOf(route, headerRefs);
    const alias = route.aliasOf === undefined ? undefined : operations.get(route.aliasOf)!;
    const description = descriptionOf(route, alias);
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      operationId: route.operationId,
      ...(alias ? { deprecated: true } : {}),
      tags: [route.tag, ...(route.alsoTags ?? [])],
      summary: route.summary,
      description,
      // Machine-readable for clients (the admin console shows only what the administrator may press).
      ...(route.permission ? { 'x-admin-permission': route.permission } : {}),
      // Optional: anonymous ({}) or with the bearer token.
      security: route.auth === 'public' ? [] : route.auth === 'optional' ? [{}, { [bearer.name]: [] }] : [{ [bearer.name]: [] }],
      request: {
        ...(route.request?.params ? { params: route.request.params as never } : {}),
        ...(route.request?.query ? { query: route.request.query as never } : {}),
        ...requestHeaders(route),
        ...(route.request?.body ? { body: { required: true, content: { 'application/json': { schema: route.request.body } } } } : {}),
        ...(route.multipart ? { body: { required: true, content: { 'multipart/form-data': { schema: route.multipart } } } } : {}),
        ...(route.streamsBody
          ? { body: { required: true, description: route.streamsBody.description, content: binaryContent(route.streamsBody.contentTypes) } }
          : {}),
      },
      responses: responses as never,
    });
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Super-app backend API',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'JSON REST API of the lifestyle super-app (consumer CON, partner PAR, driver DRV and admin ADM apps). ' +
        'Every error the API itself answers has the `Error` shape; one exception: on Cloud Functions, malformed JSON is answered 400 by the platform before the API runs, with an HTML body (handle a non-JSON 400). ' +
        'Realtime events are Firestore documents the apps listen to.',
    },
    servers: [{ url: API_PREFIX, description: 'This deployment' }],
    tags: Object.entries(apiTagTable(moduleRegistry().modules))
      .filter(([name]) => routes.some((route) => route.tag === name || route.alsoTags?.includes(name as ApiTag)))
      .map(([name, description]) => ({ name, description })),
  }) as unknown as Record<string, unknown>;
}
