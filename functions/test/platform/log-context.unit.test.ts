import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LogEntry } from 'firebase-functions/logger';
import { z } from 'zod';
import { buildApp } from '../../src/app';
import type { ApiModule } from '../../src/platform/core/http/module';
import { defineRoute } from '../../src/platform/core/http/route';
import { createJwtAccessTokenVerifier } from '../../src/platform/core/auth/access-token';
import { logger, setLogSink } from '../../src/platform/core/logging/logger';
import { runFunction, taskRunFields, triggerRunFields } from '../../src/platform/core/module/runs';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { originHeaders } from '../../src/platform/kits/tasks/tasks';
import { testConfig } from '../helpers/config';
import { listen } from '../helpers/http';

// Every line logged while a request, a task or a trigger runs carries that run's id, however deep the code that
// logs it (a service behind awaits, timers and the JSON body parser's stream callbacks).

let logged: LogEntry[] = [];
beforeEach(() => {
  logged = [];
  setLogSink((entry) => logged.push(entry));
});
afterAll(() => setLogSink(() => undefined));

// A "service" that knows nothing of requests: it logs after a timer, a microtask and an immediate.
async function serviceDeepDown(label: string): Promise<void> {
  await sleep(5);
  await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
  logger.info('deep in a service', { label });
}

const ok = z.object({ ok: z.boolean() });
const probe: ApiModule = {
  name: 'probe',
  routes: () => [
    defineRoute({
      method: 'post',
      path: '/probe/work',
      operationId: 'probeWork',
      tag: 'health',
      summary: 'work',
      auth: 'public',
      request: { body: z.object({ label: z.string() }) },
      response: { description: 'ok', schema: ok },
      handler: async ({ body }) => {
        await serviceDeepDown(body.label);
        // What a task enqueued here would carry as its origin.
        logger.info('enqueue', { label: body.label, headers: originHeaders() });
        return { ok: true };
      },
    }),
  ],
};

describe('request log lines', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const config = testConfig();
    const { app } = buildApp({
      config,
      modules: [probe],
      verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
      rateLimiter: createRateLimiter(memoryRateLimitStore()),
      idempotency: memoryIdempotencyStore(),
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  const post = (label: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v1/probe/work`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ label }) });

  it('a line logged deep inside a service carries its request id, for concurrent requests each its own', async () => {
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((label) => post(label)));
    const ids = answers.map((res) => res.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(4);
    for (const [i, label] of ['a', 'b', 'c', 'd'].entries()) {
      const line = logged.find((entry) => entry.message === 'deep in a service' && entry.label === label);
      expect(line).toMatchObject({ requestId: ids[i], severity: 'INFO' });
    }
  });

  it('so does a body that arrives in pieces (read from socket events: the body parser keeps the request context)', async () => {
    const body = JSON.stringify({ label: 'slow' });
    const requestId = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v1/probe/work`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers['x-request-id'])));
        },
      );
      req.on('error', reject);
      req.flushHeaders();
      req.write(body.slice(0, 5));
      setTimeout(() => req.end(body.slice(5)), 30);
    });
    expect(logged.find((entry) => entry.label === 'slow')).toMatchObject({ requestId });
  });

  it('the id a client sent (X-Request-Id) is never ours: it is logged beside it as clientRequestId, and tasks carry our id', async () => {
    const res = await post('e', { 'x-request-id': 'edge-req-12345678' });
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(logged.find((entry) => entry.message === 'deep in a service' && entry.label === 'e')).toMatchObject({
      requestId,
      clientRequestId: 'edge-req-12345678',
    });
    expect(logged.find((entry) => entry.message === 'enqueue' && entry.label === 'e')).toMatchObject({ headers: { 'X-Request-Id': requestId } });
    // Two requests claiming one id stay two requests.
    const again = await post('e2', { 'x-request-id': 'edge-req-12345678' });
    expect(again.headers.get('x-request-id')).not.toBe(requestId);
    // An unsafe one is not logged at all.
    await post('u', { 'x-request-id': 'bad id {"severity":"ERROR"}' });
    expect(logged.find((entry) => entry.message === 'deep in a service' && entry.label === 'u')).not.toHaveProperty('clientRequestId');
  });

  it('a line logged outside any run has no id', () => {
    logger.info('at boot');
    expect(logged.at(-1)).not.toHaveProperty('requestId');
    expect(logged.at(-1)).not.toHaveProperty('eventId');
  });
});

describe('trigger and task log lines', () => {
  it("a trigger's lines, its failure's too, carry its event id and function name", async () => {
    const handler = async (event: { id: string }) => {
      await serviceDeepDown(`trigger ${event.id}`);
      throw new Error('store unavailable');
    };
    await expect(runFunction(triggerRunFields('onRideWritten', 'evt-42'), () => handler({ id: 'evt-42' }))).rejects.toThrow('store unavailable');
    expect(logged.find((entry) => entry.message === 'deep in a service')).toMatchObject({ eventId: 'evt-42', function: 'onRideWritten' });
    expect(logged.find((entry) => entry.message === 'function failed; it will be retried')).toMatchObject({
      eventId: 'evt-42',
      function: 'onRideWritten',
      severity: 'ERROR',
      err: { message: 'store unavailable' },
    });
  });

  it("a task's lines carry its Cloud Tasks id (or a new one) and the id of the request that enqueued it", async () => {
    await runFunction(taskRunFields('rideExpiry', 'ride-expiry-r1', { 'x-request-id': 'req-from-api-1' }), () => serviceDeepDown('task'));
    expect(logged.at(-1)).toMatchObject({ taskId: 'ride-expiry-r1', requestId: 'req-from-api-1', function: 'rideExpiry' });

    const unnamed = taskRunFields('rideExpiry', '', { 'x-request-id': 'not safe; to echo' });
    expect(unnamed.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(unnamed).not.toHaveProperty('requestId');
  });
});
