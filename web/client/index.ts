// The typed client of the super-app API, for the consumer, partner, driver and admin apps alike.
// Types come from openapi/openapi.json (web/client/generated, rewritten by `npm run openapi`); requests go through
// openapi-fetch, with what every app needs around it: the bearer token, refresh with rotation (one refresh at a
// time, shared by every request waiting for it), an Idempotency-Key on the operations that take one, errors as
// `ApiError` with the API's stable `code`, and cursor paging.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi';
import { OPERATIONS, type OperationFacts } from './generated/operations';

export type { components, operations, paths };
export { API_VERSION, ENUMS, FIELD_ENUMS, OPERATIONS, type OperationFacts } from './generated/operations';
export type Schemas = components['schemas'];
export type ApiErrorBody = Schemas['Error'];
export type ErrorCode = ApiErrorBody['code'];
export type AuthTokens = Schemas['AuthTokens'];

/** A session's tokens; `expiresAt` is the access token's end (ms since the epoch, the client's clock). */
export interface SessionTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresAt: number;
}

/** Where the session lives: memory (a script), localStorage (a web app, shared by its tabs), secure storage (mobile). */
export interface TokenStore {
  get(): SessionTokens | null;
  set(tokens: SessionTokens | null): void;
}

export function memoryTokenStore(initial: SessionTokens | null = null): TokenStore {
  let tokens = initial;
  return { get: () => tokens, set: (next) => void (tokens = next) };
}

/** The part of the Web Storage API a token store uses (window.localStorage, or an equivalent). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Read on every request, so a refresh made by another tab is picked up. */
export function localStorageTokenStore(key = 'superapp.session', storage = (globalThis as { localStorage?: StorageLike }).localStorage): TokenStore {
  return {
    get() {
      try {
        const raw = storage?.getItem(key);
        return raw ? (JSON.parse(raw) as SessionTokens) : null;
      } catch {
        return null;
      }
    },
    set(tokens) {
      if (tokens) storage?.setItem(key, JSON.stringify(tokens));
      else storage?.removeItem(key);
    },
  };
}

/** An error the API answered (or a non-JSON one from the platform: code `HTTP_<status>`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | `HTTP_${number}`;
  readonly details: unknown;
  readonly requestId: string | undefined;
  constructor(status: number, body: unknown) {
    const parsed = body && typeof body === 'object' && typeof (body as ApiErrorBody).code === 'string' ? (body as ApiErrorBody) : undefined;
    super(parsed?.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = parsed?.code ?? `HTTP_${status}`;
    this.details = parsed?.details;
    this.requestId = parsed?.requestId;
  }
}

/** A result of openapi-fetch: its data, or the error thrown as ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new ApiError(result.response.status, result.error);
  return result.data as T;
}

/** Every page of a cursor list, one at a time: `for await (const page of pages((cursor) => …))`. */
export async function* pages<P extends { nextCursor?: string | null }>(fetchPage: (cursor: string | undefined) => Promise<P>): AsyncGenerator<P> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** A key for one action: pass it on every try of that action (`params: { header: { 'idempotency-key': key } }`). */
export const idempotencyKey = (): string => globalThis.crypto.randomUUID();

/** The facts of the operation a request is for (idempotency, admin permission), if it is one of the API's. */
export function operationOf(method: string, schemaPath: string): OperationFacts | undefined {
  return OPERATIONS[`${method.toUpperCase()} ${schemaPath}`];
}

/** Whether an administrator holding `permissions` may call the operation (false for one the API does not have). */
export function permits(permissions: readonly string[] | undefined, method: string, schemaPath: string): boolean {
  const facts = operationOf(method, schemaPath);
  if (!facts) return false;
  if (!facts.adminPermission) return true;
  // An account without a list (from before lists) holds every permission, as the API decides.
  return permissions === undefined || permissions.includes('*') || permissions.includes(facts.adminPermission);
}

// Codes that end the session on any request: the app signs in again.
const SESSION_ENDED = new Set<string>(['TOKEN_REVOKED', 'REFRESH_TOKEN_REUSED']);
// And what a refused refresh means the same (an App Check or rate-limit refusal does not: the session stands).
const REFRESH_ENDED = new Set<string>([...SESSION_ENDED, 'TOKEN_INVALID', 'TOKEN_MISSING', 'ACCOUNT_DISABLED']);

export interface SuperappClientOptions {
  /** The API's base, e.g. `https://host/api/v1` or `/api/v1` in a browser on the same origin. */
  baseUrl: string;
  tokens?: TokenStore;
  fetch?: typeof globalThis.fetch;
  /** Called once the session cannot go on (revoked, reused refresh token, locked account, refresh refused). */
  onSessionEnded?: (code: string) => void;
  /**
   * A new Idempotency-Key (default: a random UUID), added to the operations that require one when the app passes
   * none. Where a key is optional the API has a keyless default of its own, kept; retries of one action must send
   * the key of its first try (`idempotencyKey()` makes one).
   */
  newIdempotencyKey?: () => string;
  /** Refresh this long before the access token ends (default 30 s). */
  refreshAheadMs?: number;
  /** Headers sent on every request (Accept-Language, an App Check token: a function is asked each time). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
}

export interface SuperappClient {
  /** The openapi-fetch client: `api.GET('/users/me')`, `api.POST('/rides', { body, params: { header } })`. */
  readonly api: Client<paths>;
  /** Stores the tokens of a sign-in answer (password, two-factor, email or phone OTP, Google). */
  signedIn(tokens: Pick<AuthTokens, 'accessToken' | 'refreshToken' | 'expiresIn'>): void;
  /** The current session's tokens, refreshed first when they are about to end (null when signed out). */
  session(): Promise<SessionTokens | null>;
  /** Rotates the pair now; concurrent callers share one refresh. */
  refresh(): Promise<SessionTokens | null>;
  /** Forgets the session here and ends it on the server (throws ApiError when the server refused). */
  signOut(options?: { allSessions?: boolean }): Promise<void>;
}

