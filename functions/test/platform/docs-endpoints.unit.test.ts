import fs from 'node:fs';
import path from 'node:path';
import { MODULES } from '../../src/modules';
import { renderOpenApiJson } from '../../src/platform/core/openapi/render';

// Every endpoint the repository's docs name (`POST /push-tokens`, `curl -XPOST $A/auth/refresh`, `post('/auth/…')`
// in examples) must be an operation of the API, path parameters matched by shape. The shared interface spec is not
// scanned (it is not the repository's); CHANGELOG.md is not either: its history names endpoints that are gone.
const root = path.join(__dirname, '..', '..', '..');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

// Mentions that are not endpoints of the API, each with its reason.
const NOT_API: Record<string, string> = {
  'GET /nope': 'the README’s example of an unknown route (answered 404)',
  'GET /inbox': 'the local mail sink’s address (scripts/sinks.mjs), not the API',
};

function docFiles(): string[] {
  const files = fs
    .readdirSync(root)
    .filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md')
    .map((f) => path.join(root, f));
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      : [];
  return [
    ...files,
    ...walk(path.join(root, 'docs')).filter((f) => f.endsWith('.md')),
    ...walk(path.join(root, 'examples')).filter((f) => /\.(md|mjs|js|ts|sh)$/.test(f)),
  ];
}

interface Mention {
  file: string;
  line: number;
  method: string;
  path: string;
}

// `/wallet/withdrawals[/{id}]` and `/…/{id}/approve|reject` stand for several paths.
function expand(p: string): string[] {
  const optional = p.match(/\[([^\]]*)\]/);
  if (optional) return [...expand(p.replace(optional[0], '')), ...expand(p.replace(optional[0], optional[1]))];
  const segments = p.split('/');
  const i = segments.findIndex((s) => s.includes('|'));
  if (i >= 0) return segments[i].split('|').flatMap((alt) => expand([...segments.slice(0, i), alt, ...segments.slice(i + 1)].join('/')));
  return [p];
}

function normalise(raw: string): string[] {
  const p = raw
    .split('?')[0]
    .replace(/[.:,;]+$/, '')
    .replace(/^\/api\/v1(?=\/)/, '')
    .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return expand(p).map((e) => (e.length > 1 ? e.replace(/\/$/, '') : e));
}

