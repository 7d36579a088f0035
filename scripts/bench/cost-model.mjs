// The cost model of `npm run bench`: Firestore documents read, written and deleted per day for a stated usage
// profile, from the counts `npm test` measured per operation (scripts/cost-check.mjs writes them), and the month's
// price at Firestore's list prices (scripts/lib/cost-profile.cjs: the profile and the prices). docs/deploying.md's
// estimate is this table (bench/cost-model.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../lib/util.mjs';

const { PRICES, PROFILE, profileOperations } = createRequire(import.meta.url)('../lib/cost-profile.cjs');
export { PRICES, PROFILE, profileOperations };

const DAYS_PER_MONTH = 30;

/** The per-operation counts of the last `npm test` (its cost check's report), else the budgets (upper bounds). */
export function measuredOperations() {
  const report = path.join(repoRoot, '.cache', 'test-results', 'cost-check.json');
  if (fs.existsSync(report)) {
    const { operations } = JSON.parse(fs.readFileSync(report, 'utf8'));
    if (Array.isArray(operations) && operations.length > 0) {
      const at = fs.statSync(report).mtime.toISOString();
      return {
        source: `the calls measured by npm test (${operations.length} operations, ${at}; API operations at their median call, triggers at their mean run)`,
        // An API call at its median; a trigger run at its mean (its median run often has nothing to do: a payment
        // handler skips every other purpose's payments).
        perCall: Object.fromEntries(
          operations.map((o) => {
            const at = o.op.startsWith('trigger:') && o.reads.mean !== undefined ? 'mean' : 'p50';
            return [o.op, { reads: o.reads[at], writes: o.writes[at], deletes: o.deletes[at], maxReads: o.reads.max, maxWrites: o.writes.max, calls: o.calls, at }];
          }),
        ),
      };
    }
  }
  const budgets = JSON.parse(fs.readFileSync(path.join(repoRoot, 'functions', 'cost-budgets.json'), 'utf8'));
  return {
    source: 'no npm test run here: the budgets of functions/cost-budgets.json (upper bounds of the median call)',
    perCall: Object.fromEntries(Object.entries(budgets).map(([op, b]) => [op, { reads: b.reads, writes: b.writes, deletes: 0, maxReads: b.maxReads, maxWrites: b.maxWrites }])),
  };
}

const usd = (n, per100k) => (n / 100_000) * per100k;
const round = (n, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Documents per day and month for the profile, and the month's price (after the free quota). */
export function costModel(measured, profile = PROFILE, prices = PRICES) {
  const missing = new Set();
  const flows = profile.flows.map((flow) => {
    const perFlow = { reads: flow.listened ?? 0, writes: 0, deletes: 0 };
    for (const [op, count] of Object.entries(flow.ops)) {
      const cost = measured.perCall[op];
      if (!cost) {
        missing.add(op);
        continue;
      }
      perFlow.reads += cost.reads * count;
      perFlow.writes += cost.writes * count;
      perFlow.deletes += cost.deletes * count;
    }
    const perDay = profile.dailyUsers * flow.perUser;
    return {
      name: flow.name,
      perUser: flow.perUser,
      perFlow: { reads: round(perFlow.reads, 1), writes: round(perFlow.writes, 1), deletes: round(perFlow.deletes, 1) },
      perDay: { reads: Math.round(perFlow.reads * perDay), writes: Math.round(perFlow.writes * perDay), deletes: Math.round(perFlow.deletes * perDay) },
    };
  });
  const perDay = ['reads', 'writes', 'deletes'].reduce((acc, k) => ({ ...acc, [k]: flows.reduce((n, f) => n + f.perDay[k], 0) }), {});
  const billedPerDay = Object.fromEntries(Object.entries(perDay).map(([k, n]) => [k, Math.max(0, n - prices.freePerDay[k])]));
  const monthUsd = {
    reads: round(usd(billedPerDay.reads * DAYS_PER_MONTH, prices.readsPer100k), 2),
    writes: round(usd(billedPerDay.writes * DAYS_PER_MONTH, prices.writesPer100k), 2),
    deletes: round(usd(billedPerDay.deletes * DAYS_PER_MONTH, prices.deletesPer100k), 2),
  };
  return {
    dailyUsers: profile.dailyUsers,
    source: measured.source,
    prices,
    flows,
    perDay,
    perMonth: Object.fromEntries(Object.entries(perDay).map(([k, n]) => [k, n * DAYS_PER_MONTH])),
    monthUsd: { ...monthUsd, total: round(monthUsd.reads + monthUsd.writes + monthUsd.deletes, 2) },
    missing: [...missing].sort(),
  };
}

const thousands = (n) => n.toLocaleString('en-US');

/** The model as markdown: one row per flow, the day's and month's totals, the price. */
export function costModelMarkdown(model) {
  const rows = model.flows.map(
    (f) =>
      `| ${f.name} | ${f.perUser} | ${f.perFlow.reads} / ${f.perFlow.writes} / ${f.perFlow.deletes} | ${thousands(f.perDay.reads)} / ${thousands(f.perDay.writes)} / ${thousands(f.perDay.deletes)} |`,
  );
  const largest = [...model.flows].sort((a, b) => b.perDay.reads + b.perDay.writes - (a.perDay.reads + a.perDay.writes))[0];
  return [
    `| flow (${thousands(model.dailyUsers)} daily users) | per user a day | documents per flow (reads / writes / deletes) | per day |`,
    '|---|---|---|---|',
    ...rows,
    `| **all** | | | **${thousands(model.perDay.reads)} / ${thousands(model.perDay.writes)} / ${thousands(model.perDay.deletes)}** |`,
    '',
    `A month (30 days): ${thousands(model.perMonth.reads)} reads, ${thousands(model.perMonth.writes)} writes, ${thousands(model.perMonth.deletes)} deletes → **US$${model.monthUsd.total}** at the ${model.prices.label} (US$${model.prices.readsPer100k} / ${model.prices.writesPer100k} / ${model.prices.deletesPer100k} per 100,000 reads / writes / deletes, after the daily free quota; reads US$${model.monthUsd.reads}, writes US$${model.monthUsd.writes}, deletes US$${model.monthUsd.deletes}). The largest flow: ${largest.name}. Counts: ${model.source}; the flows with listeners count a read per change a client receives.${model.missing.length ? ` Not measured, left out: ${model.missing.map((m) => `\`${m}\``).join(', ')}.` : ''}`,
  ].join('\n');
}

// `node scripts/bench/cost-model.mjs --write`: the model alone from the last `npm test`'s counts (no benchmark run),
// written to bench/cost-model.md for the deploy guide (`npm run openapi` renders it).
if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--write')) {
  const model = costModel(measuredOperations());
  fs.writeFileSync(path.join(repoRoot, 'bench', 'cost-model.md'), `${costModelMarkdown(model)}\n`);
  process.stdout.write(`${costModelMarkdown(model)}\n\nwrote bench/cost-model.md\n`);
}
