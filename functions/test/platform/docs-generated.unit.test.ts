import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configSchema } from '../../src/platform/core/config/config.schema';
import { configSwitches } from '../../src/platform/core/config/module-switches';
import { MODULES } from '../../src/modules';
import { platformTasks } from '../../src/platform/core/module/platform-tasks';
import { groupTriggers } from '../../src/platform/core/module/trigger-groups';

// The docs follow the code: the generated parts of docs/ (module table, function list, configuration, kit users,
// latest benchmark figures) equal what scripts/lib/docs-render.cjs renders from src (`npm run openapi` rewrites
// them), the README stays a landing page (≤ 10 KB), and no link of the README or docs/ points at nothing.
const root = path.join(__dirname, '..', '..', '..');
const src = path.join(root, 'functions', 'src');

interface Renderer {
  TARGETS: Record<string, string[]>;
  renderDocs(base: string): Record<string, string>;
  applyBlocks(text: string, names: string[], blocks: Record<string, string>, file: string): string;
  functionRows(loaded: {
    MODULES: typeof MODULES;
    platformTasks?: typeof platformTasks;
    groupTriggers: typeof groupTriggers;
  }): Array<{ name: string; kind: string; source: string }>;
  platformKits(platformDir: string): string[];
}
const render = require(path.join(root, 'scripts', 'lib', 'docs-render.cjs')) as Renderer;
const { CONFIG_SWITCHES } = require(path.join(root, 'scripts', 'lib', 'config-switches.cjs')) as { CONFIG_SWITCHES: Record<string, string> };

const README_MAX_BYTES = 10 * 1024;

function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []));
  return [path.join(root, 'README.md'), ...walk(path.join(root, 'docs'))];
}

// GitHub's heading anchors: lower case, punctuation dropped (letters, digits, spaces, `-` and `_` kept), spaces as `-`.
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** Relative links (`[text](target)`) outside code blocks and code spans that point at no file or no heading. */
function brokenLinks(file: string, text: string, read: (f: string) => string | undefined): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const broken: string[] = [];
  for (const m of prose.matchAll(/\[[^\]\n]*\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
    const [rel, anchor] = target.split('#');
    const linked = rel === '' ? file : path.resolve(path.dirname(file), rel);
    const content = read(linked);
    if (content === undefined) broken.push(`${path.relative(root, file)}: ${target} (no such file)`);
    else if (anchor && linked.endsWith('.md') && !anchorsOf(content).has(anchor)) broken.push(`${path.relative(root, file)}: ${target} (no such heading)`);
  }
  return broken;
}

const readIfFile = (f: string) => (fs.existsSync(f) && fs.statSync(f).isFile() ? fs.readFileSync(f, 'utf8') : fs.existsSync(f) ? '' : undefined);

describe('docs follow the code', () => {
  const rendered = render.renderDocs(src);

  it.each(Object.keys(render.TARGETS))('%s: the generated parts are up to date (run `npm run openapi`)', (file) => {
    expect(fs.readFileSync(path.join(root, file), 'utf8')).toBe(rendered[file]);
  });

  it('lists every module and every Cloud Function of the module list, each function once', () => {
    const architecture = rendered['docs/architecture.md'];
    for (const m of MODULES) {
      expect(architecture).toContain(`| \`${m.name}\` |`);
      for (const name of Object.keys(m.tasks ?? {})) expect(architecture).toContain(`| \`${name}\` |`);
      // A trigger's handler is named in its module's row (its function may be a shared one).
      const row = architecture.split('\n').find((line) => line.startsWith(`| \`${m.name}\` |`)) ?? '';
      for (const name of Object.keys(m.triggers ?? {})) expect([name, row.includes(`\`${name}\``)]).toEqual([name, true]);
    }
    for (const group of groupTriggers(MODULES)) expect(architecture).toContain(`| \`${group.name}\` |`);
    const names = render.functionRows({ MODULES, platformTasks, groupTriggers }).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['api', 'deliverMessage', 'usersChanged', 'paymentsChanged', 'callStatusChanged']));
    expect(new Set(names).size).toBe(names.length);
  });

  it("documents every switch of the configuration, and nothing else: the platform's here, each module's in its fragment", () => {
    expect(Object.keys(CONFIG_SWITCHES).sort()).toEqual(Object.keys(configSchema.shape).sort());
    const moduleSwitches = configSwitches().filter((s) => s.owner !== 'platform');
    expect(moduleSwitches.length).toBeGreaterThan(40);
    for (const s of moduleSwitches) expect([s.key, (s.effect ?? '').trim().length > 0]).toEqual([s.key, true]);
    const table = rendered['docs/configuration.md'];
    for (const s of configSwitches()) expect(table).toContain(`| \`${s.key}\`${s.secret ? ' (secret)' : ''} | ${s.owner} |`);
    expect(table).not.toContain('undocumented');
  });

  it('reads kits inside grouping folders (platform/core/http) as well as plain ones and single files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-'));
    try {
      for (const d of ['core/http', 'kits/money', 'geo']) fs.mkdirSync(path.join(dir, d), { recursive: true });
      for (const f of ['text.ts', 'time.ts', 'time.schemas.ts', 'core/http/route.ts', 'kits/money/money.ts', 'geo/geo.ts'])
        fs.writeFileSync(path.join(dir, f), '');
      expect(render.platformKits(dir)).toEqual(['core/http', 'geo', 'kits/money', 'text', 'time']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file whose markers are gone', () => {
    expect(() => render.applyBlocks('# x\n', ['modules'], { modules: 'rows' }, 'docs/x.md')).toThrow(
      'the markers of the generated block "modules" are missing',
    );
    const stale = '<!-- generated:modules (npm run openapi) -->\nold rows\n<!-- /generated:modules -->\n';
    expect(render.applyBlocks(stale, ['modules'], { modules: 'new rows' }, 'docs/x.md')).toBe(
      '<!-- generated:modules (npm run openapi) -->\nnew rows\n<!-- /generated:modules -->\n',
    );
  });

  it(`keeps the README a landing page of at most ${README_MAX_BYTES} bytes`, () => {
    expect(fs.statSync(path.join(root, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('links from the README and docs/ only to files and headings that exist', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => brokenLinks(f, fs.readFileSync(f, 'utf8'), readIfFile))).toEqual([]);
  });

  it('finds a link to a missing file or heading, and ignores code and web addresses', () => {
    const file = path.join(root, 'README.md');
    const text =
      '[a](docs/nope.md) [b](docs/testing.md#no-such-heading) [c](docs/testing.md#commands) `[d](docs/x.md)` [e](https://example.com/x.md)\n```\n[f](docs/y.md)\n```\n';
    expect(brokenLinks(file, text, readIfFile)).toEqual([
      'README.md: docs/nope.md (no such file)',
      'README.md: docs/testing.md#no-such-heading (no such heading)',
    ]);
    expect(anchorOf('`platform/kits/money`: the kit')).toBe('platformkitsmoney-the-kit');
  });
});