function mentionsIn(file: string, text: string): Mention[] {
  const found: Mention[] = [];
  const add = (line: number, methods: string[], raw: string) => {
    for (const method of methods) for (const p of normalise(raw)) found.push({ file: path.relative(root, file), line, method, path: p });
  };
  // Lines joined where a shell command continues (`\` at the end), so a curl's method and path are seen together;
  // each keeps the number of its first line.
  const lines: Array<{ at: number; text: string }> = [];
  text.split('\n').forEach((line, i) => {
    const previous = lines[lines.length - 1];
    if (previous?.text.endsWith('\\')) previous.text = `${previous.text.slice(0, -1)} ${line}`;
    else lines.push({ at: i + 1, text: line });
  });
  const methodList = `(?:${METHODS.join('|')})`;
  const prose = new RegExp(`\\b(${methodList}(?:\\|${methodList})*) +(/[A-Za-z0-9_{}:.*\\[\\]|/-]*)`, 'g');
  for (const { at, text: line } of lines) {
    for (const m of line.matchAll(prose)) add(at, m[1].split('|'), m[2]);
    for (const m of line.matchAll(/\bcurl\b.*?\$\{?A\}?(\/[^\s'"`]*)/g)) {
      const explicit = line.match(/\s-X\s?([A-Z]+)/)?.[1];
      add(at, [explicit ?? (/\s-(d|F)\s/.test(line) ? 'POST' : 'GET')], m[1]);
    }
    for (const m of line.matchAll(/\b(get|post|put|patch|del|delete)\(\s*['"`](\/[^'"`$?]*)/g)) add(at, [m[1] === 'del' ? 'DELETE' : m[1].toUpperCase()], m[2]);
  }
  return found;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc: any = JSON.parse(renderOpenApiJson(MODULES));
const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
  Object.keys(item).map((method) => ({ method: method.toUpperCase(), path: p })),
);
const isParam = (segment: string) => segment.startsWith('{');

// What fills a path parameter in the docs: a parameter (`{id}`, `:id`), a placeholder (`$RIDE`, `<paperId>`, `Qm3…`)
// or a value (`seed-fuel-01`, `PLACE`: a digit or a capital). A plain word (`bogus`) is a path segment, never an id.
const fillsParam = (segment: string) => isParam(segment) || /^[$<]|…|[0-9A-Z]/.test(segment);

// A literal matches the same literal; a parameter what fills one; a trailing `*` (`POST /upload/*`) any rest.
function exists(method: string, p: string): boolean {
  const wanted = p.split('/');
  return operations.some((op) => {
    if (op.method !== method) return false;
    const have = op.path.split('/');
    const wildcard = wanted[wanted.length - 1] === '*';
    if (wildcard ? have.length < wanted.length : have.length !== wanted.length) return false;
    return wanted.every((segment, i) => (wildcard && i === wanted.length - 1) || segment === have[i] || (isParam(have[i]) && fillsParam(segment)));
  });
}

describe('endpoints named by the docs', () => {
  const mentions = docFiles().flatMap((file) => mentionsIn(file, fs.readFileSync(file, 'utf8')));

  it('reads the README, docs and examples (prose, curl lines and code)', () => {
    expect(mentions.length).toBeGreaterThan(150);
    expect(mentions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: path.join('docs', 'api', 'notifications.md'), method: 'POST', path: '/push-tokens' }),
        expect.objectContaining({ file: path.join('docs', 'api', 'auth.md'), method: 'POST', path: '/auth/refresh' }),
        expect.objectContaining({ file: path.join('examples', 'listen.mjs'), method: 'POST', path: '/auth/firebase-token' }),
      ]),
    );
  });

  it('finds each in the API (path parameters matched by shape), but for the listed non-API addresses', () => {
    const missing = mentions
      .filter((m) => !NOT_API[`${m.method} ${m.path}`] && !exists(m.method, m.path))
      .map((m) => `${m.file}:${m.line} ${m.method} ${m.path}`);
    expect(missing).toEqual([]);
    for (const listed of Object.keys(NOT_API)) expect(mentions.some((m) => `${m.method} ${m.path}` === listed)).toBe(true);
  });

  it('reads the notations the README uses, and refuses what the API lacks', () => {
    const read = (text: string) => mentionsIn(path.join(root, 'x.md'), text).map((m) => `${m.method} ${m.path}`);
    expect(read('`GET /wallet/withdrawals[/{id}]`, `POST /wallet/admin/adjustments/{id}/approve|reject`')).toEqual([
      'GET /wallet/withdrawals',
      'GET /wallet/withdrawals/{id}',
      'POST /wallet/admin/adjustments/{id}/approve',
      'POST /wallet/admin/adjustments/{id}/reject',
    ]);
    expect(read('`PUT|DELETE /notifications/mutes/{conversationId}`, `GET /api/v1/health`, `DELETE /users/admin/:id`.')).toEqual([
      'PUT /notifications/mutes/{conversationId}',
      'DELETE /notifications/mutes/{conversationId}',
      'GET /health',
      'DELETE /users/admin/{id}',
    ]);
    expect(read("curl -s -XPOST $A/auth/refresh -d '{}'\ncurl -s $A/users/me?x=1\ncurl -s -XPATCH \\\n  $A/rides/$RIDE")).toEqual([
      'POST /auth/refresh',
      'GET /users/me',
      'PATCH /rides/$RIDE',
    ]);
    expect(mentionsIn(path.join(root, 'x.md'), 'one\ncurl -s \\\n -XDELETE $A/push-tokens\n`GET /wallet`')).toEqual([
      expect.objectContaining({ line: 2, method: 'DELETE' }),
      expect.objectContaining({ line: 4, method: 'GET' }),
    ]);
    expect(exists('GET', '/favorites/{type}/{id}')).toBe(true);
    expect(exists('POST', '/upload/*')).toBe(true);
    expect(exists('POST', '/notifications/devices')).toBe(false);
    expect(exists('GET', '/rides/bogus')).toBe(false);
    expect(exists('PUT', '/favorites/PLACE/seed-place-001')).toBe(true);
    expect(exists('POST', '/rides/$RIDE/arrived')).toBe(true);
    expect(exists('GET', '/rides/{id}/bogus')).toBe(false);
    expect(exists('DELETE', '/rides')).toBe(false);
  });
});
