import { z } from 'zod';
import { buildApp } from '../../src/app';
import type { AuthContext } from '../../src/platform/core/auth/access-token';
import type { Role } from '../../src/platform/core/auth/roles';
import { defineRoute } from '../../src/platform/core/http/route';
import type { ApiModule } from '../../src/platform/core/http/module';
import { UnauthorizedError } from '../../src/platform/core/errors/app-error';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import type { LogEntry } from 'firebase-functions/logger';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { testConfig } from '../helpers/config';
import { listen } from '../helpers/http';

// The route kit's guards: per-user rate limits (counted per verified caller; this test verifier does not take the
// hit beside its checks, so the guard counts it after) and admin
// permissions that guard only the admin path of routes open to other roles too.
const ok = z.object({ ok: z.boolean() });
const probe: ApiModule = {
  name: 'probe',
  routes: () => [
    defineRoute({
      method: 'post',
      path: '/probe/sos',
      operationId: 'postProbeSos',
      tag: 'rides',
      summary: 'per user',
      auth: [],
      rateLimit: { scope: 'probe-sos', limit: 2, windowSec: 600, per: 'user' },
      response: { description: 'ok', schema: ok },
      handler: () => ({ ok: true }),
    }),
    defineRoute({
      method: 'post',
      path: '/probe/place',
      operationId: 'postProbePlace',
      tag: 'places',
      summary: 'partner or admin',
      auth: ['PARTNER_OWNER', 'ADMIN'],
      permission: 'catalog.manage',
      response: { description: 'ok', schema: ok },
      handler: () => ({ ok: true }),
    }),
  ],
};

// Tokens are the callers themselves: "<userId>~<roles>~<permissions, or all>" with "+" between list items.
async function verify(token: string): Promise<AuthContext> {
  const [userId, roles, permissions] = token.split('~');
  if (!userId || roles === undefined) throw new UnauthorizedError('bad token');
  return {
    userId,
    roles: roles.split('+').filter(Boolean) as Role[],
    sessionId: 's',
    tokenId: 't',
    permissions: permissions === 'all' ? undefined : permissions ? permissions.split('+') : [],
  };
}

let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const { app } = buildApp({
    config: testConfig(),
    modules: [probe],
    verifyAccessToken: verify,
    rateLimiter: createRateLimiter(memoryRateLimitStore()),
    idempotency: memoryIdempotencyStore(),
  });
  server = await listen(app);
});
afterAll(() => server.close());

const post = async (path: string, token?: string, ip = '203.0.113.9') => {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: (await res.json()) as { code?: string }, retryAfter: res.headers.get('retry-after') };
};

describe('per-user rate limits', () => {
  it('count each caller on its own, whatever its IP, and answer 429 with Retry-After past the limit', async () => {
    expect((await post('/probe/sos', 'lan~USER~', '203.0.113.1')).status).toBe(200);
    expect((await post('/probe/sos', 'lan~USER~', '203.0.113.2')).status).toBe(200);
    const third = await post('/probe/sos', 'lan~USER~', '203.0.113.3');
    expect(third.status).toBe(429);
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    // Another user behind the same IP keeps its own allowance.
    expect((await post('/probe/sos', 'minh~USER~', '203.0.113.3')).status).toBe(200);
  });

  it('a request without a valid token is a 401 and uses nobody’s allowance', async () => {
    for (let i = 0; i < 5; i++) expect((await post('/probe/sos')).status).toBe(401);
    expect((await post('/probe/sos', 'hoa~USER~')).status).toBe(200);
  });

  it('claimBeside on a route whose key is not required is refused when the app is built', () => {
    expect(buildWithRoute({ claimBeside: true })).toThrow(/claimBeside needs idempotent: 'required'/);
  });

  it('besideGuard on a public route, or with a required key, is refused when the app is built', () => {
    expect(buildWithRoute({ method: 'get', auth: 'public', besideGuard: true })).toThrow(/besideGuard needs an authenticated JSON route/);
    expect(buildWithRoute({ besideGuard: true, idempotent: 'required' })).toThrow(/besideGuard needs an authenticated JSON route/);
  });

  it('a per-user limit on a public route is refused when the app is built', () => {
    expect(buildWithRoute({ method: 'get', auth: 'public', rateLimit: { scope: 'bad', limit: 1, windowSec: 1, per: 'user' } })).toThrow(
      /per-user rate limit needs an authenticated route/,
    );
  });
});

