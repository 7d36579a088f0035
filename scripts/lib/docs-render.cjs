// The generated parts of docs/ (between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`), rendered from
// the code: the module table and the function list from MODULES, the configuration table from the config schema and
// the modules' switch fragments, the kit users from the modules' imports. One renderer for two callers: scripts/docs.mjs hands it functions/lib
// (the built code), the unit test docs-generated functions/src (ts-jest), so both see the same definitions.
const fs = require('node:fs');
const path = require('node:path');
const { CONFIG_SWITCHES, DEPLOY_SWITCHES } = require('./config-switches.cjs');

const repoRoot = path.join(__dirname, '..', '..');
const srcDir = path.join(repoRoot, 'functions', 'src');

// Which file holds which generated blocks.
const TARGETS = {
  'docs/architecture.md': ['modules', 'functions'],
  'docs/configuration.md': ['switches', 'deploy-switches'],
  'docs/kits.md': ['kit-users'],
  'docs/benchmarks.md': ['bench-results'],
  'docs/deploying.md': ['cost-model'],
};

const code = (s) => `\`${s}\``;
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');

function load(base) {
  const req = (p) => require(path.join(base, p));
  return {
    MODULES: req('modules').MODULES,
    COLLECTIONS: req('modules').COLLECTIONS,
    platformTasks: req('platform/core/module/platform-tasks').platformTasks,
    groupTriggers: req('platform/core/module/trigger-groups').groupTriggers,
    renderOpenApiJson: req('platform/core/openapi/render').renderOpenApiJson,
    switches: req('platform/core/config/module-switches'),
    settings: req('platform/core/deploy/settings'),
  };
}

// --- modules and functions ---------------------------------------------------------------------------------------

const collectionName = (c) => code(c.parent ? `${c.parent}/*/${c.name}` : c.name);

function moduleRows({ MODULES, renderOpenApiJson }) {
  return MODULES.map((m) => {
    const doc = JSON.parse(renderOpenApiJson([m]));
    const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    const tags = doc.tags.map((t) => t.name);
    return {
      name: m.name,
      tags: tags.length ? `${tags.map(code).join(', ')} (${operations})` : '—',
      collections: (m.collections ?? []).map(collectionName).join(', ') || '—',
      tasks: Object.keys(m.tasks ?? {}).map(code).join(', ') || '—',
      triggers: Object.keys(m.triggers ?? {}).map(code).join(', ') || '—',
    };
  });
}

function renderModules(loaded) {
  const rows = moduleRows(loaded);
  const platform = loaded.COLLECTIONS.filter((c) => c.owner === 'platform').map(collectionName).join(', ');
  return [
    `${rows.length} modules, in the order of \`MODULES\` (the order the API mounts their routes). Tags with their number of operations;`,
    `\`*\` in a collection path is its parent document. The platform kits own ${platform}.`,
    '',
    table(['Module', 'Tag (operations)', 'Collections', 'Tasks', 'Triggers'], rows.map((r) => [code(r.name), r.tags, r.collections, r.tasks, r.triggers])),
  ].join('\n');
}

// The functions the entry exports itself (`export const x = onRequest(…)`), read from its source.
function entryFunctions() {
  const source = fs.readFileSync(path.join(srcDir, 'index.ts'), 'utf8');
  const kinds = { onRequest: 'HTTPS', onTaskDispatched: 'Cloud Tasks' };
  return [...source.matchAll(/^export const (\w+) = (onRequest|onTaskDispatched)\b/gm)].map((m) => ({ name: m[1], kind: kinds[m[2]], source: 'entry (`src/index.ts`)' }));
}

function functionRows({ MODULES, platformTasks, groupTriggers }) {
  const rows = entryFunctions();
  for (const [name, task] of Object.entries(platformTasks ? platformTasks() : {})) {
    const attempts = task.options?.retryConfig?.maxAttempts;
    rows.push({ name, kind: `Cloud Tasks${attempts ? ` (${attempts} attempts)` : ''}`, source: 'platform (`platform/core/module/platform-tasks.ts`)' });
  }
  for (const m of MODULES) {
    for (const [name, task] of Object.entries(m.tasks ?? {})) {
      const attempts = task.options?.retryConfig?.maxAttempts;
      rows.push({ name, kind: `Cloud Tasks${attempts ? ` (${attempts} attempts)` : ''}`, source: `module ${code(m.name)}` });
    }
  }
  // Triggers on one document path share a function (platform/core/module/trigger-groups).
  for (const group of groupTriggers(MODULES)) {
    for (const { name, trigger } of group.handlers)
      if (typeof trigger.document !== 'string' || typeof trigger.on !== 'string') throw new Error(`trigger ${name} has no document or on: update functionRows in scripts/lib/docs-render.cjs`);
    const alone = group.handlers.length === 1;
    const handlers = alone ? '' : ` (handlers ${group.handlers.map((h) => `${code(h.name)}: ${h.trigger.on}`).join(', ')})`;
    const modules = [...new Set(group.handlers.map((h) => code(h.module)))];
    rows.push({ name: group.name, kind: `Firestore trigger: ${group.on} ${code(group.document)}${handlers}`, source: `module${modules.length > 1 ? 's' : ''} ${modules.join(', ')}` });
  }
  return rows;
}

