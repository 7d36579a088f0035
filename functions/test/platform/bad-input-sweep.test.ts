import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { testConfig } from '../helpers/config';
import { requireEmulators } from '../helpers/emulators';
import { listen } from '../helpers/http';

// Every operation of the OpenAPI document, called with ids that cannot exist, bad query values and
// malformed bodies, as an anonymous caller, a user and an administrator (the app in-process on the
// emulators). None may answer 5xx (503 aside: a switched-off dependency), and every 4xx has the
// standard error body.
beforeAll(requireEmulators);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADMIN = `sweep-admin-${Date.now()}@superapp.test`;
const config = testConfig({
  OTP_CHANNEL: 'console',
  OTP_DEV_CODE: '123456',
  ADMIN_EMAILS: ADMIN,
  SMS_PROVIDER: 'console',
  STORAGE_DRIVER: 'local',
  STORAGE_LOCAL_DIR: path.join(os.tmpdir(), 'superapp-sweep'),
  MESSAGE_DELIVERY: 'background',
  PUSH_TRANSPORT: 'outbox',
});
const built = buildApp({ config, rateLimiter: createRateLimiter(memoryRateLimitStore()) });

const BAD_IDS = [
  '__proto__',
  '__name__',
  '..',
  '.',
  '%2E%2E',
  encodeURIComponent('../../etc/passwd'),
  encodeURIComponent('a/b'),
  'x'.repeat(1600),
  '%ED%A0%80',
  '%E9',
  'unknown-id',
];
const BAD_QUERY_VALUES = ['__proto__', '-1', 'NaN', '1e309', 'abc', '', 'x'.repeat(3000), '%ED%A0%80', '..%2F..'];
const BAD_BODIES = ['{', '[]', 'null', '"text"', '123', '{"a":', '{"__proto__":{"admin":true}}', JSON.stringify({ a: { b: { c: { d: { e: { f: {} } } } } } })];
const emoji50 = '😀'.repeat(50);
const BAD_FIELD_VALUES: unknown[] = [
  emoji50,
  '\ud800 half a pair',
  '__proto__',
  '../../etc/passwd',
  { $gt: '' },
  [1, 2],
  1e308,
  -1,
  true,
  null,
  'x'.repeat(5000),
];

interface Caller {
  name: string;
  token?: string;
}

let base: { url: string; close(): Promise<void> };
const callers: Caller[] = [{ name: 'anonymous' }];

async function request(method: string, url: string, opts: { token?: string; body?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': '198.18.0.1' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(`${base.url}${url}`, { method: method.toUpperCase(), headers, body: opts.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: body as Json };
}

async function signIn(email: string): Promise<string> {
  const reg = await request('post', '/api/v1/auth/register', { body: JSON.stringify({ email, password: 'correct horse battery', name: 'Sweep' }) });
  if (reg.status !== 200) throw new Error(`register ${reg.status} ${JSON.stringify(reg.body)}`);
  const verified = await request('post', '/api/v1/auth/email/otp/verify', { body: JSON.stringify({ email, code: '123456', purpose: 'REGISTER' }) });
  if (verified.status !== 200) throw new Error(`verify ${verified.status} ${JSON.stringify(verified.body)}`);
  return verified.body.accessToken as string;
}

beforeAll(async () => {
  base = await listen(built.app);
  callers.push({ name: 'user', token: await signIn(`sweep-user-${Date.now()}@example.com`) });
  callers.push({ name: 'admin', token: await signIn(ADMIN) });
});

afterAll(async () => {
  await base?.close();
});

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return resolve(doc, doc.components.schemas[String(schema.$ref).split('/').pop()!]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Json) => resolve(doc, s)));
  return schema;
}

// Every request of the sweep: [operation, method, url, body?, contentType?]
// `field`: a case only the route's own validation sees (query and field values); a caller the route refuses at the
// door (401, 403) never reaches it, so the sweep sends those only to callers the route lets in. The rest (path ids,
// bodies the parsers refuse) is sent as every caller.
interface Case {
  op: string;
  method: string;
  url: string;
  body?: string;
  contentType?: string;
  field?: true;
}