/** Builds an app of one probe route (POST /bad, any signed-in user) changed by `overrides`. */
const buildWithRoute = (overrides: Partial<Parameters<typeof defineRoute>[0]>) => () =>
  buildApp({
    config: testConfig(),
    modules: [
      {
        name: 'bad',
        routes: () => [
          defineRoute({
            method: 'post',
            path: '/bad',
            operationId: 'postBad',
            tag: 'health',
            summary: 'x',
            auth: [],
            response: { description: 'x', schema: ok },
            handler: () => ({ ok: true }),
            ...overrides,
          }),
        ],
      },
    ],
    verifyAccessToken: verify,
    rateLimiter: createRateLimiter(memoryRateLimitStore()),
    idempotency: memoryIdempotencyStore(),
  });

describe('admin permissions on routes open to partners and administrators', () => {
  it('an administrator without the permission is refused; with it, or with every permission, passes', async () => {
    expect(await post('/probe/place', 'a1~USER+ADMIN~')).toMatchObject({ status: 403, body: { code: 'PERMISSION_REQUIRED' } });
    expect((await post('/probe/place', 'a2~USER+ADMIN~users.manage')).status).toBe(403);
    expect((await post('/probe/place', 'a3~USER+ADMIN~catalog.manage')).status).toBe(200);
    expect((await post('/probe/place', 'a4~USER+ADMIN~all')).status).toBe(200);
  });

  it('a partner passes in its own role (the service checks the permission where it acts as admin)', async () => {
    expect((await post('/probe/place', 'p1~USER+PARTNER_OWNER~')).status).toBe(200);
    expect((await post('/probe/place', 'p2~USER+PARTNER_OWNER+ADMIN~')).status).toBe(200);
    expect((await post('/probe/place', 'u1~USER~')).status).toBe(403);
  });
});

