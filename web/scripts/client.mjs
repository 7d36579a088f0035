#!/usr/bin/env node
// Writes the typed client's generated half from openapi/openapi.json (run by `npm run openapi`, after the document):
//   web/client/generated/openapi.d.ts  the paths, operations and schemas as TypeScript (openapi-typescript)
//   web/client/generated/operations.ts one row per operation: what the wrapper needs at run time
//   web/client/generated/source.json    the hashes of what they were made from (the document, this generator) and of
//                                       them: `--check` compares those first (instant), and renders only on a mismatch
// `--check` writes nothing and exits 1 when a file differs from what the document gives (npm test runs it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const documentFile = path.join(webDir, '..', 'openapi', 'openapi.json');
const outDir = path.join(webDir, 'client', 'generated');
const HEADER = '// Generated from openapi/openapi.json by `npm run openapi` (web/scripts/client.mjs). Do not edit.\n';
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

// The run-time facts of each operation, keyed "METHOD /path" as openapi-fetch's middleware sees them.
function operationTable(document) {
  const rows = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const key = (op.parameters ?? []).find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      const row = { operationId: op.operationId };
      if (key) row.idempotencyKey = key.required ? 'required' : 'optional';
      if (op['x-admin-permission']) row.adminPermission = op['x-admin-permission'];
      if (op.deprecated) row.deprecated = true;
      rows.push([`${method.toUpperCase()} ${route}`, row]);
    }
  }
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // The document's named string enums, as values (a select's options, a checkbox list) to match the types.
  const enums = Object.entries(document.components.schemas)
    .filter(([, schema]) => schema.type === 'string' && Array.isArray(schema.enum))
    .map(([name, schema]) => `  ${name}: ${JSON.stringify(schema.enum).replace(/,/g, ', ')},`);
  // And the string enums written inline on a named schema's fields ('Order.status'): a list page's status filter.
  const fieldEnums = Object.entries(document.components.schemas).flatMap(([name, schema]) =>
    Object.entries(schema.properties ?? {})
      .filter(([, field]) => field.type === 'string' && Array.isArray(field.enum))
      .map(([field, { enum: values }]) => `  ${JSON.stringify(`${name}.${field}`)}: ${JSON.stringify(values).replace(/,/g, ', ')},`),
  );
  const lines = rows.map(
    ([k, row]) =>
      `  ${JSON.stringify(k)}: ${JSON.stringify(row)
        .replace(/"(\w+)":/g, '$1: ')
        .replace(/,(\w+: )/g, ', $1')},`,
  );
  return `${HEADER}
export interface OperationFacts {
  readonly operationId: string;
  /** The operation takes an Idempotency-Key header (required: it refuses a call without one). */
  readonly idempotencyKey?: 'required' | 'optional';
  /** The admin permission an administrator needs for it (GET /users/me → permissions; "*" holds every one). */
  readonly adminPermission?: string;
  readonly deprecated?: true;
}

export const API_VERSION = ${JSON.stringify(document.info.version)};

export const OPERATIONS: Readonly<Record<string, OperationFacts>> = {
${lines.join('\n')}
};

export const ENUMS = {
${enums.join('\n')}
} as const;

export const FIELD_ENUMS = {
${fieldEnums.join('\n')}
} as const;
`;
}

// The types leave the Idempotency-Key header optional everywhere: the client adds one when the app passes none
// (an app retrying one action passes the key of its first try). operations.ts keeps what the API requires.
function keysOptional(document) {
  const copy = structuredClone(document);
  for (const item of Object.values(copy.paths)) {
    for (const method of METHODS) {
      for (const p of item[method]?.parameters ?? []) if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') p.required = false;
    }
  }
  return copy;
}

async function renderClientFiles() {
  const document = JSON.parse(fs.readFileSync(documentFile, 'utf8'));
  const ast = await openapiTS(keysOptional(document), { alphabetize: false, exportType: false });
  return {
    'openapi.d.ts': HEADER + astToString(ast),
    'operations.ts': operationTable(document),
  };
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const stampFile = path.join(outDir, 'source.json');
const generatorVersion = JSON.parse(fs.readFileSync(path.join(webDir, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8')).version;
const source = {
  document: sha256(fs.readFileSync(documentFile)),
  // This script and the exact packages it runs (openapi-typescript, the TypeScript printer it uses: the lockfile).
  generator: sha256(
    `${fs.readFileSync(fileURLToPath(import.meta.url), 'utf8')}\nopenapi-typescript ${generatorVersion}\n${fs.readFileSync(path.join(webDir, 'package-lock.json'), 'utf8')}`,
  ),
};
const stampOf = (files) =>
  `${JSON.stringify({ ...source, files: Object.fromEntries(Object.entries(files).map(([name, text]) => [name, sha256(text)])) }, null, 2)}\n`;
const check = process.argv.includes('--check');

// The files as they stand, if the stamp says they were made from this document by this generator and are unchanged.
function currentAndStamped() {
  if (!fs.existsSync(stampFile)) return false;
  const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  if (stamp.document !== source.document || stamp.generator !== source.generator) return false;
  const names = Object.keys(stamp.files ?? {});
  if (names.length !== 2 || !names.includes('openapi.d.ts') || !names.includes('operations.ts')) return false;
  return Object.entries(stamp.files).every(
    ([name, hash]) => fs.existsSync(path.join(outDir, name)) && sha256(fs.readFileSync(path.join(outDir, name), 'utf8')) === hash,
  );
}
if (check && currentAndStamped()) {
  process.stdout.write('typed client matches openapi/openapi.json (by the hashes in web/client/generated/source.json)\n');
  process.exit(0);
}

const rendered = await renderClientFiles();
const files = { ...rendered, 'source.json': stampOf(rendered) };
const stale = [];
for (const [name, text] of Object.entries(files)) {
  const file = path.join(outDir, name);
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (before === text) continue;
  stale.push(path.relative(path.join(webDir, '..'), file));
  if (!check) {
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(file, text);
  }
}
if (check) {
  if (stale.length > 0) {
    process.stderr.write(`typed client is stale: ${stale.join(', ')} differ from openapi/openapi.json; run \`npm run openapi\`\n`);
    process.exit(1);
  }
  process.stdout.write('typed client matches openapi/openapi.json\n');
} else {
  process.stdout.write(`[superapp] web/client/generated ${stale.length ? `written (${stale.length} files)` : 'unchanged'}\n`);
}