function plan(doc: Json): Case[] {
  const out: Case[] = [];
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const params: Json[] = op.parameters ?? [];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string);
      const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name as string);
      const fill = (value: string) => `/api/v1${template.replace(/\{([^}]+)\}/g, () => value)}`;
      const name = `${method.toUpperCase()} ${template}`;
      const valid = fill('unknown-id');
      for (const id of pathParams.length > 0 ? BAD_IDS : []) out.push({ op: name, method, url: fill(id) });
      for (const q of queryParams) {
        for (const v of BAD_QUERY_VALUES) out.push({ op: name, method, url: `${valid}?${q}=${v}`, field: true });
        out.push({ op: name, method, url: `${valid}?${q}[]=1&${q}[]=2`, field: true });
        out.push({ op: name, method, url: `${valid}?${q}[a][b]=1`, field: true });
      }
      const json = op.requestBody?.content?.['application/json'];
      const multipart = op.requestBody?.content?.['multipart/form-data'];
      if (json) {
        for (const body of BAD_BODIES) out.push({ op: name, method, url: valid, body });
        const props = Object.keys(resolve(doc, json.schema)?.properties ?? {});
        for (const prop of props)
          for (const value of BAD_FIELD_VALUES) out.push({ op: name, method, url: valid, body: JSON.stringify({ [prop]: value }), field: true });
        out.push({ op: name, method, url: valid, body: 'name=x', contentType: 'application/x-www-form-urlencoded' });
      }
      if (multipart) {
        out.push({
          op: name,
          method,
          url: valid,
          body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nbroken',
          contentType: 'multipart/form-data; boundary=x',
        });
        out.push({ op: name, method, url: valid, body: '{}', contentType: 'application/json' });
        out.push({ op: name, method, url: valid, body: 'no boundary', contentType: 'multipart/form-data' });
      }
    }
  }
  return out;
}

describe('user ids on the wallet admin routes (issue 29 item 17)', () => {
  // Ledger ids prefix the user id (`earnings_<uid>`): a path id near Firestore's 1,500-byte limit passed the edge and
  // failed inside Firestore (500). User ids are Firebase Auth uids (at most 128 characters).
  it('answer 404 with the standard body for ids that are no user, up to the 1,500-byte document limit', async () => {
    const admin = callers.find((c) => c.name === 'admin')!;
    for (const id of ['a'.repeat(70), 'a'.repeat(129), 'a'.repeat(1495), 'a'.repeat(1500)]) {
      for (const url of [`/api/v1/wallet/admin/users/${id}`, `/api/v1/wallet/admin/users/${id}/check`]) {
        const res = await request('get', url, { token: admin.token });
        expect([url.length, res.status, res.body.code]).toEqual([url.length, 404, 'NOT_FOUND']);
      }
    }
  });
});

describe('bad-input sweep of every documented operation', () => {
  it('answers no 5xx (503 aside) and only standard error bodies, as anonymous, user and admin', async () => {
    const doc = built.openApiDocument() as Json;
    const requests = plan(doc);
    const operations = new Set(requests.map((r) => r.op));
    expect(Object.values(doc.paths as Json).reduce((n: number, item) => n + Object.keys(item as Json).length, 0)).toBeGreaterThanOrEqual(80);
    const failures: string[] = [];
    let sent = 0;
    let skipped = 0;
    const check = (caller: Caller, r: Case, res: { status: number; body: Json }) => {
      sent += 1;
      const standard =
        typeof res.body === 'object' &&
        res.body !== null &&
        res.body.statusCode === res.status &&
        typeof res.body.error === 'string' &&
        typeof res.body.code === 'string' &&
        typeof res.body.message === 'string' &&
        typeof res.body.requestId === 'string';
      if (res.status >= 500 && res.status !== 503)
        failures.push(
          `${caller.name} ${r.method.toUpperCase()} ${r.url.slice(0, 120)} ${r.body?.slice(0, 80) ?? ''} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
        );
      else if (res.status >= 400 && !standard)
        failures.push(
          `${caller.name} ${r.method.toUpperCase()} ${r.url.slice(0, 120)} → ${res.status} non-standard body ${JSON.stringify(res.body).slice(0, 200)}`,
        );
    };
    // A few requests at a time: the sweep is long, the emulator shared.
    const drain = (caller: Caller, queue: Case[], onAnswer: (r: Case, status: number) => void = () => undefined) =>
      Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let r = queue.shift(); r; r = queue.shift()) {
            const res = await request(r.method, r.url, { token: caller.token, body: r.body, contentType: r.contentType });
            check(caller, r, res);
            onAnswer(r, res.status);
          }
        }),
      );
    // Each operation's first field case is sent with the rest; when it is refused at the door (401, 403), the
    // caller's other field cases of that operation are not sent (the door does not read the input).
    const probes = new Set<Case>();
    const probed = new Set<string>();
    for (const r of requests) if (r.field && !probed.has(r.op)) (probed.add(r.op), probes.add(r));
    for (const caller of callers) {
      const refused = new Set<string>();
      await drain(
        caller,
        requests.filter((r) => !r.field || probes.has(r)),
        (r, status) => probes.has(r) && (status === 401 || status === 403) && refused.add(r.op),
      );
      const rest = requests.filter((r) => r.field && !probes.has(r));
      const queue = rest.filter((r) => !refused.has(r.op));
      skipped += rest.length - queue.length;
      await drain(caller, queue);
    }
    process.stdout.write(
      `bad-input sweep: ${sent} requests over ${operations.size} operations, ${callers.length} callers (${skipped} field cases not sent to callers refused at the door)\n`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
