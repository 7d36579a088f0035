// The cost budgets' arithmetic (scripts/cost-check.mjs; unit-tested in functions/test/platform/cost-budgets.unit.test.ts).
'use strict';

/** A budget from a run's figures: the median call with half again and 3 documents to spare; the worst call four times over and 20. */
const budgetOf = (s) => ({
  reads: Math.ceil(s.reads.p50 * 1.5) + 3,
  writes: Math.ceil(s.writes.p50 * 1.5) + 3,
  maxReads: s.reads.max * 4 + 20,
  maxWrites: s.writes.max * 4 + 20,
});

/** Budgets written again from a run: each kept at least as high as it was (a faster run never tightens it by chance). */
const mergeBudgets = (old, fresh) =>
  Object.fromEntries(
    Object.keys({ ...old, ...fresh })
      .sort()
      .map((op) => {
        const [a, b] = [old[op], fresh[op]];
        if (!a || !b) return [op, a ?? b];
        return [op, Object.fromEntries(Object.keys(b).map((k) => [k, Math.max(a[k] ?? 0, b[k])]))];
      }),
  );

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Work a request left running after its answer is counted apart, as its own operation. */
const AFTER = ' (after the answer)';
/** Told, never failed: triggers and tasks a run may or may not reach (a timer's task), and work after an answer. */
const toldOnly = (op) => /^(trigger|task):/.test(op) || op.endsWith(AFTER);

/**
 * Per operation: the calls it is budgeted on (answered 2xx, or every call of one never answered so), the refusals
 * beside them, reads / writes / deletes (median and maximum per call), the collections read and written most.
 */
function summarize(lines) {
  const byOp = new Map();
  for (const run of lines) {
    const key = run.late ? `${run.op}${AFTER}` : run.op;
    const op = byOp.get(key) ?? { runs: [], refused: 0, by: {} };
    if (run.status !== undefined && run.status >= 400) op.refused += 1;
    op.runs.push(run);
    for (const [collection, [r, w, d]] of Object.entries(run.by ?? {})) {
      const row = (op.by[collection] ??= [0, 0, 0]);
      row[0] += r;
      row[1] += w;
      row[2] += d;
    }
    byOp.set(key, op);
  }
  const stat = (runs, key) => ({
    p50: median(runs.map((r) => r[key])),
    // The mean too: a trigger's median run is often one with nothing to do (the cost model prices triggers by it).
    mean: Math.round((runs.reduce((n, r) => n + r[key], 0) / runs.length) * 10) / 10,
    max: Math.max(...runs.map((r) => r[key])),
  });
  return [...byOp.entries()]
    .map(([op, { runs, refused, by }]) => {
      const answered = runs.filter((r) => r.status === undefined || r.status < 400);
      const counted = answered.length > 0 ? answered : runs;
      return {
        op,
        calls: counted.length,
        refused: answered.length > 0 ? refused : 0,
        reads: stat(counted, 'reads'),
        writes: stat(counted, 'writes'),
        deletes: stat(counted, 'deletes'),
        collections: Object.entries(by)
          .sort((a, b) => b[1][0] + b[1][1] - (a[1][0] + a[1][1]))
          .slice(0, 4)
          .map(([c, [r, w, d]]) => `${c} ${r}r/${w}w${d ? `/${d}d` : ''}`),
      };
    })
    .sort((a, b) => a.op.localeCompare(b.op));
}

/**
 * A run against the budgets. Problems (they fail `npm test`): an API operation whose median call (3 calls or more)
 * reads or writes more than its budget, or measured without a budget. Warnings: a worst call over its loose bound
 * (contention retries transactions, each attempt billed), triggers, tasks and late work without a budget.
 */
function check(summary, budgets) {
  const problems = [];
  const warnings = [];
  for (const s of summary) {
    const b = budgets[s.op];
    if (!b) {
      const line = `${s.op}: no budget (measured: a median call reads ${s.reads.p50}, writes ${s.writes.p50}; the worst ${s.reads.max} / ${s.writes.max})`;
      (toldOnly(s.op) ? warnings : problems).push(line);
      continue;
    }
    const where = `${s.op} (${s.calls} calls): `;
    const most = `; most: ${s.collections.join(', ')}`;
    const over = [
      s.calls >= 3 && s.reads.p50 > b.reads && `a median call reads ${s.reads.p50} documents (budget ${b.reads})`,
      s.calls >= 3 && s.writes.p50 > b.writes && `a median call writes ${s.writes.p50} (budget ${b.writes})`,
    ].filter(Boolean);
    if (over.length) (toldOnly(s.op) ? warnings : problems).push(`${where}${over.join('; ')}${most}`);
    const worst = [
      s.reads.max > b.maxReads && `the worst call reads ${s.reads.max} (bound ${b.maxReads})`,
      s.writes.max > b.maxWrites && `the worst call writes ${s.writes.max} (bound ${b.maxWrites})`,
    ].filter(Boolean);
    if (worst.length) warnings.push(`${where}${worst.join('; ')}${most}`);
  }
  return { problems, warnings };
}

module.exports = { budgetOf, check, mergeBudgets, summarize };
