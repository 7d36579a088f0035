// Writes openapi/openapi.json from the built app's route table (the same zod schemas that validate).
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const { renderOpenApiJson } = require(path.join(root, 'functions', 'lib', 'platform', 'core', 'openapi', 'render.js'));
const { MODULES } = require(path.join(root, 'functions', 'lib', 'modules', 'index.js'));

const file = path.join(root, 'openapi', 'openapi.json');
const text = renderOpenApiJson(MODULES);
const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
fs.writeFileSync(file, text);
const doc = JSON.parse(text);
const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
process.stdout.write(`[superapp] openapi/openapi.json ${before === text ? 'unchanged' : 'written'}: ${operations} operations, ${doc.tags.length} tags\n`);

// The Firestore half of the contract beside it: the documents apps listen to, as JSON Schema and TypeScript.
const firestore = require(path.join(root, 'functions', 'lib', 'platform', 'core', 'openapi', 'firestore.js'));
const { LISTENED_DOCUMENTS } = require(path.join(root, 'functions', 'lib', 'modules', 'index.js'));
for (const [name, render] of [[firestore.FIRESTORE_SCHEMA_FILE, firestore.renderFirestoreSchema], [firestore.FIRESTORE_TYPES_FILE, firestore.renderFirestoreTypes]]) {
  const target = path.join(root, 'openapi', name);
  const output = render(LISTENED_DOCUMENTS);
  const previous = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  fs.writeFileSync(target, output);
  process.stdout.write(`[superapp] openapi/${name} ${previous === output ? 'unchanged' : 'written'}: ${LISTENED_DOCUMENTS.length} documents\n`);
}

// The typed client's generated half (web/client/generated) from the document just written.
const { spawnSync } = require('node:child_process');
const client = spawnSync(process.execPath, [path.join(root, 'web', 'scripts', 'client.mjs')], { stdio: 'inherit' });
if (client.status !== 0) process.exit(client.status ?? 1);
