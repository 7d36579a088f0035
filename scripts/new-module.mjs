#!/usr/bin/env node
// npm run new:module -- <name> --shape catalog|lifecycle|content [--tag <api tag>] [--entity <singular>] [--collection <name>]
//   [--dry-run] [--json] [--root <repository>]
// Writes a module that passes the checks: its folder functions/src/modules/<name>/ (definition with `uses`, error codes,
// routes, schemas, service and repo per shape, config switches where the shape has one), its line in MODULES
// (src/modules/index.ts) and, with switches, in src/module-switches.generated.ts, its index block in
// firestore.indexes.json (rules: none, its collections are API only and firestore.rules denies by default), an
// integration test under functions/test/modules/<name>/ and docs/api/<name>.md. Never overwrites: a name taken by a
// folder, a module, a collection or a file is refused before anything is written. Exit 1 with the reason on refusal.
// The shapes and the next steps by hand: docs/adding-a-module.md.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { catalogFiles } from './templates/module/catalog.mjs';
import { contentFiles } from './templates/module/content.mjs';
import { lifecycleFiles } from './templates/module/lifecycle.mjs';
import { docsPage, testFile } from './templates/module/common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHAPES = { catalog: catalogFiles, lifecycle: lifecycleFiles, content: contentFiles };
const RESERVED = new Set(['index', 'platform', 'modules', 'module', 'test', 'api', 'events', 'meta']);

export class Refusal extends Error {}

const upper = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const pascal = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** The singular of a plural module name (`orders` → `order`, `pharmacies` → `pharmacy`), else the name itself. */
export function singular(name) {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(name)) return name;
  if (name.endsWith('s')) return name.slice(0, -1);
  return name;
}

