import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODULES } from '../../src/modules';
import { renderOpenApiJson } from '../../src/platform/core/openapi/render';

// Redocly CLI (the root package) lints the document built from the code, as `npm run openapi` would write it, with
// the repository's redocly.yaml: no network, no telemetry.
const root = path.join(__dirname, '..', '..', '..');
const config = path.join(root, 'redocly.yaml');
const redocly = (() => {
  const manifest = require.resolve('@redocly/cli/package.json', { paths: [root] });
  const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin.redocly);
})();

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superapp-openapi-lint-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function lint(text: string): { totals: { errors: number; warnings: number }; problems: Problem[] } {
  const file = path.join(dir, `openapi-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, text);
  const run = spawnSync(process.execPath, [redocly, 'lint', file, `--config=${config}`, '--format=json', '--max-problems=10000'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 60_000,
  });
  if (!run.stdout.trim().startsWith('{')) throw new Error(`redocly lint printed no report (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const text = renderOpenApiJson(MODULES);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc: any = JSON.parse(text);
const paths = Object.keys(doc.paths);
const isParam = (segment: string) => segment.startsWith('{');

describe('OpenAPI lint (Redocly, recommended rules)', () => {
  it('finds no error and no warning in the document built from the code', () => {
    const report = lint(text);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('reports what the rules catch (a missing operationId or licence is a warning)', () => {
    const broken = JSON.parse(text);
    delete broken.info.license;
    delete broken.paths['/rides'].post.operationId;
    const report = lint(JSON.stringify(broken));
    expect(report.problems.map((p) => p.ruleId).sort()).toEqual(['info-license', 'operation-operationId']);
    expect(report.totals.warnings).toBe(2);
  }, 60_000);

  it('extends the recommended rules, and every rule turned off or down says why', () => {
    const lines = fs.readFileSync(config, 'utf8').split('\n');
    expect(lines).toEqual(expect.arrayContaining(['extends:', '  - recommended']));
    const changed = lines.flatMap((line, i) => (/^ {2}[a-z0-9-]+: *(off|warn)\b/.test(line) ? [i] : []));
    expect(changed.length).toBeGreaterThan(0);
    for (const i of changed) expect(lines[i - 1]).toMatch(/^ {2}# \S/);
  });

  it('documents the MIT licence', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });
});

// Redocly's no-ambiguous-paths and operation-4xx-response are off in redocly.yaml (they cannot be told about one
// path): these are their replacements, with the justified cases listed.
describe('OpenAPI checks that replace the rules turned off', () => {
  // Paths that overlap a templated path in both directions, each with why a request is never in doubt.
  const JUSTIFIED_AMBIGUITY: Record<string, string> = {
    '/rides/shared/{token}': 'ride ids are "R" and 24 hex digits, never "shared", and this route is mounted first: /rides/shared/<x> is always the shared trip',
  };

  // Redocly's definition: as many segments and parameters, and each segment the same or a parameter in either path.
  function ambiguous(a: string, b: string): boolean {
    const [x, y] = [a.split('/'), b.split('/')];
    if (a === b || x.length !== y.length || x.filter(isParam).length !== y.filter(isParam).length) return false;
    return x.every((segment, i) => segment === y[i] || isParam(segment) || isParam(y[i]));
  }

  const pairs = paths.flatMap((a, i) =>
    paths
      .slice(i + 1)
      .filter((b) => ambiguous(a, b))
      .map((b) => [a, b] as const),
  );

  it('finds the ambiguous pairs Redocly reported (16, all against /rides/shared/{token})', () => {
    expect(pairs).toHaveLength(16);
    expect(pairs).toContainEqual(['/rides/shared/{token}', '/rides/{id}/events']);
    expect(ambiguous('/a/{x}', '/a/b')).toBe(false);
    expect(ambiguous('/a/{x}/c', '/a/b/{y}')).toBe(true);
  });

  it('allows an ambiguous pair only through a listed path, registered (and so mounted) before the other', () => {
    for (const [a, b] of pairs) {
      const listed = [a, b].find((p) => JUSTIFIED_AMBIGUITY[p]);
      expect({ pair: [a, b], listed }).toEqual({ pair: [a, b], listed: expect.any(String) });
      const other = listed === a ? b : a;
      expect(paths.indexOf(listed!)).toBeLessThan(paths.indexOf(other));
    }
    for (const listed of Object.keys(JUSTIFIED_AMBIGUITY)) expect(pairs.some((pair) => pair.includes(listed))).toBe(true);
  });

  it('documents a 4xx answer on every operation but the liveness probe', () => {
    const without = Object.entries(doc.paths as Record<string, Record<string, { responses: object }>>).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([, op]) => !Object.keys(op.responses).some((s) => s.startsWith('4')))
        .map(([method]) => `${method.toUpperCase()} ${p}`),
    );
    expect(without).toEqual(['GET /health']);
  });
});