describe('per-IP rate limits', () => {
  const limited: ApiModule = {
    name: 'limited',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/code',
        operationId: 'postProbeCode',
        tag: 'auth',
        summary: 'per IP',
        auth: 'public',
        rateLimit: { scope: 'probe-code', limit: 2, windowSec: 600 },
        response: { description: 'ok', schema: ok },
        handler: () => ({ ok: true }),
      }),
    ],
  };
  const serve = (env: Record<string, string>) =>
    listen(
      buildApp({
        config: testConfig(env),
        modules: [limited],
        verifyAccessToken: verify,
        rateLimiter: createRateLimiter(memoryRateLimitStore()),
        idempotency: memoryIdempotencyStore(),
      }).app,
    );
  const hit = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(`${url}/api/v1/probe/code`, { method: 'POST', headers });
    return {
      status: res.status,
      code: ((await res.json()) as { code?: string }).code,
      retryAfter: res.headers.get('retry-after'),
      policy: res.headers.get('ratelimit-policy'),
      left: res.headers.get('ratelimit'),
    };
  };

  it('behind Hosting, made-up Fastly-Client-IP values share one edge’s bucket (HOSTING_EDGE_LIMIT_FACTOR × the limit): 429 with Retry-After', async () => {
    // The loopback peer stands in for a Fastly edge (HOSTING_EDGE_RANGES); TRUST_PROXY=1 makes it the socket's.
    const server = await serve({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: '1', HOSTING_EDGE_RANGES: '127.0.0.0/8', HOSTING_EDGE_LIMIT_FACTOR: '3' });
    try {
      const warnings: LogEntry[] = [];
      setLogSink((entry) => entry.severity === 'WARNING' && warnings.push(entry));
      const answers = [];
      for (let i = 1; i <= 8; i += 1) answers.push(await hit(server.url, { 'fastly-client-ip': `198.51.100.${i}` }));
      setLogSink(() => undefined);
      expect(answers.slice(0, 6).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // The headers describe the client's policy (its first hit: 1 of 2 left).
      expect(answers[0]).toMatchObject({ policy: '"probe-code";q=2;w=600', left: expect.stringMatching(/^"probe-code";r=1;t=\d+$/) });
      expect(answers[6]).toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        policy: '"probe-code";q=2;w=600',
        left: expect.stringMatching(/^"probe-code";r=0;t=\d+$/),
      });
      expect(Number(answers[6].retryAfter)).toBeGreaterThan(0);
      expect(answers[7].status).toBe(429);
      // One line for the edge's first refusal of the window, not one per refused request.
      expect(warnings).toEqual([
        expect.objectContaining({ message: expect.stringContaining('shared bucket'), scope: 'probe-code', aggregate: 'edge:127.0.0.1', limit: 6 }),
      ]);
    } finally {
      await server.close();
    }
  });

  it('HOSTING_EDGE_LIMIT_FACTOR=0 turns the edge bucket off; each client keeps its own limit either way', async () => {
    const server = await serve({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: '1', HOSTING_EDGE_RANGES: '127.0.0.0/8', HOSTING_EDGE_LIMIT_FACTOR: '0' });
    try {
      for (let i = 1; i <= 8; i += 1) expect((await hit(server.url, { 'fastly-client-ip': `198.51.100.${i}` })).status).toBe(200);
      expect((await hit(server.url, { 'fastly-client-ip': '198.51.100.1' })).status).toBe(200);
      expect((await hit(server.url, { 'fastly-client-ip': '198.51.100.1' })).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('keys an IPv6 caller on its /64, whatever the spelling or the interface id; another /64 has its own', async () => {
    const server = await serve({ TRUST_PROXY: '1' });
    try {
      expect((await hit(server.url, { 'x-forwarded-for': '2402:800:6314:9f3a::1' })).status).toBe(200);
      expect((await hit(server.url, { 'x-forwarded-for': '2402:0800:6314:9F3A:0:0:0:1' })).status).toBe(200);
      expect((await hit(server.url, { 'x-forwarded-for': '2402:800:6314:9f3a:dead:beef:1:2' })).status).toBe(429);
      expect((await hit(server.url, { 'x-forwarded-for': '2402:800:6314:9f3b::1' })).status).toBe(200);
      // IPv4 addresses stay per address.
      expect((await hit(server.url, { 'x-forwarded-for': '203.0.113.40' })).status).toBe(200);
      expect((await hit(server.url, { 'x-forwarded-for': '203.0.113.41' })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('limits counted per instance', () => {
  it("count in the instance's memory, never in the shared store, and still answer 429 past the limit", async () => {
    const sharedHits: string[] = [];
    const shared = { hit: async (rule: { scope: string }) => (sharedHits.push(rule.scope), Promise.reject(new Error('not shared'))) };
    const module: ApiModule = {
      name: 'files',
      routes: () => [
        defineRoute({
          method: 'get',
          path: '/probe/file',
          operationId: 'getProbeFile',
          tag: 'media',
          summary: 'per instance',
          auth: 'public',
          rateLimit: { scope: 'probe-file', limit: 2, windowSec: 60, counted: 'instance' },
          response: { description: 'ok', schema: ok },
          handler: () => ({ ok: true }),
        }),
      ],
    };
    const server = await listen(
      buildApp({ config: testConfig(), modules: [module], verifyAccessToken: verify, rateLimiter: shared as never, idempotency: memoryIdempotencyStore() }).app,
    );
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${server.url}/api/v1/probe/file`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(sharedHits).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('the memory store counts per key and drops the counters of ended windows each minute, so it stays bounded', async () => {
    let at = 1_000_000;
    const store = memoryRateLimitStore(() => at);
    expect([await store.increment('a', at + 1_000), await store.increment('a', at + 1_000)]).toEqual([1, 2]);
    for (let i = 0; i < 1_000; i += 1) await store.increment(`ip-${i}`, at + 1_000);
    expect(store.size()).toBe(1_001);
    at += 61_000;
    await store.increment('later', at + 1_000);
    expect(store.size()).toBe(1);
  });
});

describe("auth 'optional'", () => {
  const who = z.object({ userId: z.string().nullable() });
  const optional: ApiModule = {
    name: 'optional',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/who',
        operationId: 'postProbeWho',
        tag: 'auth',
        summary: 'optional token',
        auth: 'optional',
        response: { description: 'ok', schema: who },
        handler: ({ auth }) => ({ userId: auth?.userId ?? null }),
      }),
    ],
  };

  it('no token: anonymous; a valid token: the caller; a token that does not verify: 401', async () => {
    const server = await listen(
      buildApp({
        config: testConfig(),
        modules: [optional],
        verifyAccessToken: verify,
        rateLimiter: createRateLimiter(memoryRateLimitStore()),
        idempotency: memoryIdempotencyStore(),
      }).app,
    );
    try {
      const call = async (token?: string) => {
        const res = await fetch(`${server.url}/api/v1/probe/who`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {} });
        return { status: res.status, body: await res.json() };
      };
      expect(await call()).toEqual({ status: 200, body: { userId: null } });
      expect(await call('lan~USER~')).toEqual({ status: 200, body: { userId: 'lan' } });
      expect((await call('not-a-token')).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('a per-user rate limit needs an authenticated route, not an optional token', () => {
    const bad: ApiModule = {
      name: 'bad',
      routes: () => [
        defineRoute({
          method: 'get',
          path: '/bad',
          operationId: 'getBad',
          tag: 'health',
          summary: 'x',
          auth: 'optional',
          rateLimit: { scope: 'bad', limit: 1, windowSec: 1, per: 'user' },
          response: { description: 'x', schema: ok },
          handler: () => ({ ok: true }),
        }),
      ],
    };
    expect(() =>
      buildApp({
        config: testConfig(),
        modules: [bad],
        verifyAccessToken: verify,
        rateLimiter: createRateLimiter(memoryRateLimitStore()),
        idempotency: memoryIdempotencyStore(),
      }),
    ).toThrow(/per-user rate limit needs an authenticated route/);
  });
});
