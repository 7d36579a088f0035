import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { BASE_URL, requireEmulators } from '../../helpers/emulators';

// Every operation of the OpenAPI document that admits ADMIN, called by an administrator holding `[]`: a 403
// PERMISSION_REQUIRED on all but the few documented as open to every administrator (issue 29, item 2). The
// list below is the README's; a new admin route must name a permission or be added here on purpose.
beforeAll(requireEmulators);

const OPEN_TO_EVERY_ADMIN = new Set([
  'GET /health/admin/env',
  'GET /health/admin/deps',
  // Own media: an administrator uploads and manages its own files like any user.
  'POST /upload/single',
  'POST /upload/image',
  'POST /upload/video',
  'POST /upload/multiple',
  'POST /upload/presign',
  'POST /upload/presign/{id}/complete',
  'GET /media',
  'GET /media/{id}',
  'DELETE /media/{id}',
]);

type Operation = { description?: string };
let admin: Tokens;
let narrowed: Tokens;
let operations: Array<{ method: string; path: string; op: Operation }>;

beforeAll(async () => {
  admin = await adminTokens();
  narrowed = await registerVerified();
  expect((await call('PATCH', `/users/admin/${narrowed.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } })).status).toBe(200);
  expect((await call('PATCH', `/users/admin/${narrowed.user.id}`, { token: admin.accessToken, body: { permissions: [] } })).status).toBe(200);
  const doc = (await (await fetch(`${BASE_URL}/docs-json`)).json()) as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}, 60_000);

afterAll(async () => {
  await call('PATCH', `/users/admin/${narrowed.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
});

const admitsAdmin = (op: Operation) => /with one of the roles [^.\n]*\bADMIN\b/.test(op.description ?? '');

it('the operations open to every administrator are documented as such', () => {
  for (const { method, path, op } of operations.filter((o) => OPEN_TO_EVERY_ADMIN.has(`${o.method} ${o.path}`))) {
    expect(`${method} ${path}: ${op.description}`).toContain('Open to every administrator');
  }
});

it('an administrator holding [] gets 403 PERMISSION_REQUIRED on every other operation that admits ADMIN', async () => {
  const guarded = operations.filter((o) => admitsAdmin(o.op) && !OPEN_TO_EVERY_ADMIN.has(`${o.method} ${o.path}`));
  expect(guarded.length).toBeGreaterThan(40);
  const answers = await Promise.all(
    guarded.map(async ({ method, path }) => {
      const url = path.replace(/\{[^}]+\}/g, 'walk-id');
      const res = await call(method, url, { token: narrowed.accessToken, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      return { op: `${method} ${path}`, status: res.status, code: (res.body as { code?: string }).code };
    }),
  );
  const wrong = answers.filter((a) => a.status !== 403 || a.code !== 'PERMISSION_REQUIRED');
  expect(wrong).toEqual([]);
}, 120_000);

it('each guarded operation documents the permission it needs', () => {
  const undocumented = operations.filter(
    (o) => admitsAdmin(o.op) && !OPEN_TO_EVERY_ADMIN.has(`${o.method} ${o.path}`) && !/Admin permission: [a-z.]+/.test(o.op.description ?? ''),
  );
  expect(undocumented.map((o) => `${o.method} ${o.path}`)).toEqual([]);
});
