import { z } from 'zod';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/platform/core/config';
import { defineRoute } from '../../src/platform/core/http/route';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { registerVerified } from '../helpers/accounts';
import { call } from '../helpers/api';
import { localSecret, requireEmulators } from '../helpers/emulators';
import { listen } from '../helpers/http';

// A per-user rate limit is counted beside the session check (one round trip, not two), with the real session-aware
// verifier: over the limit is 429 with the RateLimit headers; a revoked token is 401 whatever its count.
beforeAll(requireEmulators);

const probe = {
  name: 'probe',
  routes: () => [
    defineRoute({
      method: 'post',
      path: '/probe/limited',
      operationId: 'postProbeLimited',
      tag: 'health',
      summary: 'per-user limited',
      auth: [],
      rateLimit: { scope: 'probe-limited', limit: 2, windowSec: 600, per: 'user' },
      response: { description: 'ok', schema: z.object({ ok: z.boolean() }) },
      handler: () => ({ ok: true }),
    }),
  ],
};
const config = parseConfig({ ...process.env, JWT_SECRET: localSecret('JWT_SECRET'), JWT_REFRESH_SECRET: localSecret('JWT_REFRESH_SECRET') });
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await listen(buildApp({ config, modules: [probe], rateLimiter: createRateLimiter(memoryRateLimitStore()) }).app);
});
afterAll(() => server.close());
// The limit's windows are the clock's 10-minute spans: a test straddling an edge would start counting afresh midway.
jest.setTimeout(60_000);
beforeEach(async () => {
  const left = 600_000 - (Date.now() % 600_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
});

const hit = async (token: string) => {
  const res = await fetch(`${server.url}/api/v1/probe/limited`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, code: ((await res.json()) as { code?: string }).code, limit: res.headers.get('ratelimit') };
};

describe('per-user rate limit beside the session check', () => {
  it('a revoked token is 401 and takes its hit back: its account keeps the rest of its limit', async () => {
    const cam = await registerVerified();
    expect((await hit(cam.accessToken)).status).toBe(200);
    expect((await call('POST', '/auth/logout', { token: cam.accessToken })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect(await hit(cam.accessToken)).toMatchObject({ status: 401, code: 'TOKEN_REVOKED', limit: null });
    const again = await call<{ accessToken: string }>('POST', '/auth/login', { body: { email: cam.email, password: cam.password } });
    expect(again.status).toBe(200);
    expect(await hit(again.body.accessToken)).toMatchObject({ status: 200, limit: expect.stringMatching(/;r=0;/) });
    expect((await hit(again.body.accessToken)).status).toBe(429);
  });

  it('counts each account on its own; past the limit 429; a revoked token is 401, not 429', async () => {
    const [ana, bao] = [await registerVerified(), await registerVerified()];
    expect(await hit(ana.accessToken)).toEqual({ status: 200, code: undefined, limit: expect.stringMatching(/^"probe-limited";r=1;t=\d+$/) });
    expect((await hit(ana.accessToken)).status).toBe(200);
    expect(await hit(ana.accessToken)).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await hit(bao.accessToken)).status).toBe(200);
    expect((await call('POST', '/auth/logout', { token: ana.accessToken })).status).toBe(200);
    expect(await hit(ana.accessToken)).toMatchObject({ status: 401, code: 'TOKEN_REVOKED' });
    expect(await hit('not-a-token')).toMatchObject({ status: 401 });
  });
});
