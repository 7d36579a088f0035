// P9: transfers per second from 50 concurrent payers into one account, when that account is sharded (platform
// revenue: 16 shards, blind increments) and when it is one document (a plain account: read, check, write in the
// transaction), plus the p95 latency of one transfer. Run by `npm run bench` inside `firebase emulators:exec`;
// writes its figures as JSON to the path given as the first argument.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir } from '../lib/util.mjs';
import { median, percentile } from './stats.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { inTransaction } = lib('platform/core/firebase/firebase.js');
const { ledgerRepo } = lib('modules/wallet/ledger.repo.js');
const { userAccount, systemAccount } = lib('modules/wallet/ledger.model.js');
const { checkLedger } = lib('modules/wallet/ledger.check.js');

const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const PAYERS = 50;
const PER_PAYER = 4;
const AMOUNT = 1_000;
const run = `${Date.now().toString(36)}`;
let operation = 0;

// A transaction that loses the document to others more times than the SDK's attempts fails; the payer sends it
// again under the same operation id (posted once), as an app retries, and the wait counts in its latency.
let gaveUp = 0;
async function transfer(debit, credit) {
  const id = `bench-${run}-${operation++}`;
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction((tx) => ledgerRepo.post(tx, [{ kind: 'PAYMENT', debit, credit, amount: AMOUNT, memo: 'bench' }], { operationId: id, by: 'bench', now: Date.now() }));
      break;
    } catch (err) {
      if (attempt === 5 || !/maximum number of retries/.test(err.message)) throw err;
      gaveUp++;
    }
  }
  return performance.now() - started;
}

async function fund(payers) {
  const adjustments = systemAccount('platform_adjustments');
  for (let i = 0; i < payers.length; i += 10) {
    await Promise.all(payers.slice(i, i + 10).map((p, j) => inTransaction((tx) => ledgerRepo.post(tx, [{ kind: 'ADJUSTMENT', debit: adjustments, credit: p, amount: 10_000_000, memo: 'bench float' }], { operationId: `bench-${run}-fund-${i + j}`, by: 'bench', now: Date.now() }))));
  }
}

// Every payer sends PER_PAYER transfers one after another; the 50 payers run at once.
async function burst(payers, target) {
  const latencies = [];
  const started = performance.now();
  gaveUp = 0;
  await Promise.all(payers.map(async (payer) => {
    for (let k = 0; k < PER_PAYER; k++) latencies.push(await transfer(payer, target));
  }));
  const seconds = (performance.now() - started) / 1000;
  return { transfers: latencies.length, seconds: +seconds.toFixed(2), perSecond: +(latencies.length / seconds).toFixed(1), p50Ms: +median(latencies).toFixed(1), p95Ms: +percentile(latencies, 95).toFixed(1), sentAgain: gaveUp };
}

async function p9() {
  const payers = Array.from({ length: PAYERS }, (_, i) => userAccount('WALLET', `bench-payer-${run}-${i}`));
  log(`P9: funding ${PAYERS} payer wallets …`);
  await fund(payers);
  // Warm-up: the emulator's first transactions are slower.
  await burst(payers.slice(0, 5), systemAccount('platform_revenue'));
  log(`P9: ${PAYERS} payers × ${PER_PAYER} transfers into one sharded account (16 shards) …`);
  const sharded = await burst(payers, systemAccount('platform_revenue'));
  log(`  ${sharded.perSecond}/s, p95 ${sharded.p95Ms} ms`);
  log(`P9: the same into one plain document …`);
  const single = await burst(payers, userAccount('EARNINGS', `bench-merchant-${run}`));
  log(`  ${single.perSecond}/s, p95 ${single.p95Ms} ms, ${single.sentAgain} sent again after the SDK gave up`);
  const books = await checkLedger();
  return { payers: PAYERS, perPayer: PER_PAYER, sharded, single, ratio: +(sharded.perSecond / single.perSecond).toFixed(2), ledgerBalanced: books.ok, ledgerTransfers: books.transfers };
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
let result;
if (!only || only.includes('P9')) {
  try {
    result = { P9: await p9() };
  } catch (err) {
    log(`P9 failed: ${err.message}`);
    result = { P9: { error: err.message } };
  }
} else result = {};
fs.writeFileSync(out, JSON.stringify(result, null, 2));
process.exit(0);
