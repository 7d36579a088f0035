// Memory: the peak resident set of a process that runs one hub dispatch to 5,000 recipients (inbox items, push
// decisions with their device and preference reads), as an `api` or trigger instance would, in a fresh process so
// nothing else counts. Target < 512 MiB (the function's memory). Run inside `firebase emulators:exec`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir, PROJECT_ID } from '../lib/util.mjs';
import { attempt } from './stats.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { createHub } = lib('modules/notifications/hub.js');
const { outboxTransport } = lib('platform/core/push/transport.js');
const { asWritten } = lib('platform/kits/i18n/messages.js');
const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });

async function dispatchMemory(n = 5_000) {
  await wipe();
  const idleRssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  const hub = createHub({ transport: outboxTransport() });
  const recipients = Array.from({ length: n }, (_, i) => ({ userId: `mem-u${String(i).padStart(5, '0')}`, surface: 'CON' }));
  const t0 = performance.now();
  const reports = await hub.dispatch({ event: 'admin.broadcast', recipients, entityId: `mem-${Date.now()}`, text: asWritten({ title: 'Bench', body: 'memory' }) });
  const ms = Math.round(performance.now() - t0);
  if (reports.filter((r) => r.inbox).length !== n) throw new Error('the dispatch did not write every inbox item');
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  log(`memory: dispatch to ${n} recipients in ${ms} ms; peak RSS ${peakRssMb} MiB (idle ${idleRssMb} MiB)`);
  return { n, ms, idleRssMb, peakRssMb };
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
const results = !only || only.includes('MEM') ? { dispatchMemory: await attempt('memory', () => dispatchMemory()) } : {};
if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
