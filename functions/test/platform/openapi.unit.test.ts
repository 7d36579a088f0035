import fs from 'node:fs';
import path from 'node:path';
import { API_TAGS, MODULES } from '../../src/modules';
import { renderOpenApiJson } from '../../src/platform/core/openapi/render';
import { buildOpenApiDocument } from '../../src/platform/core/openapi/document';
import { defineRoute, type AnyRoute } from '../../src/platform/core/http/route';
import { z } from 'zod';

const SPEC_TAGS = [
  'addresses',
  'assistant',
  'atm',
  'auth',
  'cart',
  'chat',
  'cms',
  'driver',
  'favorites',
  'fuel',
  'health',
  'hotels',
  'kyc',
  'media',
  'medical',
  'merchants',
  'notifications',
  'orders',
  'parking',
  'partners',
  'payments',
  'pharmacy',
  'places',
  'promotions',
  'rentals',
  'reviews',
  'rides',
  'routing',
  'schools',
  'social',
  'support',
  'users',
  'wallet',
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc: any = JSON.parse(renderOpenApiJson(MODULES));

describe('OpenAPI generation', () => {
  it('keeps every spec tag in the table, and documents exactly those that have operations, each with a description', () => {
    expect(Object.keys(API_TAGS).sort()).toEqual([...SPEC_TAGS].sort());
    const used = new Set(
      Object.values(doc.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((item) => Object.values(item).flatMap((op) => op.tags)),
    );
    expect(doc.tags.map((t: { name: string }) => t.name).sort()).toEqual([...used].sort());
    // Every tag of the spec has operations.
    expect(used.size).toBe(33);
    for (const tag of doc.tags) expect(tag.description.length).toBeGreaterThan(10);
  });

  it('documents the health operations with their auth and error shape', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/health/admin/deps', '/health/admin/env', '/health/deps', '/health/env']));
    const adminEnv = doc.paths['/health/admin/env'].get;
    expect(adminEnv.security).toEqual([{ bearerAuth: [] }]);
    expect(adminEnv.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(adminEnv.responses['403']).toBeDefined();
    expect(adminEnv.description).toContain('HEALTH_DETAIL_ENABLED');
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/health/deps'].get.responses['503'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/HealthDeps',
    });
  });

  // Every auth/users operation the spec's Endpoints table names, with its method.
  const SPEC_AUTH_OPERATIONS: Array<[string, string]> = [
    ['post', '/auth/register'],
    ['post', '/register'],
    ['post', '/auth/login/password'],
    ['post', '/auth/login'],
    ['post', '/login'],
    ['post', '/auth/login/password/2fa'],
    ['post', '/auth/email/otp/send'],
    ['post', '/auth/email/otp/verify'],
    ['post', '/auth/otp/send'],
    ['post', '/auth/otp/verify'],
    ['post', '/auth/refresh'],
    ['post', '/auth/google'],
    ['post', '/auth/password/forgot'],
    ['post', '/auth/password/reset'],
    ['post', '/auth/2fa/email/enable'],
    ['get', '/auth/2fa/status'],
    ['get', '/auth/sessions'],
    ['get', '/auth/me'],
    ['get', '/users/me'],
    ['get', '/users/me/hats'],
    ['get', '/users/admin/overview'],
    ['get', '/users/admin'],
    ['post', '/users/admin'],
    ['patch', '/users/admin/{id}'],
    ['patch', '/users/admin/{id}/roles'],
    ['delete', '/users/admin/{id}'],
    ['patch', '/driver/admin/applications/{id}'],
    ['post', '/driver/register'],
    ['post', '/upload/single'],
    ['post', '/upload/multiple'],
    ['post', '/upload/presign'],
  ];
  const PUBLIC = [
    '/driver/register',
    '/auth/register',
    '/register',
    '/auth/login/password',
    '/auth/login',
    '/login',
    '/auth/login/password/2fa',
    '/auth/email/otp/send',
    '/auth/email/otp/verify',
    '/auth/otp/send',
    '/auth/otp/verify',
    '/auth/refresh',
    '/auth/google',
    '/auth/password/forgot',
    '/auth/password/reset',
  ];
  // Public, but a signed-in caller's token is read (VERIFY_PHONE): anonymous or bearer.
  const OPTIONAL_TOKEN = ['/auth/otp/send', '/auth/otp/verify'];

  it("documents an optional bearer token (auth 'optional'): either security requirement, and the token codes on its 401", () => {
    for (const p of OPTIONAL_TOKEN) {
      const op = doc.paths[p].post;
      expect(op.security).toEqual([{}, { bearerAuth: [] }]);
      expect(op.description).toMatch(/a bearer JWT is optional/);
      expect(op.responses['401'].description).toMatch(/bearer token that was sent but is invalid/);
      expect(op.responses['401'].description).toMatch(/Codes: TOKEN_INVALID, TOKEN_REVOKED, APP_CHECK_REQUIRED, APP_CHECK_INVALID, TOKEN_MISSING\./);
    }
    expect(doc.paths['/auth/otp/send'].post.responses['400'].description).toMatch(/PHONE_COUNTRY_NOT_ALLOWED, PHONE_NOT_MOBILE/);
  });

  it("a public operation's 401 names only what can cause it: App Check, or the operation's own refusal, never a bearer token", () => {
    const register = doc.paths['/auth/register'].post.responses['401'].description;
    expect(register).not.toMatch(/bearer/i);
    expect(register).toMatch(/App Check token while the deployment runs APP_CHECK=enforce.*Codes: APP_CHECK_REQUIRED, APP_CHECK_INVALID\./);
    const login = doc.paths['/auth/login/password'].post.responses['401'].description;
    expect(login).not.toMatch(/bearer/i);
    expect(login).toMatch(/the operation's own refusal \(AUTH_INVALID_CREDENTIALS\)/);
    expect(doc.paths['/chat/calls'].post.responses['401'].description).toMatch(/^Not authenticated: a missing, invalid, expired or revoked bearer token/);
  });

  it.each(SPEC_AUTH_OPERATIONS)('documents %s %s with its auth, body and 429 when rate limited', (method, p) => {
    const op = doc.paths[p]?.[method];
    expect(op).toBeDefined();
    const security = OPTIONAL_TOKEN.includes(p) ? [{}, { bearerAuth: [] }] : PUBLIC.includes(p) ? [] : [{ bearerAuth: [] }];
    expect(op.security).toEqual(security);
    if (method === 'post') expect(Object.values(op.requestBody.content)[0]).toBeDefined();
    if (PUBLIC.includes(p)) expect(op.responses['429']).toBeDefined();
    if (p.includes('/admin')) expect(op.responses['403']).toBeDefined();
  });

  it('documents media uploads: multipart fields file/files, the exact media item fields, and the refusals', () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.MediaItem.properties)).toEqual(['id', 'objectKey', 'publicUrl', 'mimeType', 'sizeBytes', 'kind', 'status']);
    // The spec's audio types on the audio routes; images only through /upload/image (kind IMAGE); videos (reels) through
    // /upload/video or a presigned upload (kind VIDEO).
    expect(schemas.MediaItem.properties.mimeType.enum).toEqual([
      'audio/mpeg',
      'audio/wav',
      'audio/x-wav',
      'audio/ogg',
      'audio/mp4',
      'audio/aac',
      'audio/webm',
      'image/jpeg',
      'image/png',
      'image/webp',
      'video/mp4',
      'video/quicktime',
      'video/webm',
    ]);
    expect(schemas.MediaItem.properties.kind.enum).toEqual(['AUDIO', 'IMAGE', 'VIDEO']);
    expect(doc.paths['/upload/video'].post.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/VideoUploadForm' });
    expect(doc.paths['/upload/image'].post.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/ImageUploadForm' });
    expect(doc.paths['/upload/single'].post.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/SingleUploadForm' });
    expect(schemas.MultipleUploadForm.properties.files.maxItems).toBe(10);
    for (const status of ['400', '401', '403', '413', '415']) expect(doc.paths['/upload/multiple'].post.responses[status]).toBeDefined();
    expect(doc.paths['/upload/presign'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PresignBody' });
    // The presigned PUT: raw bytes of the presigned audio or video type; with Cloud Storage it goes to the bucket, as presign says.
    const put = doc.paths['/upload/presign/{id}/content'].put;
    expect(put.requestBody.required).toBe(true);
    expect(Object.keys(put.requestBody.content)).toEqual([
      'audio/mpeg',
      'audio/wav',
      'audio/x-wav',
      'audio/ogg',
      'audio/mp4',
      'audio/aac',
      'audio/webm',
      'video/mp4',
      'video/quicktime',
      'video/webm',
    ]);
    for (const media of Object.values(put.requestBody.content)) expect(media).toEqual({ schema: { type: 'string', format: 'binary' } });
    for (const status of ['413', '415']) expect(put.responses[status]).toBeDefined();
    expect(doc.paths['/upload/presign'].post.responses['201'].description).toMatch(
      /Cloud Storage, upload.url is a V4 signed URL of the bucket, not this API.*PUT \/upload\/presign\/\{id\}\/content \(putPresignedUploadContent\)/,
    );
  });

  it('documents the error codes of each operation with their statuses', () => {
    const start = doc.paths['/chat/calls'].post.responses;
    expect(start['409'].description).toMatch(/Codes: CONFLICT, CALL_BUSY, IDEMPOTENCY_IN_PROGRESS\./);
    expect(start['422'].description).toMatch(/IDEMPOTENCY_KEY_REUSED/);
    expect(doc.paths['/chat/calls'].post.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]));
    expect(start['401'].description).toMatch(/TOKEN_MISSING, TOKEN_INVALID, TOKEN_REVOKED/);
    expect(doc.paths['/chat/calls/{id}/answer'].post.responses['409'].description).toMatch(/CALL_NOT_ALLOWED, CALL_TRANSITION/);
    expect(doc.paths['/auth/login/password'].post.responses['429'].description).toMatch(/RATE_LIMITED, AUTH_LOCKED/);
    expect(doc.paths['/auth/register'].post.responses['400'].description).toMatch(/VALIDATION_FAILED, MALFORMED_JSON/);
    expect(doc.paths['/users/admin'].post.responses['403'].description).toMatch(/ROLE_REQUIRED, PERMISSION_REQUIRED/);
  });

  it('warns client authors that malformed JSON may get a non-JSON 400 from the Functions runtime', () => {
    expect(doc.info.description).toMatch(/malformed JSON is answered 400 by the platform before the API runs, with an HTML body/);
    expect(doc.paths['/auth/register'].post.responses['400'].description).toMatch(/HTML \(non-JSON\) body/);
  });

  it('documents a path id that cannot exist as 404, and the broadcast job with its Idempotency-Key header', () => {
    expect(doc.paths['/media/{id}'].get.responses['404']).toBeDefined();
    const broadcast = doc.paths['/notifications/broadcast'].post;
    expect(Object.keys(broadcast.responses)).toEqual(expect.arrayContaining(['202', '422']));
    expect(broadcast.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]));
    expect(doc.paths['/notifications/broadcast/{id}'].get).toBeDefined();
  });

  it('documents the admin bodies of the spec and the multipart paper upload', () => {
    const schemas = doc.components.schemas;
    expect(schemas.AdminCreateUserBody.required).toEqual(['hat']);
    expect(Object.keys(schemas.AdminCreateUserBody.properties)).toEqual(['hat', 'email', 'phone', 'fullName', 'roles']);
    expect(schemas.DriverDecisionBody.properties.capabilities.items).toEqual({ $ref: '#/components/schemas/DriverCapability' });
    expect(schemas.DriverCapability.enum).toEqual(['RIDE', 'COURIER', 'DELIVERY', 'SCHOOL_TRIP']);
    expect(doc.paths['/kyc/papers'].post.requestBody.content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/UploadPaperForm' });
    expect(Object.keys(doc.paths['/kyc/papers/{id}/file'].get.responses['200'].content)).toEqual(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']);
  });

  it('documents the register body, login union and the mailSent flag', () => {
    const schemas = doc.components.schemas;
    expect(schemas.RegisterBody.required).toEqual(expect.arrayContaining(['email', 'password', 'name']));
    expect(schemas.RegisterResponse.properties.mailSent.type).toBe('boolean');
    expect(schemas.PasswordLoginResponse.anyOf).toEqual([{ $ref: '#/components/schemas/AuthTokens' }, { $ref: '#/components/schemas/TwoFaChallenge' }]);
    expect(schemas.PhoneCodeSent.properties.smsProvider.enum).toEqual(['console', 'http', 'twilio', 'esms']);
    expect(schemas.UserProfile.properties.passwordHash).toBeUndefined();
  });

  it('generates component schemas from the zod schemas', () => {
    expect(doc.components.schemas.Error.required).toEqual(['statusCode', 'error', 'code', 'message', 'requestId']);
    expect(doc.components.schemas.Error.properties.code.enum).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'CALL_BUSY', 'CALL_NOT_ALLOWED', 'AUTH_INVALID_CODE', 'IDEMPOTENCY_KEY_REUSED']),
    );
    expect(doc.components.schemas.Health.properties.status).toMatchObject({ type: 'string', enum: ['ok'] });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.servers).toEqual([{ url: '/api/v1', description: 'This deployment' }]);
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path: p, op })),
  );

  it('names every operation with a unique camelCase operationId, admin… under /admin paths', () => {
    expect(operations.length).toBeGreaterThan(280);
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path: p, op } of operations) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z0-9]*$/);
      if (p.split('/').includes('admin')) expect(op.operationId).toMatch(/^admin[A-Z]/);
    }
  });

  it('keeps the operationIds generated clients are named after (actions, not paths; catalogs from their kit)', () => {
    const idOf = (method: string, p: string) => doc.paths[p][method].operationId;
    expect(idOf('post', '/rides')).toBe('createRide');
    expect(idOf('get', '/rides')).toBe('listMyRides');
    expect(idOf('post', '/rides/{id}/cancel')).toBe('cancelRide');
    expect(idOf('get', '/wallet')).toBe('getWalletBalance');
    expect(idOf('post', '/push-tokens')).toBe('registerPushToken');
    expect(idOf('post', '/chat/calls/{id}/answer')).toBe('answerCall');
    expect(idOf('patch', '/driver/admin/applications/{id}')).toBe('adminDecideDriverApplication');
    expect(idOf('get', '/pharmacy/stores/nearby')).toBe('listNearbyPharmacyStores');
    expect(idOf('get', '/parking/lots/{id}')).toBe('getParkingLot');
    expect(idOf('post', '/places/admin/{id}/hide')).toBe('adminHidePlace');
    expect(idOf('get', '/atm/{id}/events')).toBe('listAtmEvents');
  });

  it('marks the aliases deprecated, each naming its canonical operation; nothing else is deprecated', () => {
    const aliases = {
      'post /register': 'register',
      'post /login': 'loginWithPassword',
      'post /auth/login': 'loginWithPassword',
      'get /auth/me': 'getMyProfile',
    };
    expect(
      operations
        .filter((o) => o.op.deprecated)
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    ).toEqual(Object.keys(aliases).sort());
    for (const [key, target] of Object.entries(aliases)) {
      const [method, p] = key.split(' ');
      const canonical = operations.find((o) => o.op.operationId === target)!;
      expect(doc.paths[p][method].deprecated).toBe(true);
      expect(doc.paths[p][method].description).toContain(`Deprecated: an alias of \`${target}\` (${canonical.method.toUpperCase()} ${canonical.path})`);
      expect(canonical.op.deprecated).toBeUndefined();
    }
  });

  describe('response headers', () => {
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const responsesOf = (op: any) => Object.entries(op.responses as Record<string, { headers?: Record<string, unknown>; description: string }>);
    const idempotent = operations.filter((o) =>
      (o.op.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key'),
    );
    const limited = operations.filter((o) => /Rate limit: \d+ requests per/.test(o.op.description));

    it('declares each once under components.headers', () => {
      expect(Object.keys(doc.components.headers).sort()).toEqual(['Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id']);
      expect(doc.components.headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 });
      expect(doc.components.headers.RateLimit.schema.example).toBe('"auth-login";r=27;t=112');
      expect(doc.components.headers['RateLimit-Policy'].schema.example).toBe('"auth-login";q=30;w=300');
    });

    it('X-Request-Id on every answer; Retry-After on every 429 and 503, and on the 409 of idempotent operations', () => {
      for (const { op } of operations) {
        const takesKey = (op.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key');
        for (const [status, response] of responsesOf(op)) {
          expect(response.headers?.['X-Request-Id']).toEqual(ref('X-Request-Id'));
          const retried = status === '429' || status === '503' || (status === '409' && takesKey);
          expect(response.headers?.['Retry-After']).toEqual(retried ? ref('Retry-After') : undefined);
        }
      }
    });

    it('every operation may answer 503 at its deadline or when overloaded', () => {
      for (const { path: p, op } of operations) {
        if (p.endsWith('/deps')) continue; // the failing probe's own 503 (HealthDeps body) takes the status
        expect(op.responses['503'].description).toMatch(/Codes: .*DEADLINE_EXCEEDED, OVERLOADED\.$/);
      }
      expect(doc.paths['/rides/quote'].post.responses['503'].description).toMatch(
        /Codes: SERVICE_UNAVAILABLE, ROUTING_UNAVAILABLE, DEADLINE_EXCEEDED, OVERLOADED\./,
      );
      expect(doc.paths['/users/me'].get.responses['503'].description).not.toMatch(/SERVICE_UNAVAILABLE/);
    });

    it('Idempotent-Replayed on the successes of operations that take an Idempotency-Key, and only there', () => {
      expect(idempotent.length).toBeGreaterThan(20);
      for (const { op } of operations) {
        // The broadcast reads its key itself (a retry answers the same broadcast, with no replay marker).
        const takesKey = idempotent.some((o) => o.op === op) && op.operationId !== 'createBroadcast';
        for (const [status, response] of responsesOf(op))
          expect(response.headers?.['Idempotent-Replayed']).toEqual(takesKey && status.startsWith('2') ? ref('Idempotent-Replayed') : undefined);
      }
    });

    it('RateLimit and RateLimit-Policy on the answers of rate-limited operations, and only there', () => {
      expect(limited.map((o) => o.op.operationId)).toEqual(expect.arrayContaining(['loginWithPassword', 'createRide', 'listNearbyPlaces', 'sendMessage']));
      for (const { op } of operations) {
        const isLimited = limited.some((o) => o.op === op);
        expect(Boolean(op.responses['429'])).toBe(isLimited || Boolean(op.responses['429']));
        for (const [, response] of responsesOf(op)) {
          expect(response.headers?.RateLimit).toEqual(isLimited ? ref('RateLimit') : undefined);
          expect(response.headers?.['RateLimit-Policy']).toEqual(isLimited ? ref('RateLimit-Policy') : undefined);
        }
      }
    });
  });

  describe('refuses operation names clients cannot rely on', () => {
    const route = (path: string, names: Pick<AnyRoute, 'operationId' | 'aliasOf'>) =>
      defineRoute({
        method: 'get',
        path,
        ...names,
        tag: 'health',
        summary: 's',
        auth: 'public',
        response: { description: 'ok', schema: z.object({}) },
        handler: () => ({}),
      });

    it('a repeated operationId, naming both routes', () => {
      expect(() => buildOpenApiDocument([route('/a', { operationId: 'getThing' }), route('/b', { operationId: 'getThing' })], '1')).toThrow(
        'GET /b: operationId getThing is already used by GET /a',
      );
    });

    it('a missing or non-camelCase operationId', () => {
      expect(() => buildOpenApiDocument([route('/a', { operationId: '' })], '1')).toThrow(/GET \/a: operationId "" is not a camelCase identifier/);
      expect(() => buildOpenApiDocument([route('/a', { operationId: 'get_thing' })], '1')).toThrow(/not a camelCase identifier/);
    });

    it('an alias of an unknown operation or of another alias', () => {
      expect(() => buildOpenApiDocument([route('/a', { operationId: 'getA', aliasOf: 'getNothing' })], '1')).toThrow(
        'GET /a: aliasOf getNothing names no canonical operation',
      );
      const chain = [
        route('/a', { operationId: 'getA' }),
        route('/b', { operationId: 'getB', aliasOf: 'getA' }),
        route('/c', { operationId: 'getC', aliasOf: 'getB' }),
      ];
      expect(() => buildOpenApiDocument(chain, '1')).toThrow('GET /c: aliasOf getB names no canonical operation');
      expect(() => buildOpenApiDocument(chain.slice(0, 2), '1')).not.toThrow();
    });
  });

  it('openapi/openapi.json is up to date (run `npm run openapi`)', () => {
    const file = path.join(__dirname, '..', '..', '..', 'openapi', 'openapi.json');
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(renderOpenApiJson(MODULES));
  });
});