function renderFunctions(loaded) {
  const rows = functionRows(loaded);
  const count = (kind) => rows.filter((r) => r.kind.startsWith(kind)).length;
  return [
    `${rows.length} Cloud Functions: ${count('HTTPS')} HTTPS, ${count('Cloud Tasks')} task-queue functions, ${count('Firestore')} Firestore triggers.`,
    '',
    table(['Function', 'Kind', 'Declared by'], rows.map((r) => [code(r.name), r.kind, r.source])),
  ].join('\n');
}

// --- configuration -----------------------------------------------------------------------------------------------

const PROBE = '?not-a-value?';

function defaultOf(schema) {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) return 'required';
  const v = parsed.data;
  if (v === undefined) return 'unset';
  if (Array.isArray(v)) {
    if (v.length === 0) return 'empty';
    return v.length > 3 ? `${v.slice(0, 2).map(code).join(', ')}, … (${v.length})` : v.map(code).join(', ');
  }
  if (typeof v === 'object') return Object.keys(v).length === 0 ? 'none' : code(JSON.stringify(v));
  return code(v);
}

// What a switch accepts, read from the schema: an enum's values, else the message it gives a wrong value.
function acceptedOf(schema) {
  const def = schema._zod.def;
  const inner = def.type === 'default' ? def.innerType._zod.def : def;
  if (inner.type === 'enum') return `one of ${Object.values(inner.entries).map(code).join(', ')}`;
  const isList = Array.isArray(schema.safeParse(undefined).data);
  const probe = schema.safeParse(PROBE);
  if (probe.success) return isList ? 'comma-separated list' : 'text';
  const message = probe.error.issues[0].message.replace(/^"[^"]*" is not /, '').replace(/^must be /, '');
  const said = /^one of true, 1/.test(message) ? 'boolean (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`)' : message;
  return isList && !said.startsWith('a comma-separated') ? `comma-separated, each ${said}` : said;
}

function envFiles() {
  const dir = path.join(repoRoot, 'functions');
  const files = fs.readdirSync(dir).filter((f) => /^\.env(\.[\w-]+)?$/.test(f) && f !== '.env.local').sort();
  return files.map((f) => {
    const values = {};
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
      if (m) values[m[1]] = m[2];
    }
    return { name: f, values };
  });
}

function setIn(files, key) {
  const shorten = (v) => (v.length > 40 ? `${v.slice(0, 37)}…` : v);
  return files.filter((f) => key in f.values).map((f) => `${f.name}: ${code(shorten(f.values[key]))}`).join('; ') || '—';
}

// Every switch: the platform's (effects here, config-switches.cjs), then each module's fragment (effects in it).
function renderSwitches({ switches }) {
  const files = envFiles();
  const all = switches.configSwitches();
  const rows = all.map((s) => [
    code(s.key) + (s.secret ? ' (secret)' : ''),
    s.owner,
    defaultOf(s.schema),
    acceptedOf(s.schema),
    setIn(files, s.key),
    (s.owner === 'platform' ? CONFIG_SWITCHES[s.key] : s.effect) ?? '**undocumented: add it to scripts/lib/config-switches.cjs**',
  ]);
  const platform = all.filter((s) => s.owner === 'platform').length;
  const owners = new Set(all.map((s) => s.owner)).size - 1;
  return [
    `${rows.length} switches: the platform's ${platform} in the schema's order, then those of ${owners} modules in module order, each`,
    `declared with its effect in the module's fragment (\`modules/<name>/<name>.config.ts\`). *Default*: the value with the switch`,
    `unset; *Accepts*: what the schema takes (anything else refuses the boot); *Set in*: the committed env files that set it`,
    `(\`functions/\`).`,
    '',
    table(['Switch', 'Owner', 'Default', 'Accepts', 'Set in', 'Effect'], rows),
  ].join('\n');
}

function renderDeploySwitches({ settings }) {
  const defaults = {
    FUNCTIONS_REGION: code(settings.DEFAULT_FUNCTIONS_REGION),
    API_MAX_INSTANCES: code(settings.DEFAULT_API_MAX_INSTANCES),
    FUNCTIONS_MAX_INSTANCES: code(settings.DEFAULT_MAX_INSTANCES),
    FUNCTIONS_SECRETS: `unset (always bound: ${settings.REQUIRED_SECRETS.map(code).join(', ')})`,
  };
  const files = envFiles();
  return table(['Switch', 'Default', 'Set in', 'Effect'], Object.entries(DEPLOY_SWITCHES).map(([key, text]) => [code(key), defaults[key] ?? '**no default found**', setIn(files, key), text]));
}

