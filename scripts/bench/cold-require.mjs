// P1: cold `require` of the deployed functions entry (functions/dist/index.js, the esbuild bundle) vs bare
// `firebase-functions/https`, each in a fresh process. Measured without FUNCTION_TARGET, the heaviest case
// (discovery and task or trigger instances read every module definition); the `api` instance and the
// unbundled tsc output (lib/) are measured beside it for reference.
import { spawnSync } from 'node:child_process';
import { median, pairedSpread } from './stats.mjs';

const probe = (target) => `
const t = process.hrtime.bigint();
require(${JSON.stringify(target)});
const ms = Number(process.hrtime.bigint() - t) / 1e6;
const loaded = Object.keys(require.cache);
process.stdout.write(JSON.stringify({ ms, grpc: loaded.some((k) => /[\\\\/]@grpc[\\\\/]|[\\\\/]grpc[\\\\/]/.test(k)), modules: loaded.length }));
`;

function once(functionsDir, target, env) {
  const res = spawnSync(process.execPath, ['-e', probe(target)], { cwd: functionsDir, env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`cold require of ${target} failed:\n${res.stderr}`);
  return JSON.parse(res.stdout);
}

function measureEntry(functionsDir, entryFile, env, rounds, onProgress) {
  const entry = [];
  const base = [];
  // Interleaved so that disk cache and CPU noise hit both sides alike; one warm-up each.
  once(functionsDir, entryFile, env);
  once(functionsDir, 'firebase-functions/https', env);
  for (let i = 0; i < rounds; i++) {
    entry.push(once(functionsDir, entryFile, env));
    base.push(once(functionsDir, 'firebase-functions/https', env));
    onProgress(i + 1, rounds);
  }
  const entryMs = median(entry.map((r) => r.ms));
  const baseMs = median(base.map((r) => r.ms));
  return {
    entryMedianMs: round(entryMs),
    baselineMedianMs: round(baseMs),
    ratio: round(entryMs / baseMs, 3),
    // Each pair of processes side by side (one after the other).
    spread: pairedSpread(entry.map((r) => r.ms), base.map((r) => r.ms)),
    grpcLoadedAtImport: entry.some((r) => r.grpc),
    entryModules: entry[0].modules,
    baselineModules: base[0].modules,
  };
}

export function measureColdRequire({ functionsDir, env, rounds = 15, onProgress = () => {} }) {
  const main = measureEntry(functionsDir, './dist/index.js', env, rounds, onProgress);
  const apiInstance = measureEntry(functionsDir, './dist/index.js', { ...env, FUNCTION_TARGET: 'api', FUNCTIONS_EMULATOR: 'true' }, Math.ceil(rounds / 2), () => {});
  const unbundled = measureEntry(functionsDir, './lib/index.js', env, Math.ceil(rounds / 2), () => {});
  return {
    entry: 'functions/dist/index.js',
    ...main,
    rounds,
    apiInstance: { ratio: apiInstance.ratio, entryMedianMs: apiInstance.entryMedianMs, note: 'FUNCTION_TARGET=api: module definitions skipped' },
    unbundled: { ratio: unbundled.ratio, entryMedianMs: unbundled.entryMedianMs, modules: unbundled.entryModules, note: 'functions/lib/index.js (tsc), the entry before the bundle' },
  };
}

function round(n, digits = 1) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
