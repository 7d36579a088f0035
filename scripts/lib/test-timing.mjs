// Where `npm test`'s time goes: steps run side by side with their output kept, the time of each tier, the slowest
// files, and each file's duration recorded for the next run's order (functions/test/helpers/sequencer.js).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { functionsDir, log, repoRoot } from './util.mjs';

// The budget of the whole `npm test` on the 2-core CI machine (docs/testing.md); the team's limit is 600 s.
export const TEST_BUDGET_S = Number(process.env.TEST_BUDGET_S) || 480;
export const TEAM_LIMIT_S = 600;

// Each run's per-file durations (seconds), merged over runs: the sequencer starts the longest files first.
export const durationsFile = path.join(repoRoot, '.cache', 'test-durations.json');

// Runs a command without blocking this process; its output is kept and returned whole, since steps that run side by
// side would interleave their lines.
export function runQuiet(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks = [];
    const child = spawn(cmd, args, { cwd: repoRoot, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (err) => chunks.push(Buffer.from(`${cmd}: ${err.message}\n`)));
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(chunks).toString(), ms: Date.now() - started }));
  });
}

// The same with the output passed through as it comes (the long tiers: their progress should show).
export function runLive(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: repoRoot, stdio: 'inherit', ...options });
    child.on('error', (err) => log(`${cmd}: ${err.message}`));
    child.on('close', (code) => resolve({ status: code ?? 1, ms: Date.now() - started }));
  });
}

// Times of the tiers, in the order they ran.
export function tierClock() {
  const tiers = [];
  return {
    add: (name, ms) => tiers.push({ name, ms }),
    async time(name, fn) {
      const started = Date.now();
      try {
        return await fn();
      } finally {
        tiers.push({ name, ms: Date.now() - started });
      }
    },
    tiers,
  };
}

// The modification time of a marker file a shell step touched (ms), if it did.
export const markedAt = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : undefined);

// Per-file durations (seconds) out of jest's --json results.
export function fileDurations(files) {
  const out = {};
  for (const file of files.filter((f) => fs.existsSync(f))) {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const s of r.testResults) {
      if (s.startTime && s.endTime) out[path.relative(functionsDir, s.name)] = Math.round((s.endTime - s.startTime) / 100) / 10;
    }
  }
  return out;
}

// Merges this run's durations into the record the sequencer reads.
export function recordDurations(durations) {
  let known = {};
  try {
    known = JSON.parse(fs.readFileSync(durationsFile, 'utf8'));
  } catch {
    // none yet
  }
  fs.mkdirSync(path.dirname(durationsFile), { recursive: true });
  fs.writeFileSync(durationsFile, `${JSON.stringify({ ...known, ...durations }, null, 1)}\n`);
}

// The closing report: each tier's seconds, the ten slowest files, the total against the budget.
export function printTiming(tiers, durations, totalMs) {
  const s = (ms) => `${Math.round(ms / 1000)} s`;
  log(`time per tier: ${tiers.map((t) => `${t.name} ${s(t.ms)}`).join(', ')}`);
  const slowest = Object.entries(durations)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  log(`slowest files: ${slowest.map(([file, sec]) => `${file.replace(/^test\//, '')} ${Math.round(sec)} s`).join(', ')}`);
  const total = Math.round(totalMs / 1000);
  if (total > TEAM_LIMIT_S) log(`WARNING: npm test took ${total} s, over the team's limit of ${TEAM_LIMIT_S} s (budget ${TEST_BUDGET_S} s): see docs/testing.md, "Time budget"`);
  else if (total > TEST_BUDGET_S) log(`WARNING: npm test took ${total} s, over its budget of ${TEST_BUDGET_S} s (limit ${TEAM_LIMIT_S} s): see docs/testing.md, "Time budget"`);
  else log(`total ${total} s, within the budget of ${TEST_BUDGET_S} s`);
}
