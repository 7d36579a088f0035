#!/usr/bin/env node
// `node scripts/cost-check.mjs [--costs <file>] [--json=<file>] [--write-budgets]`: what each operation costs in
// Firestore's billing units, checked against its budget (part of `npm test`, after the emulator tiers).
// The costs are the lines `npm test` recorded (platform/core/deploy/cost-log.ts: one per API request, trigger run
// and task run: documents read, written, deleted, by collection). For each operation: calls, median and maximum per
// call. Its budget (functions/cost-budgets.json, keyed by operationId, `trigger:<name>` or `task:<name>`) bounds
// the median call (`reads`, `writes`) and, loosely, the worst one (`maxReads`, `maxWrites`: contention retries a
// transaction, and each attempt is billed). An operation over its budget, or measured without one, fails the check
// with the numbers named. `--write-budgets` adds budgets from this run's figures with their margins, never lowering
// one (a new operation, or a cost raised on purpose: review the diff); with `--reset`, from this run alone.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { option, repoRoot } from './lib/util.mjs';

const { budgetOf, check, mergeBudgets, summarize } = createRequire(import.meta.url)('./lib/cost-budgets.cjs');

const args = process.argv.slice(2);
const costsFile = path.resolve(option('costs') ?? path.join(repoRoot, '.cache', 'test-results', 'firestore-costs.jsonl'));
const budgetsFile = path.join(repoRoot, 'functions', 'cost-budgets.json');
const jsonOut = option('json');
const writeBudgets = args.includes('--write-budgets');
const reset = args.includes('--reset');

{
  const finish = (result) => {
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(result, null, 2));
    process.exit(result.failed > 0 ? 1 : 0);
  };
  if (!fs.existsSync(costsFile)) {
    process.stdout.write(`FAIL cost budgets: no costs recorded (${path.relative(repoRoot, costsFile)})\n`);
    finish({ passed: 0, failed: 1, crashed: 'no costs recorded' });
  }
  // A line cut short (a process stopped while appending) is skipped, not fatal.
  const lines = fs
    .readFileSync(costsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
  const summary = summarize(lines);
  const top = [...summary].sort((a, b) => b.reads.p50 + b.writes.p50 - (a.reads.p50 + a.writes.p50)).slice(0, 10);
  process.stdout.write(`Firestore cost of ${summary.length} operations over ${lines.length} runs; the ten most expensive median calls:\n`);
  for (const s of top)
    process.stdout.write(`  ${s.op}: ${s.reads.p50} reads, ${s.writes.p50} writes (worst ${s.reads.max} / ${s.writes.max}; ${s.calls} calls) — ${s.collections.join(', ')}\n`);
  const stored = fs.existsSync(budgetsFile) ? JSON.parse(fs.readFileSync(budgetsFile, 'utf8')) : {};
  let budgets = stored;
  if (writeBudgets) {
    const fresh = Object.fromEntries(summary.map((s) => [s.op, budgetOf(s)]));
    budgets = reset ? fresh : mergeBudgets(stored, fresh);
    fs.writeFileSync(budgetsFile, `${JSON.stringify(budgets, null, 2)}\n`);
    process.stdout.write(`wrote ${Object.keys(budgets).length} budgets to ${path.relative(repoRoot, budgetsFile)}${reset ? ' (reset)' : ' (none lowered)'}\n`);
  }
  const { problems, warnings } = check(summary, budgets);
  const listed = [...problems, ...warnings].map((p) => `\n       - ${p}`).join('');
  process.stdout.write(`${problems.length ? 'FAIL' : warnings.length ? 'warn' : 'ok  '} cost budgets (${summary.length} operations)${listed}\n`);
  finish({ passed: problems.length ? 0 : 1, failed: problems.length ? 1 : 0, operations: summary, problems, warnings });
}
