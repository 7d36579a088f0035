import type { LogEntry } from 'firebase-functions/logger';
import type { Request, Response } from 'express';
import { appCheckGuard, firebaseAppCheckVerifier, InvalidAppCheckToken, type AppCheckVerifier } from '../../src/platform/core/auth/app-check';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { ConfigError, parseConfig } from '../../src/platform/core/config';
import { testConfig, TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET, unitApp } from '../helpers/config';
import { listen } from '../helpers/http';

// APP_CHECK with an injected verifier (the Auth emulator has no App Check emulator): the whole API's routes, in
// process, no network. A token is verified before the rate limit, the session and validation.

const verified: string[] = [];
const verifier: AppCheckVerifier = async (token) => {
  verified.push(token);
  if (token === 'attested-android') return { appId: '1:1234567890:android:0a1b2c3d' };
  if (token === 'keys-unreachable') throw new Error('Error fetching public keys for Google certs');
  throw new InvalidAppCheckToken('The provided App Check token has expired.');
};

async function apiWith(mode: string) {
  const { app, routes } = unitApp({ config: testConfig({ APP_CHECK: mode }), verifyAppCheckToken: verifier });
  const server = await listen(app);
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['x-firebase-appcheck'] = token;
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, code: (text.startsWith('{') ? JSON.parse(text) : {}).code as string | undefined };
  };
  return { server, routes, call };
}

let logged: LogEntry[] = [];
beforeEach(() => {
  logged = [];
  verified.length = 0;
  setLogSink((entry) => logged.push(entry));
});
afterAll(() => setLogSink(() => undefined));

describe('APP_CHECK=enforce', () => {
  let api: Awaited<ReturnType<typeof apiWith>>;
  beforeAll(async () => (api = await apiWith('enforce')));
  afterAll(() => api.server.close());

  it('an app-facing route without a token: 401 APP_CHECK_REQUIRED, before validation', async () => {
    expect(await api.call('POST', '/auth/login', undefined, {})).toEqual({ status: 401, code: 'APP_CHECK_REQUIRED' });
    expect(await api.call('GET', '/users/me')).toEqual({ status: 401, code: 'APP_CHECK_REQUIRED' });
    expect(verified).toEqual([]);
  });

  it('an expired or forged token: 401 APP_CHECK_INVALID', async () => {
    expect(await api.call('POST', '/auth/login', 'eyJhbGciOiJSUzI1NiJ9.expired.sig', {})).toEqual({ status: 401, code: 'APP_CHECK_INVALID' });
    expect(verified).toEqual(['eyJhbGciOiJSUzI1NiJ9.expired.sig']);
  });

  it('an attested app goes on to the route (here: its validation, then its bearer check)', async () => {
    expect(await api.call('POST', '/auth/login', 'attested-android', {})).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await api.call('GET', '/users/me', 'attested-android')).toEqual({ status: 401, code: 'TOKEN_MISSING' });
  });

  it('keys that cannot be fetched are not the client’s fault: 503, logged', async () => {
    expect(await api.call('POST', '/auth/login', 'keys-unreachable', {})).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(logged.find((entry) => entry.message === 'app check verification failed')).toMatchObject({ operation: 'POST /auth/login', severity: 'ERROR' });
  });

  it('routes our apps do not call need no token: health, gateways’ IPNs and return pages, file and shared-trip links, presigned uploads', async () => {
    expect((await api.call('GET', '/health')).status).toBe(200);
    // Past App Check to their own validation (no database here).
    expect(await api.call('GET', '/payments/mock/return')).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await api.call('GET', '/rides/shared/not-a-token')).toEqual({ status: 404, code: 'NOT_FOUND' });
    const exempt = api.routes.filter((route) => route.appCheck === false).map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(exempt.sort()).toEqual([
      'GET /health',
      'GET /health/admin/deps',
      'GET /health/admin/env',
      'GET /health/deps',
      'GET /health/env',
      'GET /media/files/media/:ownerId/:name',
      'GET /payments/mock/return',
      'GET /payments/momo/return',
      'GET /payments/vnpay/ipn',
      'GET /payments/vnpay/return',
      'GET /rides/shared/:token',
      'POST /payments/momo/ipn',
      'PUT /upload/presign/:id/content',
    ]);
    expect(verified).toEqual([]);
  });
});

