import express from 'express';
import { z } from 'zod';
import { ConflictError, TooManyRequestsError } from '../../src/platform/core/errors/app-error';
import { defineRoute } from '../../src/platform/core/http/route';
import type { ApiModule } from '../../src/platform/core/http/module';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { healthModule } from '../../src/modules/health/health.module';
import { testConfig, unitApp } from '../helpers/config';
import { listen } from '../helpers/http';

const EchoBody = z.object({ name: z.string().min(1), age: z.number().int().min(0) });

// A module exercising the platform: validation, typed errors, unknown errors, response shaping.
const probeModule: ApiModule = {
  name: 'probe',
  routes: () => [
    defineRoute({
      method: 'post',
      path: '/probe/echo/:id',
      operationId: 'postProbeEchoId',
      tag: 'health',
      summary: 'echo',
      auth: 'public',
      request: { body: EchoBody, params: z.object({ id: z.string().regex(/^\d+$/) }), query: z.object({ q: z.string().optional() }) },
      response: { description: 'echo', schema: z.object({ id: z.string(), name: z.string() }) },
      handler: ({ body, params }) => ({ id: params.id, name: body.name, secretField: 'must not leak' }),
    }),
    defineRoute({
      method: 'get',
      path: '/probe/conflict',
      operationId: 'getProbeConflict',
      tag: 'health',
      summary: 'conflict',
      auth: 'public',
      response: { description: 'never', schema: z.object({}) },
      handler: () => {
        throw new ConflictError('Already answered', { state: 'ACTIVE' });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/probe/limited',
      operationId: 'getProbeLimited',
      tag: 'health',
      summary: 'limited',
      auth: 'public',
      response: { description: 'never', schema: z.object({}) },
      handler: () => {
        throw new TooManyRequestsError('Slow down', 12.2);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/probe/crash',
      operationId: 'getProbeCrash',
      tag: 'health',
      summary: 'crash',
      auth: 'public',
      response: { description: 'never', schema: z.object({}) },
      handler: () => {
        throw new Error('FAILED_PRECONDITION: projects/demo/databases/(default) internal detail');
      },
    }),
    defineRoute({
      method: 'get',
      path: '/probe/contended',
      operationId: 'getProbeContended',
      tag: 'health',
      summary: 'contended',
      auth: 'public',
      response: { description: 'never', schema: z.object({}) },
      handler: () => {
        // What the Firestore SDK throws when a transaction gives up on a locked document.
        throw Object.assign(new Error('10 ABORTED: Transaction lock timeout.'), { code: 10 });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/probe/bad-response',
      operationId: 'getProbeBadResponse',
      tag: 'health',
      summary: 'response breaks its own schema',
      auth: 'public',
      response: { description: 'x', schema: z.object({ count: z.number() }) },
      handler: () => ({ count: 'three' }) as unknown as { count: number },
    }),
  ],
};

const logs: unknown[] = [];
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  setLogSink((entry) => logs.push(entry));
  const { app } = unitApp({ config: testConfig({ CORS_ORIGINS: 'https://admin.example.test' }), modules: [healthModule, probeModule] });
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  setLogSink(() => undefined);
});

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { res, body };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('error body shape', () => {
  it('404 names the method and path', async () => {
    const { res, body } = await call('/api/v1/nope?x=1');
    expect(res.status).toBe(404);
    expect(body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: 'Cannot GET /api/v1/nope',
      requestId: res.headers.get('x-request-id'),
    });
  });

  it('malformed JSON is a 400 with the standard body', async () => {
    const { res, body } = await call('/api/v1/probe/echo/1', json('{"name": "a",'));
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'MALFORMED_JSON', message: 'Malformed JSON in request body' });
  });

  it('a body over the limit is a 413', async () => {
    const { res, body } = await call('/api/v1/probe/echo/1', json({ name: 'x'.repeat(110 * 1024), age: 1 }));
    expect(res.status).toBe(413);
    expect(body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('zod failures are a 400 naming each field', async () => {
    const { res, body } = await call('/api/v1/probe/echo/7?q=1', json({ name: '', age: -1, extra: true }));
    expect(res.status).toBe(400);
    expect(body.error).toBe('Bad Request');
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toContain('body.name');
    expect(body.message).toContain('body.age');
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.age', 'body.name']);
  });

  it('a path id that cannot exist is a 404 with the standard body (before the body is judged)', async () => {
    const { res, body } = await call('/api/v1/probe/echo/abc', json({ name: '', age: -1 }));
    expect(res.status).toBe(404);
    expect(body).toMatchObject({ statusCode: 404, error: 'Not Found', requestId: expect.any(String) });
    expect(body.message).toContain('/api/v1/probe/echo/abc');
  });

  it('text with half a surrogate pair is a 400 naming the field, not a 500 from Firestore', async () => {
    const raw = '{"name":"\\ud800 broken","age":3}';
    const { res, body } = await call('/api/v1/probe/echo/7', json(raw));
    expect(res.status).toBe(400);
    expect(body.details).toEqual([expect.objectContaining({ field: 'body.name', code: 'invalid_text' })]);
    // Found at any depth, in array items and in key names too.
    const nested = await call('/api/v1/probe/echo/7', json('{"name":"ok","age":3,"extra":{"tags":["fine","\\udc00"]}}'));
    expect([nested.res.status, nested.body.details?.[0]?.field]).toEqual([400, 'body.extra.tags.1']);
    const key = await call('/api/v1/probe/echo/7', json('{"name":"ok","age":3,"extra":{"\\ud800":1}}'));
    expect([key.res.status, key.body.details?.[0]?.field]).toEqual([400, 'body.extra.\ud800']);
    const emoji = await call('/api/v1/probe/echo/7', json({ name: '😀'.repeat(3), age: 3 }));
    expect(emoji.res.status).toBe(200);
  });

  it('a non-JSON body on a JSON route is a 415', async () => {
    const { res, body } = await call('/api/v1/probe/echo/1', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(415);
    expect(body.error).toBe('Unsupported Media Type');
  });

  it('typed errors keep status, details and headers', async () => {
    const conflict = await call('/api/v1/probe/conflict');
    expect(conflict.res.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'Conflict', code: 'CONFLICT', message: 'Already answered', details: { state: 'ACTIVE' } });
    const limited = await call('/api/v1/probe/limited');
    expect(limited.res.status).toBe(429);
    expect(limited.res.headers.get('retry-after')).toBe('13');
  });

  it('unknown errors are a 500 without stack or internals, logged with the request id', async () => {
    const { res, body } = await call('/api/v1/probe/crash');
    expect(res.status).toBe(500);
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: 'Internal server error',
      requestId: res.headers.get('x-request-id'),
    });
    expect(JSON.stringify(body)).not.toMatch(/FAILED_PRECONDITION|projects\/|at /);
    expect(logs).toContainEqual(expect.objectContaining({ severity: 'ERROR', message: 'unhandled error', requestId: body.requestId }));
  });

  it('a transaction Firestore gave up on (lock contention) is a 503 CONTENDED with Retry-After, not a 500', async () => {
    const { res, body } = await call('/api/v1/probe/contended');
    expect([res.status, body.code, res.headers.get('retry-after')]).toEqual([503, 'CONTENDED', '1']);
    expect(JSON.stringify(body)).not.toMatch(/ABORTED|lock/);
  });

  it('a response that breaks its own schema is a 500, not a 400', async () => {
    const { res } = await call('/api/v1/probe/bad-response');
    expect(res.status).toBe(500);
  });
});

