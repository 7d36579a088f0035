#!/usr/bin/env node
// `npm run deploy:check [-- --project <id>] [--queries <file>] [--root <dir>] [--json=<file>]`: what `firebase deploy`
// would get wrong, checked offline (part of `npm test`). For each production project env file
// (functions/.env.<projectId>, demo-* projects aside; or the one named):
//   1. its configuration (with functions/.env under it and the declared secrets as Secret Manager provides them)
//      passes the rules an instance on Cloud Functions enforces at boot, and holds no local or secret value;
//   2. every declared secret has its `firebase functions:secrets:set` line in the deploy guide (docs/deploying.md);
//   3. the deploy bundle (functions/dist) loads with those settings, and every function runs in FUNCTIONS_REGION;
//   4. firebase.json's Hosting rewrites name functions that exist, in that region;
//   5. rules deny by default and every TTL field has its TTL policy;
//   6. every query the test suite sent (recorded by `npm test`) is served by firestore.indexes.json;
//   7. the functions' runtime is one firebase-tools still deploys (its own runtime table): decommissioned fails,
//      deprecated or within 90 days of deprecation warns.
// Reads functions/lib (tsc) and functions/dist (esbuild): `npm run build` first (npm test and npm run deploy:check do).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { functionsDir, option, repoRoot } from './lib/util.mjs';

const root = path.resolve(option('root') ?? repoRoot);
const queriesFile = path.resolve(option('queries') ?? path.join(repoRoot, '.cache', 'test-results', 'firestore-queries.jsonl'));
const jsonOut = option('json');

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const checks = lib('platform/core/deploy/checks.js');
const { functionsRegion, declaredSecrets } = lib('platform/core/deploy/settings.js');
const { COLLECTIONS } = lib('modules/index.js');

