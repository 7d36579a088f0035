// `npm run bench`: measures P1 and P2 side by side and writes bench/results.json + bench/results.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { functionsDir, log, repoRoot } from '../lib/util.mjs';
import { measureColdRequire } from './cold-require.mjs';
import { measureThroughput } from './throughput.mjs';
import { measureBcrypt } from './bcrypt.mjs';

const TARGETS = { P1: { max: 1.5 }, P2: { min: 0.9 } };

export async function runBench() {
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    JWT_SECRET: 'bench-access-secret-0123456789abcdef0123456789',
    JWT_REFRESH_SECRET: 'bench-refresh-secret-0123456789abcdef01234567',
  };

  log('P1: cold require of the functions entry vs firebase-functions/https (fresh processes) …');
  const p1 = measureColdRequire({
    functionsDir,
    env,
    rounds: 21,
    onProgress: (i, n) => i % 7 === 0 && log(`  P1 round ${i}/${n}`),
  });
  log(`  entry ${p1.entryMedianMs} ms vs baseline ${p1.baselineMedianMs} ms → ${p1.ratio}×; gRPC at import: ${p1.grpcLoadedAtImport}`);

  log('P2: requests/s, full middleware stack vs plain Express (autocannon, 5 rounds × 5 s) …');
  const p2 = await measureThroughput({
    env,
    onProgress: (i, n, rps) => log(`  P2 round ${i}/${n}: stack ${Math.round(rps.stack.at(-1))} rps, plain ${Math.round(rps.plain.at(-1))} rps`),
  });
  log(`  stack ${p2.stackMedianRps} rps vs plain ${p2.plainMedianRps} rps → ${p2.ratio}×`);

  log('A1: bcryptjs per-hash time (the password hash of register/reset; compare costs the same) …');
  const a1 = await measureBcrypt({ functionsDir, onProgress: (cost, ms) => log(`  cost ${cost}: ${ms} ms`) });

  const results = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30) },
    P1: { ...p1, target: `≤ ${TARGETS.P1.max}×`, pass: p1.ratio <= TARGETS.P1.max && !p1.grpcLoadedAtImport },
    P2: { ...p2, target: `≥ ${TARGETS.P2.min}×`, pass: p2.ratio >= TARGETS.P2.min },
    A1: { ...a1, defaultCost: 10, note: 'informational: BCRYPT_COST (10..15, default 10); each +1 doubles the time' },
  };
  const dir = path.join(repoRoot, 'bench');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const md = [
    '# Benchmark results',
    '',
    `Generated ${results.generatedAt} by \`npm run bench\` on Node ${process.version}, ${results.machine.cpus} cores.`,
    '',
    '| id | measure | ours | baseline | ratio | target | pass |',
    '|---|---|---|---|---|---|---|',
    `| P1 | cold \`require\` of \`functions/lib/index.js\` vs bare \`firebase-functions/https\` (median of ${p1.rounds} fresh processes) | ${p1.entryMedianMs} ms | ${p1.baselineMedianMs} ms | ${p1.ratio}× | ${results.P1.target}, no gRPC at import (loaded: ${p1.grpcLoadedAtImport}) | ${results.P1.pass ? 'yes' : 'no'} |`,
    `| P2 | requests/s, zod-validated JSON POST through the full stack vs plain Express (median of ${p2.rounds} × ${p2.secondsPerRound} s, ${p2.connections} connections) | ${p2.stackMedianRps} rps | ${p2.plainMedianRps} rps | ${p2.ratio}× | ${results.P2.target} | ${results.P2.pass ? 'yes' : 'no'} |`,
    '',
    '| id | measure | cost 10 | cost 11 | cost 12 |',
    '|---|---|---|---|---|',
    `| A1 | bcryptjs per-hash time, median of ${a1.rounds} (BCRYPT_COST default 10) | ${a1.medianMsByCost[10]} ms | ${a1.medianMsByCost[11]} ms | ${a1.medianMsByCost[12]} ms |`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'results.md'), md);
  log(`wrote bench/results.json and bench/results.md (P1 ${results.P1.pass ? 'pass' : 'FAIL'}, P2 ${results.P2.pass ? 'pass' : 'FAIL'})`);
}
