import { z } from 'zod';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/platform/core/config';
import { NotFoundError } from '../../src/platform/core/errors/app-error';
import { NotAdmittedError } from '../../src/platform/core/http/beside-guard';
import { defineRoute } from '../../src/platform/core/http/route';
import { createRateLimiter, memoryRateLimitStore, type RateLimiter } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { registerVerified } from '../helpers/accounts';
import { call } from '../helpers/api';
import { localSecret, requireEmulators } from '../helpers/emulators';
import { listen } from '../helpers/http';

// `besideGuard`: the handler starts when the token's signature is verified, beside the session check and the per-user
// limit (the real session-aware verifier), and writes only once every guard let the caller in. The limiter's verdict
// waits for the handler's start (at most a second): a handler started early shows 'start' before 'verdict' whatever
// the machine's speed; one started after the guards shows it after.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

const events: string[] = [];
const written: string[] = [];
const dropped: unknown[] = [];
let started: Array<() => void> = [];
const inner = createRateLimiter(memoryRateLimitStore());
const limiter: RateLimiter = {
  hit: (rule, subject, aggregate) =>
    new Promise<void>((resolve) => {
      started.push(resolve);
      setTimeout(resolve, 1_000);
    }).then(() => {
      events.push('verdict');
      return inner.hit(rule, subject, aggregate);
    }),
};

const route = (path: string, operationId: string, extra: Partial<Parameters<typeof defineRoute>[0]> = {}) =>
  defineRoute({
    method: 'post',
    path,
    operationId,
    tag: 'health',
    summary: 'started beside the guards',
    auth: [],
    besideGuard: true,
    idempotent: true,
    rateLimit: { scope: `probe-${operationId}`, limit: 2, windowSec: 3600, per: 'user' },
    request: { body: z.object({ note: z.string().min(1) }) },
    response: { status: 201, description: 'ok', schema: z.object({ note: z.string(), by: z.string() }) },
    handler: async (ctx) => {
      events.push('start');
      for (const resolve of started.splice(0)) resolve();
      const body = ctx.body as { note: string };
      try {
        const auth = await ctx.admitted!();
        events.push('write');
        written.push(body.note);
        return { note: body.note, by: auth.userId };
      } catch (err) {
        dropped.push(err);
        throw err;
      }
    },
    ...extra,
  });
const probe = {
  name: 'probe',
  routes: () => [
    route('/probe/early', 'postProbeEarly'),
    route('/probe/early-admin', 'postProbeEarlyAdmin', { auth: ['ADMIN'] }),
    route('/probe/early-driver', 'postProbeEarlyDriver', { hat: 'DRV' }),
    // Refuses before its first write, as a send to a conversation of others does (404).
    route('/probe/early-missing', 'postProbeEarlyMissing', {
      handler: async () => {
        events.push('start');
        for (const resolve of started.splice(0)) resolve();
        throw new NotFoundError('No such thing').withCode('NOT_FOUND');
      },
    }),
  ],
};
const config = parseConfig({ ...process.env, JWT_SECRET: localSecret('JWT_SECRET'), JWT_REFRESH_SECRET: localSecret('JWT_REFRESH_SECRET') });
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await listen(buildApp({ config, modules: [probe], rateLimiter: limiter, idempotency: memoryIdempotencyStore() }).app);
});
afterAll(() => server.close());
beforeEach(() => {
  events.length = 0;
  written.length = 0;
  dropped.length = 0;
  started = [];
});