const readEnv = (file) => (fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8')) : {});
const envDir = path.join(root, 'functions');
const projects = option('project')
  ? [option('project')]
  : fs.readdirSync(envDir).map((f) => /^\.env\.([a-z][a-z0-9-]{4,29})$/.exec(f)?.[1]).filter((id) => id && !id.startsWith('demo-') && id !== 'local');

const results = [];
const check = (name, problems, warnings = []) => {
  results.push({ name, problems, warnings });
  const lines = [...problems, ...warnings].map((p) => `\n       - ${p}`).join('');
  process.stdout.write(`${problems.length > 0 ? 'FAIL' : warnings.length > 0 ? 'warn' : 'ok  '} ${name}${lines}\n`);
};

// The deployed entry, loaded as an instance of that project loads it; prints each function's region(s) and scaling.
function loadEntry(env) {
  const probe = `const entry = require('./dist/index.js');
const endpoints = {};
for (const name of Object.keys(entry)) {
  const e = entry[name]?.__endpoint ?? {};
  endpoints[name] = { region: e.region ?? [], maxInstances: e.maxInstances, concurrency: e.concurrency, availableMemoryMb: e.availableMemoryMb, cpu: e.cpu };
}
process.stdout.write(JSON.stringify(endpoints));`;
  const res = spawnSync(process.execPath, ['-e', probe], { cwd: functionsDir, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  if (res.status !== 0) return { error: (res.stderr || `exit ${res.status}`).split('\n').filter(Boolean).slice(0, 6).join(' | ') };
  const endpoints = JSON.parse(res.stdout);
  return { endpoints, regions: Object.fromEntries(Object.entries(endpoints).map(([name, e]) => [name, e.region])) };
}

const firebaseJson = JSON.parse(fs.readFileSync(path.join(root, 'firebase.json'), 'utf8'));
const indexesJson = JSON.parse(fs.readFileSync(path.join(root, 'firestore.indexes.json'), 'utf8'));
const rules = fs.readFileSync(path.join(root, 'firestore.rules'), 'utf8');
const guide = fs.readFileSync(path.join(root, 'docs', 'deploying.md'), 'utf8');

// firebase-tools' runtime table, read from the installed firebase-tools (the one that deploys), never a copy.
// Internal files of firebase-tools: a release that moves them is named here rather than failing with a bare stack.
const rootRequire = createRequire(path.join(repoRoot, 'package.json'));
function firebaseToolsInternal(file) {
  try {
    return rootRequire(`firebase-tools/${file}`);
  } catch (err) {
    process.stderr.write(`deploy:check reads firebase-tools' ${file}, which this firebase-tools (${rootRequire('firebase-tools/package.json').version}) does not have: update scripts/deploy-check.mjs (${err.message.split('\n')[0]})\n`);
    process.exit(2);
  }
}
const { RUNTIMES } = firebaseToolsInternal('lib/deploy/functions/runtimes/supported/types.js');
const deployBackend = firebaseToolsInternal('lib/deploy/functions/backend.js');
const runtimes = (firebaseJson.functions ?? []).map((f) => f.runtime);
const runtime = checks.runtimeProblems(runtimes, RUNTIMES, new Date());
check(`functions runtime ${[...new Set(runtimes)].join(', ')} is one firebase-tools deploys`, runtime.problems, runtime.warnings);

if (projects.length === 0) check('a production env file (functions/.env.<projectId>)', ['none found: copy functions/.env.superapp-vn to functions/.env.<your project id> (see the deploy guide)']);
for (const project of projects) {
  const file = path.join(envDir, `.env.${project}`);
  if (!fs.existsSync(file)) {
    check(`${project}: env file`, [`functions/.env.${project} does not exist`]);
    continue;
  }
  const env = { ...readEnv(path.join(envDir, '.env')), ...readEnv(file) };
  const secrets = declaredSecrets(env);
  check(`${project}: production configuration (functions/.env + .env.${project}, secrets ${secrets.join(', ')})`, checks.productionEnvProblems(env, secrets));
  check(`${project}: every declared secret is in the deploy guide (docs/deploying.md)`, checks.undocumentedSecrets(secrets, guide).map((name) => `no "firebase functions:secrets:set ${name}" in docs/deploying.md`));
  let region;
  try {
    region = functionsRegion(env);
  } catch (err) {
    check(`${project}: FUNCTIONS_REGION`, [err.message]);
    continue;
  }
  const secretValues = Object.fromEntries(secrets.map((name, i) => [name, `secret-manager-value-${name.toLowerCase()}-${i}-0123456789abcdef`]));
  const instance = loadEntry({ ...env, ...secretValues, K_SERVICE: 'api', FUNCTION_TARGET: 'api', GCLOUD_PROJECT: project });
  check(`${project}: the deploy bundle loads as a production instance`, instance.error ? [instance.error] : []);
  const discovered = loadEntry({ ...env, FUNCTIONS_CONTROL_API: 'true', GCLOUD_PROJECT: project });
  if (discovered.error) {
    check(`${project}: deploy-time discovery of the bundle`, [discovered.error]);
    continue;
  }
  check(`${project}: every function runs in ${region}`, checks.functionRegionProblems(discovered.regions, region));
  check(`${project}: every function has an instance ceiling and a concurrency its CPU allows`, checks.scalingProblems(discovered.endpoints, deployBackend.memoryToGen2Cpu, deployBackend.DEFAULT_MEMORY));
  check(`${project}: Hosting rewrites point at existing functions in ${region}`, checks.rewriteProblems(firebaseJson.hosting?.rewrites ?? [], discovered.regions, region));
}

check('rules cover every collection; every TTL field has a TTL policy; unindexed fields are exempt', checks.collectionProblems(COLLECTIONS, rules, indexesJson.fieldOverrides ?? []));

if (!fs.existsSync(queriesFile)) {
  check('composite indexes for the queries the code sends', [`no recorded queries at ${path.relative(process.cwd(), queriesFile)}: \`npm test\` records them (FIRESTORE_QUERY_LOG)`]);
} else {
  const queries = [...new Set(fs.readFileSync(queriesFile, 'utf8').split('\n').filter(Boolean))].map((line) => JSON.parse(line));
  check(`composite indexes for the ${queries.length} query shapes the test suite sent`, checks.indexProblems(queries, indexesJson.indexes ?? []));
}

const failed = results.filter((r) => r.problems.length > 0).length;
const passed = results.length - failed;
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ passed, failed, results }, null, 2));
process.stdout.write(`deploy:check: ${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