describe('APP_CHECK=monitor and off', () => {
  it('monitor: logs a missing or invalid token and lets the request through', async () => {
    const api = await apiWith('monitor');
    try {
      expect(await api.call('POST', '/auth/login', undefined, {})).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      expect(await api.call('POST', '/auth/login', 'forged', {})).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      const warnings = logged.filter((entry) => String(entry.message).startsWith('app check failed'));
      expect(warnings.map((entry) => [entry.reason, entry.detail])).toEqual([
        ['missing', undefined],
        ['invalid', 'The provided App Check token has expired.'],
      ]);
      expect(warnings[0]).toMatchObject({ operation: 'POST /auth/login', severity: 'WARNING', suppressed: 0 });
    } finally {
      await api.server.close();
    }
  });

  it('off (the default): nothing is verified', async () => {
    const api = await apiWith('off');
    try {
      expect(await api.call('POST', '/auth/login', 'forged', {})).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
      expect(verified).toEqual([]);
    } finally {
      await api.server.close();
    }
  });

  it('firebase-admin’s token errors are the client’s (APP_CHECK_INVALID); anything else is a fault', async () => {
    const failing = (code: string | undefined, message: string) =>
      firebaseAppCheckVerifier(async () => Promise.reject(Object.assign(new Error(message), { code })));
    await expect(failing('app-check/invalid-argument', 'Decoding App Check token failed.')('x')).rejects.toBeInstanceOf(InvalidAppCheckToken);
    await expect(failing('app-check/app-check-token-expired', 'The provided App Check token has expired.')('x')).rejects.toBeInstanceOf(InvalidAppCheckToken);
    const fault = failing('app-check/invalid-credential', 'Must initialize app with a cert credential')('x');
    await expect(fault).rejects.toThrow('cert credential');
    await expect(fault).rejects.not.toBeInstanceOf(InvalidAppCheckToken);
    await expect(firebaseAppCheckVerifier(async () => ({ appId: '1:1:ios:abc' }))('x')).resolves.toEqual({ appId: '1:1:ios:abc' });
  });

  it('the switch is validated', () => {
    expect(testConfig().APP_CHECK).toBe('off');
    expect(() => parseConfig({ JWT_SECRET: TEST_JWT_SECRET, JWT_REFRESH_SECRET: TEST_JWT_REFRESH_SECRET, APP_CHECK: 'strict' })).toThrow(ConfigError);
  });
});

describe('APP_CHECK=monitor log sampling', () => {
  // The guard alone, with an injected clock: a request is a header set; `next` resolves once the guard let it on.
  const run = (guard: ReturnType<typeof appCheckGuard>, token?: string) =>
    new Promise<void>((resolve) => {
      const req = { get: (name: string) => (name.toLowerCase() === 'x-firebase-appcheck' ? token : undefined) } as unknown as Request;
      guard(req, { locals: {} } as Response, () => resolve());
    });
  const lines = () =>
    logged
      .filter((entry) => String(entry.message).startsWith('app check failed'))
      .map((entry) => ({ operation: entry.operation, reason: entry.reason, suppressed: entry.suppressed }));

  it('writes at most one line per reason per route per minute, with the count let through unlogged since the last', async () => {
    let now = 0;
    const login = appCheckGuard('monitor', verifier, 'POST /auth/login', { now: () => now });
    const register = appCheckGuard('monitor', verifier, 'POST /auth/register', { now: () => now });
    for (let i = 0; i < 50; i += 1) await run(login);
    for (let i = 0; i < 5; i += 1) await run(login, 'forged');
    await run(register);
    expect(lines()).toEqual([
      { operation: 'POST /auth/login', reason: 'missing', suppressed: 0 },
      { operation: 'POST /auth/login', reason: 'invalid', suppressed: 0 },
      { operation: 'POST /auth/register', reason: 'missing', suppressed: 0 },
    ]);
    logged = [];
    now = 59_999;
    await run(login);
    expect(lines()).toEqual([]);
    now = 60_000;
    await run(login);
    await run(login);
    now = 61_000;
    await run(login, 'forged');
    expect(lines()).toEqual([
      { operation: 'POST /auth/login', reason: 'missing', suppressed: 50 },
      { operation: 'POST /auth/login', reason: 'invalid', suppressed: 4 },
    ]);
  });

  it("a reason is never the verifier's text (which may quote the token's claims): varied messages share one line", async () => {
    const chatty: AppCheckVerifier = async (token) => {
      throw new InvalidAppCheckToken(`The provided App Check token has incorrect "aud" (audience) claim: ${token}`);
    };
    const guard = appCheckGuard('monitor', chatty, 'POST /auth/login', { now: () => 0 });
    for (let i = 0; i < 20; i += 1) await run(guard, `aud-${i}`);
    expect(lines()).toEqual([{ operation: 'POST /auth/login', reason: 'invalid', suppressed: 0 }]);
  });
});