describe('request handling', () => {
  it('validated input reaches the handler and the response schema strips unknown fields', async () => {
    const { res, body } = await call('/api/v1/probe/echo/42', json({ name: 'Lan', age: 30 }));
    expect(res.status).toBe(200);
    expect(body).toEqual({ id: '42', name: 'Lan' });
  });

  it('routes as Express would: case, trailing slash, query, decoded params, HEAD, OPTIONS and the wrong method', async () => {
    const ok = { name: 'Lan', age: 30 };
    for (const path of ['/api/v1/probe/echo/7', '/api/v1/PROBE/Echo/7', '/api/v1/probe/echo/7/', '/api/v1/probe/echo/7?q=x', '/api/v1/probe/echo/%37']) {
      const { res, body } = await call(path, json(ok));
      expect([path, res.status, body]).toEqual([path, 200, { id: '7', name: 'Lan' }]);
    }
    expect((await call('/api/v1/probe/echo/7/extra', json(ok))).res.status).toBe(404);
    expect((await call('/api/v1/probe/echo/%E9', json(ok))).res.status).toBe(404); // undecodable: no such resource
    const wrongMethod = await call('/api/v1/probe/echo/7', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ok) });
    expect([wrongMethod.res.status, wrongMethod.body.message]).toEqual([404, 'Cannot PUT /api/v1/probe/echo/7']);
    const head = await fetch(`${server.url}/api/v1/probe/conflict`, { method: 'HEAD' });
    expect(head.status).toBe(409);
    const options = await fetch(`${server.url}/api/v1/probe/conflict`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([200, 'GET,HEAD']);
  });

  it('answers an X-Request-Id of its own, whatever the client sent', async () => {
    const sent = await call('/api/v1/health', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(sent.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = await call('/api/v1/nope', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.res.headers.get('x-request-id')).not.toBe('bad id <script>');
    expect(replaced.body.requestId).toBe(replaced.res.headers.get('x-request-id'));
  });

  it('allows CORS only for configured origins', async () => {
    const allowed = await call('/api/v1/health', { headers: { origin: 'https://admin.example.test' } });
    expect(allowed.res.headers.get('access-control-allow-origin')).toBe('https://admin.example.test');
    const denied = await call('/api/v1/health', { headers: { origin: 'https://evil.example.test' } });
    expect(denied.res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('pre-parsed bodies (Cloud Functions)', () => {
  // The Functions runtime parses JSON before the app and leaves req.rawBody: the limit must still hold.
  async function withPreParsed(raw: string) {
    const outer = express();
    outer.use((req, _res, next) => {
      const buf = Buffer.from(raw);
      Object.assign(req, { rawBody: buf, body: JSON.parse(raw), _body: true });
      req.resume();
      next();
    });
    outer.use(unitApp({ config: testConfig(), modules: [probeModule] }).app);
    const s = await listen(outer);
    try {
      const res = await fetch(`${s.url}/api/v1/probe/echo/7`, json(raw));
      return { status: res.status, body: await res.json() };
    } finally {
      await s.close();
    }
  }

  it('accepts a pre-parsed body under the limit', async () => {
    const res = await withPreParsed(JSON.stringify({ name: 'Minh', age: 3 }));
    expect(res).toEqual({ status: 200, body: { id: '7', name: 'Minh' } });
  });

  it('refuses a pre-parsed body over the limit with 413', async () => {
    const res = await withPreParsed(JSON.stringify({ name: 'x'.repeat(200 * 1024), age: 3 }));
    expect(res.status).toBe(413);
  });
});