// The spec's tags: those the modules serve (module-lists.generated.ts) and those still planned (tags.ts). A new
// module may serve any of them (its routes name the tag; only a planned tag's first module claims it).
function apiTags(root) {
  const planned = fs.readFileSync(path.join(root, 'functions/src/platform/core/openapi/tags.ts'), 'utf8');
  const lists = fs.readFileSync(path.join(root, 'functions/src/platform/core/module/module-lists.generated.ts'), 'utf8');
  const served = /apiTags: \[([^\]]*)\]/.exec(lists)?.[1] ?? '';
  return [...new Set([...[...served.matchAll(/'([a-z]+)'/g)].map((m) => m[1]), ...[...planned.matchAll(/^ {2}([a-z]+): '/gm)].map((m) => m[1])])].sort();
}

function knownCollections(root) {
  const modules = path.join(root, 'functions/src/modules');
  const names = new Set();
  for (const dir of fs.readdirSync(modules, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of fs.readdirSync(path.join(modules, dir.name)).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(modules, dir.name, file), 'utf8');
      for (const m of text.matchAll(/^export const [A-Z_]+ = '([a-z_]+)';$/gm)) names.add(m[1]);
    }
  }
  return names;
}

/** The names a module's files use, checked: throws a Refusal naming what is wrong. */
export function moduleNames(root, { name, shape, tag, entity, collection }) {
  if (!name) throw new Refusal('usage: npm run new:module -- <name> --shape catalog|lifecycle|content [--tag <api tag>] [--entity <singular>]');
  if (!/^[a-z][a-z0-9]{1,29}$/.test(name)) throw new Refusal(`bad name "${name}": lower case letters and digits, starting with a letter (2 to 30)`);
  if (RESERVED.has(name)) throw new Refusal(`bad name "${name}": reserved`);
  if (!Object.hasOwn(SHAPES, shape ?? '')) throw new Refusal(`unknown shape "${shape ?? ''}": one of ${Object.keys(SHAPES).join(', ')}`);
  const folder = path.join(root, 'functions/src/modules', name);
  const list = fs.readFileSync(path.join(root, 'functions/src/modules/index.ts'), 'utf8');
  if (fs.existsSync(folder) || new RegExp(`\\b${name}Module\\b`).test(list)) throw new Refusal(`module "${name}" exists already (${path.relative(root, folder)})`);
  const theTag = tag ?? name;
  const tags = apiTags(root);
  if (!tags.includes(theTag))
    throw new Refusal(`"${theTag}" is not an API tag of the spec (platform/core/openapi/tags.ts): pass --tag <one of ${tags.join(', ')}>`);
  const one = entity ?? singular(name);
  if (!/^[a-z][a-zA-Z0-9]{1,29}$/.test(one)) throw new Refusal(`bad entity "${one}": a camelCase word`);
  const coll = collection ?? name;
  if (!/^[a-z][a-z0-9_]{1,39}$/.test(coll)) throw new Refusal(`bad collection "${coll}": lower case letters, digits and _`);
  if (knownCollections(root).has(coll)) throw new Refusal(`collection "${coll}" belongs to another module: pass --collection <name>`);
  return {
    name,
    shape,
    tag: theTag,
    Name: pascal(name),
    NAME: upper(name),
    entity: one,
    Entity: pascal(one),
    ENTITY: upper(one),
    collection: coll,
    COLLECTION: upper(coll),
  };
}

/** The module line (and its import) in src/modules/index.ts: after the last module of the list. */
export function withModuleLine(text, n) {
  const importLine = `import { ${n.name}Module } from './${n.name}/${n.name}.module';\n`;
  const imports = [...text.matchAll(/^import \{ \w+Module \} from '\.\/\w+\/\w+\.module';\n/gm)];
  const list = /(defineModules\(\[\n(?: {4}\w+Module,\n)+)( {2}\]\))/.exec(text);
  if (imports.length === 0 || !list) throw new Refusal('functions/src/modules/index.ts: the module list is not where the generator expects it');
  const last = imports.at(-1);
  const at = last.index + last[0].length;
  const withImport = text.slice(0, at) + importLine + text.slice(at);
  return withImport.replace(/(defineModules\(\[\n(?: {4}\w+Module,\n)+)( {2}\]\))/, `$1    ${n.name}Module,\n$2`);
}

/**
 * src/module-switches.generated.ts with the module's switch fragment last (its module is last in MODULES), laid out as
 * renderModuleSwitches (platform/core/module/module.ts) writes it; the module-definitions test compares the two.
 */
export function withSwitchesLine(text, n) {
  const list = /^export const MODULE_SWITCHES: readonly ModuleSwitches\[\] = \[([^]*?)\];\n/m.exec(text);
  if (!list) throw new Refusal('functions/src/module-switches.generated.ts: the list is not where the generator expects it');
  const rows = [...list[1].matchAll(/\{ module: '\w+', switches: \w+Switches \}/g)].map((m) => m[0]);
  rows.push(`{ module: '${n.name}', switches: ${n.name}Switches }`);
  const layout = rows.length > 1 ? `[\n${rows.map((r) => `  ${r},\n`).join('')}]` : `[${rows.join('')}]`;
  const withList = text.replace(list[0], `export const MODULE_SWITCHES: readonly ModuleSwitches[] = ${layout};\n`);
  const imports = [...withList.matchAll(/^import (?:type )?\{ \w+ \} from '\.\/[\w/.-]+';\n/gm)];
  const last = imports.at(-1);
  if (!last) throw new Refusal('functions/src/module-switches.generated.ts: no import to follow');
  const at = last.index + last[0].length;
  return `${withList.slice(0, at)}import { ${n.name}Switches } from './modules/${n.name}/${n.name}.config';\n${withList.slice(at)}`;
}

/** firestore.indexes.json with the module's composite indexes and field overrides appended (none twice). */
export function withIndexes(text, indexes, fieldOverrides = []) {
  const json = JSON.parse(text);
  const known = new Set([...json.indexes, ...(json.fieldOverrides ?? [])].map((i) => JSON.stringify(i)));
  const added = indexes.filter((i) => !known.has(JSON.stringify(i)));
  const overrides = fieldOverrides.filter((o) => !known.has(JSON.stringify(o)));
  json.indexes.push(...added);
  if (overrides.length > 0) json.fieldOverrides = [...(json.fieldOverrides ?? []), ...overrides];
  return { text: `${JSON.stringify(json, null, 2)}\n`, added: added.length + overrides.length };
}

async function formatted(files) {
  const require = createRequire(path.join(here, '..', 'functions', 'package.json'));
  const prettier = require('prettier');
  const options = JSON.parse(fs.readFileSync(path.join(here, '..', 'functions', '.prettierrc.json'), 'utf8'));
  const out = {};
  for (const [file, text] of Object.entries(files))
    out[file] = file.endsWith('.ts') ? await prettier.format(text, { ...options, parser: 'typescript' }) : text;
  return out;
}

/** What the generator would write: new files (path → text) and the edited files (path → new text). */
export async function planModule(root, options) {
  const n = moduleNames(root, options);
  const shape = SHAPES[n.shape](n);
  const src = `functions/src/modules/${n.name}`;
  const files = {
    ...Object.fromEntries(Object.entries(shape.files).map(([file, text]) => [`${src}/${file}`, text])),
    [`functions/test/modules/${n.name}/${n.name}.test.ts`]: testFile(n, shape),
    [`docs/api/${n.name}.md`]: docsPage(n, shape),
  };
  for (const file of Object.keys(files)) if (fs.existsSync(path.join(root, file))) throw new Refusal(`${file} exists already: nothing written`);
  const listFile = 'functions/src/modules/index.ts';
  const indexFile = 'firestore.indexes.json';
  const indexes = withIndexes(fs.readFileSync(path.join(root, indexFile), 'utf8'), shape.indexes, shape.fieldOverrides);
  const edits = { [listFile]: withModuleLine(fs.readFileSync(path.join(root, listFile), 'utf8'), n) };
  if (indexes.added > 0) edits[indexFile] = indexes.text;
  const switchesFile = 'functions/src/module-switches.generated.ts';
  if (`${n.name}.config.ts` in shape.files) edits[switchesFile] = withSwitchesLine(fs.readFileSync(path.join(root, switchesFile), 'utf8'), n);
  return { names: n, files: await formatted(files), edits, notes: shape.notes };
}

export function writePlan(root, plan) {
  for (const [file, text] of Object.entries(plan.files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text, { flag: 'wx' });
  }
  for (const [file, text] of Object.entries(plan.edits)) fs.writeFileSync(path.join(root, file), text);
}

function parseArgs(argv) {
  const options = {};
  const flags = { '--shape': 'shape', '--tag': 'tag', '--entity': 'entity', '--collection': 'collection', '--root': 'root' };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--json') options.json = true;
    else if (arg.startsWith('--') && arg.includes('=') && flags[arg.split('=')[0]]) options[flags[arg.split('=')[0]]] = arg.slice(arg.indexOf('=') + 1);
    else if (flags[arg]) options[flags[arg]] = argv[(i += 1)];
    else if (arg.startsWith('-')) throw new Refusal(`unknown option ${arg}`);
    else if (options.name === undefined) options.name = arg;
    else throw new Refusal(`one name only (got ${options.name} and ${arg})`);
  }
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    const root = path.resolve(options.root ?? path.join(here, '..'));
    const plan = await planModule(root, options);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
      if (!options.dryRun) writePlan(root, plan);
      return;
    }
    if (!options.dryRun) writePlan(root, plan);
    const verb = options.dryRun ? 'would write' : 'wrote';
    const log = (line) => process.stdout.write(`[new:module] ${line}\n`);
    log(`${plan.names.shape} module ${plan.names.name} (tag ${plan.names.tag}, collection ${plan.names.collection})`);
    for (const file of Object.keys(plan.files)) log(`${verb} ${file}`);
    for (const file of Object.keys(plan.edits)) log(`${options.dryRun ? 'would edit' : 'edited'} ${file}`);
    log('firestore.rules: nothing to add (its collections are API only; the rules deny by default)');
    log('next: `npm run openapi` (openapi/ and the generated parts of docs/), then the checks listed in docs/adding-a-module.md');
    for (const note of plan.notes) log(`next: ${note}`);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    process.stderr.write(`[new:module] refused: ${err.message}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
