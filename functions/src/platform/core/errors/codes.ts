// Stable, machine-readable error codes: clients branch on `code`, never on `message` (which may change).
// Each HTTP status has a general code; operations add specific ones where a client must tell cases apart.
// Code: [the status it comes with, what it means]. Here: the general codes and the platform kits' own; each module
// declares its own in `<m>.errors.ts` (its definition's `errorCodes`), added to ERROR_CODES when the module list
// is installed and to the ErrorCode type through ModuleErrorCodes.
export const PLATFORM_ERROR_CODES = {
  // General, one per status
  VALIDATION_FAILED: [400, 'A field of the request failed validation; `details` names each field.'],
  BAD_REQUEST: [400, 'The request cannot be processed as sent.'],
  MALFORMED_JSON: [400, 'The body is not valid JSON.'],
  INVALID_CURSOR: [400, 'The cursor is not a nextCursor of this list for this caller.'],
  UNAUTHORIZED: [401, 'Missing or invalid credentials.'],
  FORBIDDEN: [403, 'The caller may not do this.'],
  NOT_FOUND: [404, 'No such resource (or a path id that cannot exist, or hidden by configuration).'],
  CONFLICT: [409, 'Conflicts with the current state.'],
  PAYLOAD_TOO_LARGE: [413, 'The body or a file is over its limit.'],
  UNPROCESSABLE: [422, 'Well-formed but not acceptable here.'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'Wrong Content-Type, or bytes that are not the declared type.'],
  RATE_LIMITED: [429, 'Too many requests; see Retry-After.'],
  SERVICE_UNAVAILABLE: [503, 'A dependency is unavailable.'],
  DEADLINE_EXCEEDED: [
    503,
    'The server gave up on the request at its deadline (REQUEST_DEADLINE_MS); it may still complete: retry after Retry-After, with the same Idempotency-Key where the operation takes one.',
  ],
  OVERLOADED: [
    503,
    'Too many requests of this instance are still running past their deadline (DEADLINE_OVERDUE_LIMIT); nothing was done: retry after Retry-After.',
  ],
  CONTENDED: [503, 'Too many concurrent changes to one record; retry after Retry-After.'],
  INTERNAL: [500, 'Unexpected server error (no internals are exposed).'],
  // Tokens and sessions
  TOKEN_MISSING: [401, 'No bearer token.'],
  TOKEN_INVALID: [401, 'The token is malformed, forged, of the wrong type or expired.'],
  TOKEN_REVOKED: [401, 'The session ended (logout, lock, password reset, refresh-token reuse).'],
  APP_CHECK_REQUIRED: [401, 'No X-Firebase-AppCheck token on an app-facing operation (APP_CHECK=enforce).'],
  APP_CHECK_INVALID: [401, 'The X-Firebase-AppCheck token does not verify (malformed, expired, another project’s).'],
  ROLE_REQUIRED: [403, 'None of the roles the operation needs.'],
  PERMISSION_REQUIRED: [403, 'An administrator without the permission the operation needs, or granting one it lacks.'],
  HAT_LOCKED: [403, 'The app (hat) of the operation is not unlocked for this account (drivers cannot book).'],
  // Catalogs (the platform's catalog kit and nearby paging)
  CATALOG_NOT_MANAGER: [403, "Only the managing partner (owner or staff) changes this record; curated records are the administrators'."],
  CATALOG_TRANSITION: [409, 'The record is not in a status that allows this (`details.status`): archived records are read-only.'],
  CATALOG_NOT_ALLOWED: [409, "Hiding and restoring are for administrators, archiving for the record's managers."],
  NEARBY_TOO_DENSE: [
    422,
    'The area is too dense for one request (NEARBY_READ_BUDGET): the search spent its reads before reaching the next record. Narrow the radius.',
  ],
  CATALOG_PHOTO_INVALID: [422, 'A photoId is not one of your READY image uploads.'],
  // Idempotency and jobs
  IDEMPOTENCY_KEY_REQUIRED: [400, 'This operation moves money: it needs an Idempotency-Key header.'],
  IDEMPOTENCY_IN_PROGRESS: [409, 'A request with this Idempotency-Key is still running; retry shortly.'],
  IDEMPOTENCY_KEY_REUSED: [422, 'This Idempotency-Key was used with another request body.'],
  JOB_BUSY: [409, 'Another runner holds the job.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCodeTable = Readonly<Record<string, readonly [number, string]>>;

/** The codes of the modules: each `<m>.errors.ts` adds its own (`interface ModuleErrorCodes extends CodesOf<…>`). */
export interface ModuleErrorCodes {}
export type CodesOf<T extends ErrorCodeTable> = { readonly [K in keyof T]: true };

export type ErrorCode = keyof typeof PLATFORM_ERROR_CODES | keyof ModuleErrorCodes;

/** A module's codes, checked for shape (upper-case names) at load. */
export function defineErrorCodes<const T extends ErrorCodeTable>(codes: T): T {
  for (const code of Object.keys(codes)) if (!/^[A-Z][A-Z0-9_]*$/.test(code)) throw new Error(`error code ${code}: upper case and underscores only`);
  return codes;
}

// On the global object, like the module registry (module.ts): the deployed code is two bundles, each with its own copy
// of this file, and the codes registered by dist/index.js must be those the lazily loaded dist/runtime.js reads.
const TABLE_SLOT = Symbol.for('superapp.errorCodes');
const slot = globalThis as { [TABLE_SLOT]?: Record<string, readonly [number, string]> };
const table: Record<string, readonly [number, string]> = (slot[TABLE_SLOT] ??= { ...PLATFORM_ERROR_CODES });

/** Every code of the API: the platform's, then each installed module's (in module order). */
export const ERROR_CODES = table as Readonly<Record<ErrorCode, readonly [number, string]>>;

/** Adds a module's codes to ERROR_CODES (done once, by installing the module list); a code has one owner. */
export function registerErrorCodes(owner: string, codes: ErrorCodeTable): void {
  for (const [code, entry] of Object.entries(codes)) {
    const known = table[code];
    if (known && (known[0] !== entry[0] || known[1] !== entry[1])) throw new Error(`error code ${code} of ${owner} is declared twice, differently`);
    table[code] = entry;
  }
}

export const GENERAL_CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

export function generalCode(statusCode: number): ErrorCode {
  return GENERAL_CODE_BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}

/** The codes that come with an HTTP status. */
export function codesOfStatus(statusCode: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code][0] === statusCode);
}