// --- kits --------------------------------------------------------------------------------------------------------

// Every kit under platform/ (a folder, or a single file such as text.ts; a folder holding only folders, such as a
// `core/` or `kits/` grouping, is looked into) and the modules whose files use it.
function platformKits(platformDir) {
  const kits = [];
  for (const e of fs.readdirSync(platformDir, { withFileTypes: true })) {
    if (e.isFile()) {
      if (e.name.endsWith('.ts') && !e.name.endsWith('.schemas.ts')) kits.push(e.name.replace(/\.ts$/, ''));
      continue;
    }
    const inner = fs.readdirSync(path.join(platformDir, e.name), { withFileTypes: true });
    const grouping = inner.length > 0 && inner.every((i) => i.isDirectory());
    if (grouping) kits.push(...inner.map((i) => `${e.name}/${i.name}`));
    else kits.push(e.name);
  }
  return kits.sort();
}

function renderKitUsers() {
  const platformDir = path.join(srcDir, 'platform');
  const kits = platformKits(platformDir);
  const users = Object.fromEntries(kits.map((k) => [k, new Set()]));
  const kitOf = (target) => {
    const parts = target.split(path.sep).map((p) => p.replace(/\.schemas$/, ''));
    return kits.find((k) => k === parts[0] || k === `${parts[0]}/${parts[1]}`);
  };
  const modulesDir = path.join(srcDir, 'modules');
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  const byName = (name) => kits.find((k) => k === name || k.endsWith(`/${name}`));
  for (const m of fs.readdirSync(modulesDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    for (const file of walk(path.join(modulesDir, m))) {
      const text = fs.readFileSync(file, 'utf8');
      // Kits a route reaches through defineRoute's options, without importing them (an Idempotency-Key optional or required).
      if (/\bidempotent:\s*(?:true\b|['"]required['"])/.test(text)) users[byName('idempotency')]?.add(m);
      if (/\brateLimit:\s*\{/.test(text)) users[byName('ratelimit')]?.add(m);
      for (const imp of text.matchAll(/(?:from\s+|require\(|import\()\s*['"]([^'"]+)['"]/g)) {
        const target = path.relative(platformDir, path.resolve(path.dirname(file), imp[1]));
        if (target.startsWith('..')) continue;
        const kit = kitOf(target);
        if (kit) users[kit].add(m);
      }
    }
  }
  const rows = kits.map((k) => [code(`platform/${k}`), [...users[k]].sort().map(code).join(', ') || '— (platform only)']);
  return table(['Kit', 'Modules using it'], rows);
}

// --- benchmarks --------------------------------------------------------------------------------------------------

// The last `npm run bench` run as it wrote bench/results.md (its tables, without the title).
function renderBenchResults() {
  const text = fs.readFileSync(path.join(repoRoot, 'bench', 'results.md'), 'utf8');
  return text.replace(/^# [^\n]*\n+/, '').trim();
}

// The cost model of the last `npm run bench` (bench/cost-model.md: the flows' table and the month's price).
function renderCostModel() {
  const file = path.join(repoRoot, 'bench', 'cost-model.md');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '(no cost model yet: run `npm run bench`)';
}

// --- assembling --------------------------------------------------------------------------------------------------

function renderBlocks(base) {
  const loaded = load(base);
  return {
    modules: renderModules(loaded),
    functions: renderFunctions(loaded),
    switches: renderSwitches(loaded),
    'deploy-switches': renderDeploySwitches(loaded),
    'kit-users': renderKitUsers(),
    'bench-results': renderBenchResults(),
    'cost-model': renderCostModel(),
  };
}

/** Replaces each generated block of a file's text; throws when a marker is missing. */
function applyBlocks(text, names, blocks, file) {
  let out = text;
  for (const name of names) {
    const start = `<!-- generated:${name} (npm run openapi) -->`;
    const end = `<!-- /generated:${name} -->`;
    const i = out.indexOf(start);
    const j = out.indexOf(end);
    if (i < 0 || j < i) throw new Error(`${file}: the markers of the generated block "${name}" are missing (${start} … ${end})`);
    out = `${out.slice(0, i + start.length)}\n${blocks[name]}\n${out.slice(j)}`;
  }
  return out;
}

/** Every target file as it should read: { 'docs/x.md': text }. */
function renderDocs(base) {
  const blocks = renderBlocks(base);
  return Object.fromEntries(Object.entries(TARGETS).map(([file, names]) => [file, applyBlocks(fs.readFileSync(path.join(repoRoot, file), 'utf8'), names, blocks, file)]));
}

module.exports = { TARGETS, renderBlocks, renderDocs, applyBlocks, functionRows, moduleRows, platformKits, repoRoot };
