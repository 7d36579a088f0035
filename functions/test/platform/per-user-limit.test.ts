import { z } from 'zod';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/platform/core/config';
import { defineRoute } from '../../src/platform/core/http/route';
import { createRateLimiter, memoryRateLimitStore, type RateLimiter } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore, type IdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
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

// Keyed requests of an idempotent route await the limit's verdict with their claim, not before it (one round trip
// less): the claim is made while the verdict is pending, and a refused request frees it and writes nothing.
describe('per-user rate limit of keyed requests, awaited with the claim', () => {
  const events: string[] = [];
  const written: string[] = [];
  let clockMs = Date.UTC(2026, 0, 1, 10, 0, 5);
  const store = memoryIdempotencyStore();
  let claimMade: (() => void)[] = [];
  const claims: IdempotencyStore = {
    ...store,
    claim: (id, hash, now) => {
      events.push('claim');
      for (const resolve of claimMade.splice(0)) resolve();
      return store.claim(id, hash, now);
    },
  };
  const inner = createRateLimiter(
    memoryRateLimitStore(() => clockMs),
    () => clockMs,
  );
  // The verdict waits for the next claim (at most a second): a request that awaited it before claiming shows
  // 'verdict' before 'claim', whatever the machine's speed.
  const afterNextClaim = () =>
    new Promise<void>((resolve) => {
      claimMade.push(resolve);
      setTimeout(resolve, 1_000);
    });
  const limiter: RateLimiter = {
    hit: (rule, subject, aggregate) =>
      afterNextClaim().then(() => {
        events.push('verdict');
        return inner.hit(rule, subject, aggregate);
      }),
  };
  const keyed = {
    name: 'keyed',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/keyed',
        operationId: 'postProbeKeyed',
        tag: 'health',
        summary: 'per-user limited, keyed, run beside its claim',
        auth: [],
        idempotent: 'required',
        claimBeside: true,
        rateLimit: { scope: 'probe-keyed', limit: 2, windowSec: 600, per: 'user' },
        response: { status: 201, description: 'ok', schema: z.object({ key: z.string() }) },
        handler: async (ctx) => {
          await ctx.claimed!();
          events.push('write');
          written.push(ctx.idempotencyKey!);
          return { key: ctx.idempotencyKey! };
        },
      }),
    ],
  };
  let app: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    app = await listen(buildApp({ config, modules: [keyed], rateLimiter: limiter, idempotency: claims }).app);
  });
  afterAll(() => app.close());
  beforeEach(() => {
    events.length = 0;
    written.length = 0;
    claimMade = [];
  });
  const send = async (token: string, key: string) => {
    const res = await fetch(`${app.url}/api/v1/probe/keyed`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } });
    const body = (await res.json()) as { code?: string; key?: string };
    return {
      status: res.status,
      code: body.code,
      key: body.key,
      limit: res.headers.get('ratelimit'),
      retryAfter: res.headers.get('retry-after'),
      replayed: res.headers.get('idempotent-replayed'),
    };
  };
  const fresh = async (token: string, keys: string[]) => {
    for (const key of keys) expect((await send(token, key)).status).toBe(201);
    events.length = 0;
  };

  it('the claim is made while the verdict is pending; admitted, the request runs once and carries its RateLimit headers', async () => {
    const dan = await registerVerified();
    expect(await send(dan.accessToken, 'order-1')).toMatchObject({ status: 201, key: 'order-1', limit: expect.stringMatching(/^"probe-keyed";r=1;/) });
    expect(events).toEqual(['claim', 'verdict', 'write']);
    expect(await send(dan.accessToken, 'order-1')).toMatchObject({ status: 201, key: 'order-1', replayed: 'true', limit: expect.stringMatching(/;r=0;/) });
    expect(written).toEqual(['order-1']);
  });

  it('over the limit: 429 with Retry-After, nothing written, and the key it claimed free again (it runs in the next window)', async () => {
    const eve = await registerVerified();
    await fresh(eve.accessToken, ['a', 'b']);
    const refused = await send(eve.accessToken, 'c');
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED', limit: expect.stringMatching(/;r=0;/) });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(events).toEqual(['claim', 'verdict']);
    expect(written).toEqual(['a', 'b']);
    clockMs += 600_000;
    expect(await send(eve.accessToken, 'c')).toMatchObject({ status: 201, key: 'c', replayed: null });
    expect(written).toEqual(['a', 'b', 'c']);
  });

  it('a replay over the limit is refused too: its stored answer is not sent', async () => {
    const hal = await registerVerified();
    await fresh(hal.accessToken, ['a', 'b']);
    expect(await send(hal.accessToken, 'a')).toMatchObject({ status: 429, code: 'RATE_LIMITED', key: undefined, replayed: null });
    expect(events).toEqual(['claim', 'verdict']);
  });

  it('once refused, the caller waits for the verdict before claiming: a flood over the limit claims nothing; others are not slowed', async () => {
    const fay = await registerVerified();
    await fresh(fay.accessToken, ['a', 'b']);
    expect((await send(fay.accessToken, 'c')).status).toBe(429);
    events.length = 0;
    const flood = await Promise.all(['d', 'e', 'f', 'g'].map((key) => send(fay.accessToken, key)));
    expect(flood.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(events).toEqual(['verdict', 'verdict', 'verdict', 'verdict']);
    const gia = await registerVerified();
    events.length = 0;
    expect((await send(gia.accessToken, 'a')).status).toBe(201);
    expect(events).toEqual(['claim', 'verdict', 'write']);
  });

  it('a revoked token is 401 and gives its hit back; a malformed key is 400 and keeps it, or 429 over the limit (nothing written)', async () => {
    const ivy = await registerVerified();
    expect((await call('POST', '/auth/logout', { token: ivy.accessToken })).status).toBe(200);
    for (const key of ['a', 'b', 'c']) expect(await send(ivy.accessToken, key)).toMatchObject({ status: 401, code: 'TOKEN_REVOKED' });
    const again = await call<{ accessToken: string }>('POST', '/auth/login', { body: { email: ivy.email, password: ivy.password } });
    expect(await send(again.body.accessToken, 'x'.repeat(201))).toMatchObject({ status: 400 });
    expect(await send(again.body.accessToken, 'a')).toMatchObject({ status: 201, limit: expect.stringMatching(/;r=0;/) });
    // Over the limit, a malformed key is refused as over the limit, as any request's input is judged after its count.
    expect(await send(again.body.accessToken, 'x'.repeat(201))).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(written).toEqual(['a']);
  });
});