const post = async (path: string, token: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; note?: string; by?: string } };
};
// The dropped handler settles once the refusal's response has closed: wait for it, not for a time.
const settledDrop = async () => {
  for (let i = 0; i < 200 && dropped.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('a handler started beside the guards', () => {
  it('starts before the limit’s verdict and writes after every guard let the caller in', async () => {
    const ana = await registerVerified();
    const res = await post('/probe/early', ana.accessToken, { note: 'first' });
    expect(res).toEqual({ status: 201, body: { note: 'first', by: ana.user.id } });
    expect(events).toEqual(['start', 'verdict', 'write']);
    expect(written).toEqual(['first']);
  });

  it('a revoked token is 401: the handler started, its write never happens', async () => {
    const bao = await registerVerified();
    expect((await call('POST', '/auth/logout', { token: bao.accessToken })).status).toBe(200);
    const res = await post('/probe/early', bao.accessToken, { note: 'revoked' });
    expect(res).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    await settledDrop();
    expect(events).toContain('start');
    expect(written).toEqual([]);
    expect(dropped).toEqual([expect.any(NotAdmittedError)]);
    // Refused once, the caller is not started early again for a while: a revoked token's flood costs no reads.
    events.length = 0;
    expect((await post('/probe/early', bao.accessToken, { note: 'again' })).status).toBe(401);
    expect(events).not.toContain('start');
  });

  it('over the limit is 429 and a refused role 403: nothing written either time', async () => {
    const cam = await registerVerified();
    for (const note of ['a', 'b']) expect((await post('/probe/early', cam.accessToken, { note })).status).toBe(201);
    written.length = 0;
    dropped.length = 0;
    expect(await post('/probe/early', cam.accessToken, { note: 'c' })).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    await settledDrop();
    expect(written).toEqual([]);
    expect(dropped).toHaveLength(1);
    dropped.length = 0;
    expect(await post('/probe/early-admin', cam.accessToken, { note: 'd' })).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
    await settledDrop();
    expect(written).toEqual([]);
    expect(dropped).toHaveLength(1);
    dropped.length = 0;
    expect(await post('/probe/early-driver', cam.accessToken, { note: 'e' })).toMatchObject({ status: 403, body: { code: 'HAT_LOCKED' } });
    await settledDrop();
    expect(written).toEqual([]);
    expect(dropped).toHaveLength(1);
  });

  it('a caller this instance refused in the window is not started early again: its next 429 costs the handler nothing', async () => {
    const hoa = await registerVerified();
    for (const note of ['a', 'b']) expect((await post('/probe/early', hoa.accessToken, { note })).status).toBe(201);
    expect((await post('/probe/early', hoa.accessToken, { note: 'c' })).status).toBe(429);
    events.length = 0;
    expect((await post('/probe/early', hoa.accessToken, { note: 'd' })).status).toBe(429);
    expect(events).toEqual(['verdict']);
  });

  it('a refusal thrown before the write is the answer for a caller let in, once; a revoked caller gets its 401', async () => {
    const gia = await registerVerified();
    expect(await post('/probe/early-missing', gia.accessToken, { note: 'x' })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(events).toEqual(['start', 'verdict']);
    expect((await call('POST', '/auth/logout', { token: gia.accessToken })).status).toBe(200);
    expect(await post('/probe/early-missing', gia.accessToken, { note: 'x' })).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
  });

  it('bad input is judged after the guards and never starts the handler: 401 for a revoked token, else 400', async () => {
    const dao = await registerVerified();
    expect(await post('/probe/early', dao.accessToken, { note: '' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect((await call('POST', '/auth/logout', { token: dao.accessToken })).status).toBe(200);
    expect(await post('/probe/early', dao.accessToken, { note: '' })).toMatchObject({ status: 401, body: { code: 'TOKEN_REVOKED' } });
    expect(events).not.toContain('start');
  });

  it('a keyed request starts after the guards, with its claim, and a retry is answered from the claim', async () => {
    const em = await registerVerified();
    const first = await post('/probe/early', em.accessToken, { note: 'keyed' }, { 'idempotency-key': 'k-1' });
    expect(first).toEqual({ status: 201, body: { note: 'keyed', by: em.user.id } });
    expect(events).toEqual(['verdict', 'start', 'write']);
    const retry = await post('/probe/early', em.accessToken, { note: 'keyed' }, { 'idempotency-key': 'k-1' });
    expect(retry).toEqual(first);
    expect(written).toEqual(['keyed']);
  });
});
