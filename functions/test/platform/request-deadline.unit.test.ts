import { z } from 'zod';
import express from 'express';
import { defineRoute, toExpressHandlers } from '../../src/platform/core/http/route';
import { requestDeadline } from '../../src/platform/core/http/deadline';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import type { ApiModule } from '../../src/platform/core/http/module';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RENEW_FOR_MS,
  keepClaimed,
  memoryIdempotencyStore,
  type IdempotencyStore,
} from '../../src/platform/kits/idempotency/idempotency';
import type { LogEntry } from 'firebase-functions/logger';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { API_TIMEOUT_SECONDS } from '../../src/platform/core/deploy/settings';
import { parseConfig } from '../../src/platform/core/config';
import { testConfig, unitApp } from '../helpers/config';
import { buildApp } from '../../src/app';
import type { RateLimiter } from '../../src/platform/core/ratelimit/rate-limit';
import type { AuthContext } from '../../src/platform/core/auth/access-token';
import { listen } from '../helpers/http';
import { request as httpRequest } from 'node:http';
import { streamMultipart } from '../../src/platform/core/http/multipart';
import { sendFileStream } from '../../src/platform/core/http/send-file';
import { createReadStream } from 'node:fs';
import type { Response } from 'express';

// The server-side deadline (REQUEST_DEADLINE_MS): one 503 DEADLINE_EXCEEDED with Retry-After past it, nothing
// written twice after it, and an idempotent run that outlives it completes once for the client's retry.
const DEADLINE_MS = 150;