export function createSuperappClient(options: SuperappClientOptions): SuperappClient {
  const tokens = options.tokens ?? memoryTokenStore();
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const refreshAheadMs = options.refreshAheadMs ?? 30_000;
  const newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const base = options.baseUrl.replace(/\/+$/, '');
  const baseUrl = new URL(base, (globalThis as { location?: { href: string } }).location?.href ?? 'http://localhost/').href;
  const extraHeaders = async (): Promise<Record<string, string>> => (typeof options.headers === 'function' ? options.headers() : (options.headers ?? {}));
  let inFlight: Promise<SessionTokens | null> | undefined;
  // Each request's first form, kept until its answer: replayed once with the new token after a refresh.
  const originals = new Map<string, Request>();

  const store = (answer: Pick<AuthTokens, 'accessToken' | 'refreshToken' | 'expiresIn'>): SessionTokens => {
    const next = { accessToken: answer.accessToken, refreshToken: answer.refreshToken, expiresAt: Date.now() + answer.expiresIn * 1000 };
    tokens.set(next);
    return next;
  };
  const end = (code: string) => {
    tokens.set(null);
    options.onSessionEnded?.(code);
  };

  const refresh = (): Promise<SessionTokens | null> => {
    inFlight ??= (async () => {
      const current = tokens.get();
      if (!current) return null;
      const res = await fetchImpl(`${base}/auth/refresh`, {
        method: 'POST',
        headers: { ...(await extraHeaders()), 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: current.refreshToken }),
      });
      const body: unknown = await res.json().catch(() => undefined);
      if (res.ok) return store(body as AuthTokens);
      const error = new ApiError(res.status, body);
      // Another tab may have rotated the pair meanwhile: its tokens stand.
      const now = tokens.get();
      if (now && now.refreshToken !== current.refreshToken) return now;
      if (REFRESH_ENDED.has(error.code)) {
        end(error.code);
        return null;
      }
      throw error;
    })().finally(() => (inFlight = undefined));
    return inFlight;
  };

  const session = async (): Promise<SessionTokens | null> => {
    const current = tokens.get();
    if (current && current.expiresAt - Date.now() < refreshAheadMs) return refresh();
    return current;
  };

  const middleware: Middleware = {
    async onRequest({ request, schemaPath, id }) {
      // The token and the app's headers go to this API only (a call given another baseUrl gets none).
      const ours = request.url.startsWith(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      if (ours) for (const [name, value] of Object.entries(await extraHeaders())) if (!request.headers.has(name)) request.headers.set(name, value);
      const facts = operationOf(request.method, schemaPath);
      if (facts?.idempotencyKey === 'required' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newKey());
      const current = !ours || schemaPath === '/auth/refresh' ? null : await session();
      if (current && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${current.accessToken}`);
      // Uploads are not kept (their bytes would be held twice): a refused upload is sent again by the app.
      if (current && (!request.body || request.headers.get('content-type')?.includes('json'))) originals.set(id, request.clone());
      return request;
    },
    async onResponse({ request, response, id }) {
      const original = originals.get(id);
      originals.delete(id);
      if ((response.status !== 401 && response.status !== 403) || !original) return response;
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as Partial<ApiErrorBody> | undefined;
      if (body?.code && SESSION_ENDED.has(body.code)) {
        // Only the session this request was sent with (another tab may have signed in since).
        if (tokens.get() && `Bearer ${tokens.get()!.accessToken}` === request.headers.get('authorization')) end(body.code);
        return response;
      }
      // An access token that ended (or was retired by another tab's refresh): refresh once and send it again.
      if (response.status !== 401 || body?.code !== 'TOKEN_INVALID') return response;
      const sent = request.headers.get('authorization');
      const now = tokens.get();
      const next = now && `Bearer ${now.accessToken}` !== sent ? now : await refresh();
      if (!next) return response;
      const retry = new Request(original, { headers: new Headers(original.headers) });
      retry.headers.set('authorization', `Bearer ${next.accessToken}`);
      return fetchImpl(retry);
    },
    onError({ id }) {
      originals.delete(id);
    },
  };

  const api = createClient<paths>({ baseUrl: base, fetch: fetchImpl });
  api.use(middleware);

  return {
    api,
    signedIn: (answer) => void store(answer),
    session,
    refresh,
    async signOut({ allSessions = false } = {}) {
      // A fresh access token first (an idle app's has ended), so the server really ends the session.
      const current = await session().catch(() => tokens.get());
      tokens.set(null);
      if (!current) return;
      const res = await fetchImpl(`${base}/auth/logout`, {
        method: 'POST',
        headers: { ...(await extraHeaders()), 'content-type': 'application/json', authorization: `Bearer ${current.accessToken}` },
        body: JSON.stringify(allSessions ? { allSessions } : {}),
      });
      if (!res.ok && res.status !== 401) throw new ApiError(res.status, await res.json().catch(() => undefined));
    },
  };
}
