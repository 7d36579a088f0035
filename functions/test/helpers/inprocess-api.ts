import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { functionsEnv } from './functions-env';

// Global setup of the integration tier: the Express app of the `api` function runs in the jest process on a
// random port, against the same Firestore, Auth and Tasks emulators and with the configuration the Functions
// emulator gives it (process env + functions/.env files + .secret.local). Tests reach it through TEST_BASE_URL
// (test/helpers/emulators.ts); the smoke tier (test/smoke) keeps going through Hosting and the Functions
// emulator. Firestore triggers and task functions still run in the Functions emulator, whoever writes.
// The app is the deployed bundle (functions/dist/runtime.js, which `npm test` builds): Node loads it natively, as
// Cloud Functions does (ESM-only packages included), not through jest's module sandbox.

const functionsDir = path.join(__dirname, '..', '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export default async function startInProcessApi(): Promise<void> {
  // Tests' map spots are handed out through one directory per run (test/helpers/geo.ts): npm test and test:files name
  // it; jest run alone gets one here, which its workers (started after this) inherit.
  if (!process.env.TEST_GEO_CELLS) {
    process.env.TEST_GEO_CELLS = fs.mkdtempSync(path.join(os.tmpdir(), 'superapp-geo-cells-'));
    (globalThis as { __superappGeoCells?: string }).__superappGeoCells = process.env.TEST_GEO_CELLS;
  }
  if (process.env.TEST_BASE_URL) return; // an explicit target (e.g. a running stack) wins
  const dist = path.join(functionsDir, 'dist');
  if (!fs.existsSync(path.join(dist, 'runtime.js')) || newestMtime(path.join(functionsDir, 'src')) > newestMtime(dist)) {
    throw new Error('functions/dist is missing or older than src: build it first (cd functions && npm run build)');
  }
  const env = functionsEnv();
  const runtime = require(path.join(dist, 'runtime.js')) as { load(id: string): unknown };
  const { parseConfig } = runtime.load('platform/core/config/config') as typeof import('../../src/platform/core/config/config');
  const { setLogSink } = runtime.load('platform/core/logging/logger') as typeof import('../../src/platform/core/logging/logger');
  const { buildApp } = runtime.load('app') as typeof import('../../src/app');
  // npm test records every query shape the API sends, for deploy:check's index coverage.
  if (env.FIRESTORE_QUERY_LOG)
    (runtime.load('platform/core/deploy/query-log') as typeof import('../../src/platform/core/deploy/query-log')).recordQueriesTo(env.FIRESTORE_QUERY_LOG);
  // …and what each request costs in Firestore reads and writes, for the cost budgets.
  if (env.FIRESTORE_COST_LOG)
    (runtime.load('platform/core/deploy/cost-log') as typeof import('../../src/platform/core/deploy/cost-log')).recordCostsTo(env.FIRESTORE_COST_LOG);
  // Refusals (4xx) are what most tests provoke; only errors reach the log.
  setLogSink((entry) => {
    if (entry.severity === 'ERROR') process.stderr.write(`[api] ${JSON.stringify(entry)}\n`);
  });
  const { app } = buildApp({ config: parseConfig(env) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Idle sockets would keep the process alive after the run.
  server.keepAliveTimeout = 1_000;
  process.env.TEST_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  (globalThis as { __superappApi?: Server }).__superappApi = server;
}