// A handler held until the test opens its gate, counting its runs and able to fail after the deadline.
function slowProbe() {
  let runs = 0;
  let gates: Array<() => void> = [];
  let failLate = false;
  const wait = () => new Promise<void>((resolve) => gates.push(resolve));
  const handler = async ({ body }: { body: { item: string } }) => {
    runs += 1;
    const run = runs;
    await wait();
    if (failLate) {
      failLate = false;
      throw new Error('storage down after the deadline');
    }
    return { item: body.item, run };
  };
  const schema = z.object({ item: z.string(), run: z.number() });
  const module: ApiModule = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/slow',
        operationId: 'postProbeSlow',
        tag: 'health',
        summary: 'slow',
        auth: 'public',
        request: { body: z.object({ item: z.string() }) },
        response: { status: 201, description: 'ok', schema },
        handler,
      }),
      defineRoute({
        method: 'post',
        path: '/probe/slow-once',
        operationId: 'postProbeSlowOnce',
        tag: 'health',
        summary: 'slow, idempotent',
        auth: 'public',
        idempotent: true,
        request: { body: z.object({ item: z.string() }) },
        response: { status: 201, description: 'ok', schema },
        handler,
      }),
      defineRoute({
        method: 'get',
        path: '/probe/fast',
        operationId: 'getProbeFast',
        tag: 'health',
        summary: 'fast',
        auth: 'public',
        response: { description: 'ok', schema: z.object({ ok: z.boolean() }) },
        handler: () => ({ ok: true }),
      }),
    ],
  };
  return {
    module,
    runs: () => runs,
    failLate: () => (failLate = true),
    /** Lets every held run finish. */
    open: () => {
      const held = gates;
      gates = [];
      held.forEach((release) => release());
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('request deadline', () => {
  const probe = slowProbe();
  const { app } = unitApp({ config: testConfig({ REQUEST_DEADLINE_MS: String(DEADLINE_MS) }), modules: [probe.module], idempotency: memoryIdempotencyStore() });
  let server: { url: string; close(): Promise<void> };
  const logs: LogEntry[] = [];
  beforeAll(async () => {
    server = await listen(app);
    setLogSink((entry) => logs.push(entry));
  });
  afterAll(async () => {
    setLogSink(() => undefined);
    probe.open();
    await server.close();
  });
  afterEach(() => probe.open());

  const post = (path: string, item: string, key?: string) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify({ item }),
    });

  it('answers 503 DEADLINE_EXCEEDED with Retry-After once the handler overruns it', async () => {
    const started = Date.now();
    const res = await post('/probe/slow', 'a');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(9);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: 503, code: 'DEADLINE_EXCEEDED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1_000);
  });

  it('the late answer is dropped (no second write, no error), and the connection keeps serving', async () => {
    logs.length = 0;
    expect((await post('/probe/slow', 'late')).status).toBe(503);
    probe.open(); // the handler now answers: into a response already sent
    await settle();
    // The request log's line for the 503 only: no unhandled error, no headers-sent crash.
    expect(logs.filter((e) => e.severity === 'ERROR').map((e) => e.message)).toEqual(['request failed']);
    const fast = await fetch(`${server.url}/api/v1/probe/fast`);
    expect(fast.status).toBe(200);
  });

  it('a late failure is logged, not written (the 503 stands)', async () => {
    logs.length = 0;
    probe.failLate();
    expect((await post('/probe/slow', 'fails')).status).toBe(503);
    probe.open();
    await settle();
    expect(logs.some((e) => e.message === 'request failed after its deadline answer')).toBe(true);
    expect(logs.filter((e) => e.severity === 'ERROR' && e.message !== 'request failed')).toEqual([]);
  });

  it('a request that finishes in time is not touched by its timer', async () => {
    const res = await fetch(`${server.url}/api/v1/probe/fast`);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 50));
    expect(await res.json()).toEqual({ ok: true });
  });

  it('an idempotent run cut by the deadline runs once: the retry gets 409 while it runs, then its answer', async () => {
    const before = probe.runs();
    const first = await post('/probe/slow-once', 'x', 'key-deadline-1');
    expect(first.status).toBe(503);
    const during = await post('/probe/slow-once', 'x', 'key-deadline-1');
    expect(during.status).toBe(409);
    expect(((await during.json()) as { code: string }).code).toBe('IDEMPOTENCY_IN_PROGRESS');
    probe.open();
    await settle();
    const after = await post('/probe/slow-once', 'x', 'key-deadline-1');
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(await after.json()).toEqual({ item: 'x', run: before + 1 });
    expect(probe.runs()).toBe(before + 1);
  });

  it('an idempotent run that fails after the deadline frees its key: the retry runs', async () => {
    probe.failLate();
    expect((await post('/probe/slow-once', 'y', 'key-deadline-2')).status).toBe(503);
    probe.open();
    await settle();
    const retry = post('/probe/slow-once', 'y', 'key-deadline-2');
    await settle();
    probe.open();
    const res = await retry;
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('handlers running past their 503 (DEADLINE_OVERDUE_LIMIT)', () => {
  const probe = slowProbe();
  const { app } = unitApp({ config: testConfig({ REQUEST_DEADLINE_MS: String(DEADLINE_MS), DEADLINE_OVERDUE_LIMIT: '2' }), modules: [probe.module] });
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(async () => {
    probe.open();
    await server.close();
  });
  const post = (item: string) =>
    fetch(`${server.url}/api/v1/probe/slow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item }) });
  const fast = () => fetch(`${server.url}/api/v1/probe/fast`);

  it('refuses new requests with 503 OVERLOADED at the limit, and serves again once they settle', async () => {
    expect((await post('a')).status).toBe(503);
    expect((await fast()).status).toBe(200); // one overdue: under the limit
    expect((await post('b')).status).toBe(503);
    const refused = await fast();
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { code: string }).code).toBe('OVERLOADED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(5);
    probe.open();
    await settle();
    expect((await fast()).status).toBe(200);
  });

  it('is off by default; a handler hung for good stops counting at the function timeout', async () => {
    expect(testConfig().DEADLINE_OVERDUE_LIMIT).toBe(0);
    const hung = defineRoute({
      method: 'get',
      path: '/probe/hung',
      operationId: 'getProbeHung',
      tag: 'health',
      summary: 'hung',
      auth: 'public',
      response: { description: 'ok', schema: z.object({}) },
      handler: () => new Promise<never>(() => undefined),
    });
    const ok = defineRoute({
      method: 'get',
      path: '/probe/ok',
      operationId: 'getProbeOk',
      tag: 'health',
      summary: 'ok',
      auth: 'public',
      response: { description: 'ok', schema: z.object({ ok: z.boolean() }) },
      handler: () => ({ ok: true }),
    });
    const deps = { verifyAccessToken: async () => ({}) as AuthContext, rateLimiter: createRateLimiter(memoryRateLimitStore()) };
    const app = express();
    app.use(requestDeadline(50, 1, 300));
    app.get('/hung', ...toExpressHandlers(hung, deps));
    app.get('/ok', ...toExpressHandlers(ok, deps));
    const local = await listen(app);
    try {
      expect((await fetch(`${local.url}/hung`)).status).toBe(503);
      expect((await fetch(`${local.url}/ok`)).status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect((await fetch(`${local.url}/ok`)).status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('jitters Retry-After between 5 and 9 s', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 8; i += 1) {
      const res = await post(`j${i}`);
      seen.add(res.headers.get('retry-after')!);
      probe.open();
      await settle();
    }
    expect([...seen].every((v) => Number(v) >= 5 && Number(v) <= 9)).toBe(true);
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('a request that stalls before its handler', () => {
  // The guards (session lookup, rate limiter) held until the test opens them; the handler counts its runs.
  let gates: Array<() => void> = [];
  const hold = () => new Promise<void>((resolve) => gates.push(resolve));
  const open = () => {
    const held = gates;
    gates = [];
    held.forEach((release) => release());
  };
  let runs = 0;
  const verifyAccessToken = async (): Promise<AuthContext> => {
    await hold();
    return { userId: 'u1', sessionId: 's1', tokenId: 't1', roles: ['USER'] } as unknown as AuthContext;
  };
  const rateLimiter: RateLimiter = {
    hit: (rule) =>
      hold().then(() => ({
        scope: rule.scope,
        limit: rule.limit,
        windowSec: rule.windowSec,
        remaining: rule.limit - 1,
        resetSec: rule.windowSec,
        giveBack: async () => undefined,
      })),
  };
  const handler = () => {
    runs += 1;
    return { ok: true };
  };
  const schema = z.object({ ok: z.boolean() });
  const module: ApiModule = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/guarded',
        operationId: 'postProbeGuarded',
        tag: 'health',
        summary: 'guarded',
        auth: [],
        response: { description: 'ok', schema },
        handler,
      }),
      defineRoute({
        method: 'post',
        path: '/probe/limited',
        operationId: 'postProbeLimited',
        tag: 'health',
        summary: 'limited',
        auth: 'public',
        rateLimit: { scope: 'probe', limit: 5, windowSec: 60 },
        idempotent: true,
        response: { description: 'ok', schema },
        handler,
      }),
    ],
  };
  const { app } = buildApp({
    config: testConfig({ REQUEST_DEADLINE_MS: String(DEADLINE_MS) }),
    modules: [module],
    verifyAccessToken,
    rateLimiter,
    idempotency: memoryIdempotencyStore(),
  });
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(async () => {
    open();
    await server.close();
  });

  it('a stalled session lookup answers 503 and the handler never runs after it', async () => {
    const res = await fetch(`${server.url}/api/v1/probe/guarded`, { method: 'POST', headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(503);
    open();
    await settle();
    expect(runs).toBe(0);
  });

  it('a stalled rate limiter answers 503 and the idempotent handler never runs nor holds its key', async () => {
    const res = await fetch(`${server.url}/api/v1/probe/limited`, { method: 'POST', headers: { 'idempotency-key': 'stalled-1' } });
    expect(res.status).toBe(503);
    open();
    await settle();
    expect(runs).toBe(0);
    const retry = fetch(`${server.url}/api/v1/probe/limited`, { method: 'POST', headers: { 'idempotency-key': 'stalled-1' } });
    await settle();
    open();
    expect((await retry).status).toBe(200);
    expect(runs).toBe(1);
  });
});

describe('upload routes (UPLOAD_DEADLINE_MS)', () => {
  const UPLOAD_MS = 1_500;
  let stored = 0;
  const schema = z.object({ bytes: z.number() });
  const upload = defineRoute({
    method: 'post',
    path: '/probe/upload',
    operationId: 'postProbeUpload',
    tag: 'health',
    summary: 'upload',
    auth: 'public',
    idempotent: true,
    multipart: z.object({}),
    response: { status: 201, description: 'ok', schema },
    handler: async ({ req }) => {
      const { files } = await streamMultipart(req, { fileFields: ['file'], maxFiles: 1, maxFileBytes: 1_000_000 }, async (file) => {
        let bytes = 0;
        for await (const chunk of file.stream) bytes += (chunk as Buffer).length;
        return bytes;
      });
      stored += 1;
      return { bytes: files[0] };
    },
  });
  const module: ApiModule = { name: 'probe', routes: () => [upload] };
  const { app } = unitApp({ config: testConfig({ REQUEST_DEADLINE_MS: String(DEADLINE_MS), UPLOAD_DEADLINE_MS: String(UPLOAD_MS) }), modules: [module] });
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());

  // A multipart body sent in `chunks` pieces `gapMs` apart (a slow link).
  function slowUpload(file: Buffer, chunks: number, gapMs: number, key: string): Promise<number> {
    const boundary = 'slowboundary1234';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/v1/probe/upload`,
        { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, 'idempotency-key': key } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      const size = Math.ceil(body.length / chunks);
      let sent = 0;
      const tick = () => {
        req.write(body.subarray(sent, sent + size));
        sent += size;
        if (sent >= body.length) req.end();
        else setTimeout(tick, gapMs);
      };
      tick();
    });
  }

  it('a body that streams in past REQUEST_DEADLINE_MS but within UPLOAD_DEADLINE_MS is stored and answered', async () => {
    expect(await slowUpload(Buffer.alloc(40_000, 7), 5, 100, 'slow-1')).toBe(201);
    expect(stored).toBe(1);
  });

  it('an upload past UPLOAD_DEADLINE_MS still gets its 503', async () => {
    expect(await slowUpload(Buffer.alloc(40_000, 7), 5, 450, 'slow-2')).toBe(503);
  });

  it('defaults to the longest deadline the function timeout allows', () => {
    expect(testConfig().UPLOAD_DEADLINE_MS).toBe((API_TIMEOUT_SECONDS - 10) * 1000);
  });

  it('the same upload key with another file (another Content-Length) is 422, with the same file a replay', async () => {
    const form = (size: number) => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.alloc(size, 1)], { type: 'application/octet-stream' }), 'a.bin');
      return data;
    };
    const send = (size: number) =>
      fetch(`${server.url}/api/v1/probe/upload`, { method: 'POST', headers: { 'idempotency-key': 'file-key-1' }, body: form(size) });
    const first = await send(1_000);
    expect(first.status).toBe(201);
    const same = await send(1_000);
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    const other = await send(2_000);
    expect(other.status).toBe(422);
    expect(((await other.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('idempotency lease renewal', () => {
  it('a renewed claim is still running past the first lease; an abandoned one is taken over', async () => {
    const store = memoryIdempotencyStore();
    const renewed = await store.claim('a', 'h', 0);
    const abandoned = await store.claim('b', 'h', 0);
    expect(renewed.kind).toBe('run');
    expect(abandoned.kind).toBe('run');
    if (renewed.kind !== 'run') return;
    await store.renew('a', renewed.token, IDEMPOTENCY_LEASE_MS - 1_000);
    await expect(store.claim('a', 'h', IDEMPOTENCY_LEASE_MS + 1_000)).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    expect((await store.claim('b', 'h', IDEMPOTENCY_LEASE_MS + 1_000)).kind).toBe('run');
    // A stale holder cannot renew a claim taken over by another run.
    await store.renew('b', 'stale-token', IDEMPOTENCY_LEASE_MS + 2_000);
    expect((await store.claim('b', 'h', 2 * IDEMPOTENCY_LEASE_MS + 1_500)).kind).toBe('run');
  });
});

describe('keepClaimed (lease renewal of a running claim)', () => {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  function countingStore(renew: () => Promise<boolean>) {
    let calls = 0;
    const store = { renew: () => ((calls += 1), renew()) } as unknown as IdempotencyStore;
    return { store, calls: () => calls };
  }
  const logged: LogEntry[] = [];
  beforeAll(() => setLogSink((entry) => logged.push(entry)));
  afterAll(() => setLogSink(() => undefined));

  it('stops renewing after its cap, with a log line', async () => {
    logged.length = 0;
    const probe = countingStore(async () => true);
    const stop = keepClaimed(probe.store, 'cap', 't', { everyMs: 10, forMs: 60 });
    await wait(200);
    const calls = probe.calls();
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(6);
    await wait(60);
    expect(probe.calls()).toBe(calls);
    expect(logged.some((e) => e.message === 'idempotency claim no longer renewed: its run outlived the function timeout')).toBe(true);
    stop();
  });

  it('skips a renewal while the previous one is still pending', async () => {
    let finish: (held: boolean) => void = () => undefined;
    const probe = countingStore(() => new Promise<boolean>((resolve) => (finish = resolve)));
    const stop = keepClaimed(probe.store, 'slow', 't', { everyMs: 10, forMs: 10_000 });
    await wait(100);
    expect(probe.calls()).toBe(1);
    finish(true);
    await wait(40);
    expect(probe.calls()).toBeGreaterThanOrEqual(2);
    stop();
  });

  it('logs and stops when a renewal finds the claim taken over', async () => {
    logged.length = 0;
    const store = memoryIdempotencyStore();
    const first = await store.claim('taken', 'h', 0);
    if (first.kind !== 'run') throw new Error('expected a run');
    await store.claim('taken', 'h', IDEMPOTENCY_LEASE_MS + 1); // another run took the expired claim over
    const probe = countingStore(() => store.renew('taken', first.token, Date.now()));
    const stop = keepClaimed(probe.store, 'taken', first.token, { everyMs: 10 });
    await wait(80);
    expect(probe.calls()).toBe(1);
    expect(logged.filter((e) => e.message === 'idempotency claim taken over while its run was still going')).toHaveLength(1);
    stop();
  });

  it('renews for the function timeout plus a margin by default', () => {
    expect(IDEMPOTENCY_RENEW_FOR_MS).toBeGreaterThan(API_TIMEOUT_SECONDS * 1000);
    expect(IDEMPOTENCY_RENEW_FOR_MS).toBeLessThan(API_TIMEOUT_SECONDS * 1000 + IDEMPOTENCY_LEASE_MS);
  });
});

describe('sendFileStream (a download answered by the deadline meanwhile)', () => {
  it('closes the file stream unread instead of throwing on the sent headers', async () => {
    const stream = createReadStream(__filename);
    await new Promise((resolve) => stream.once('open', resolve));
    const fail = () => {
      throw new Error('ERR_HTTP_HEADERS_SENT');
    };
    const res = { locals: { deadlineExceeded: true }, headersSent: true, status: fail, set: fail } as unknown as Response;
    await expect(sendFileStream(res, { stream, contentType: 'audio/mpeg', size: 1 })).resolves.toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.destroyed).toBe(true);
  });
});

describe('idempotency release', () => {
  it('frees a running claim but never a stored answer (a completion that landed unseen is replayed)', async () => {
    const store = memoryIdempotencyStore();
    const claim = await store.claim('c', 'h', 0);
    if (claim.kind !== 'run') throw new Error('expected a run');
    await store.complete('c', claim.token, { status: 201, body: { id: 'x' } }, 1);
    await store.release('c', claim.token);
    expect(await store.claim('c', 'h', 2)).toEqual({ kind: 'replay', answer: { status: 201, body: { id: 'x' } } });
  });
});

describe('REQUEST_DEADLINE_MS', () => {
  it('defaults to 25 s and must stay at least 10 s below the api function timeout', () => {
    expect(testConfig().REQUEST_DEADLINE_MS).toBe(25_000);
    expect(testConfig().REQUEST_DEADLINE_MS).toBeLessThan(API_TIMEOUT_SECONDS * 1000);
    expect(() => testConfig({ REQUEST_DEADLINE_MS: String(API_TIMEOUT_SECONDS * 1000) })).toThrow(/REQUEST_DEADLINE_MS/);
    expect(() => parseConfig({ JWT_SECRET: 'x'.repeat(40), JWT_REFRESH_SECRET: 'y'.repeat(40), REQUEST_DEADLINE_MS: '50' })).toThrow(/REQUEST_DEADLINE_MS/);
  });
});
