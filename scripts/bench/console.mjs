// P17, the admin console's first page: from navigation to a usable sign-in form (its inputs in the page) in a fresh
// headless Chromium context each round (cold cache, as an operator's first visit), through the Hosting emulator.
// The nearest raw operation: fetching the same three files (index.html, the bundle, the stylesheet) over HTTP.
// The first page's gzipped size comes from the build (budget 300 KB). Run by `npm run bench` inside
// `firebase emulators:exec`; writes its figures as JSON to the path given.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { median, pairedSpread, percentile } from './stats.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(root, 'functions', 'package.json'));
const BASE = process.env.BENCH_BASE_URL ?? 'http://127.0.0.1:5000';
const ROUNDS = 20;
const WARMUP = 3;
const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const { findChromium, INSTALL_HINT } = require(path.join(root, 'scripts', 'lib', 'chromium.cjs'));
const CHROMIUM = findChromium();

async function p17() {
  if (!CHROMIUM) return { error: `no Chromium: ${INSTALL_HINT}` };
  const { chromium } = require('playwright-core');
  const html = await (await fetch(`${BASE}/admin/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/admin\/app-[0-9a-f]{12}\.(?:js|css))"/g)].map((m) => m[1]);
  if (assets.length !== 2) return { error: `index.html names ${assets.length} assets, not 2` };
  const files = ['/admin/', ...assets];
  const firstPageGzipBytes = (await Promise.all(files.map(async (f) => gzipSync(Buffer.from(await (await fetch(`${BASE}${f}`)).arrayBuffer())).length))).reduce((a, b) => a + b, 0);

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  const usable = [];
  const raw = [];
  try {
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${BASE}/admin/`, { waitUntil: 'commit' });
      await page.waitForSelector('[data-testid=signin] input[name=email]:not([disabled])');
      const ms = performance.now() - started;
      await context.close();
      const rawStarted = performance.now();
      for (const f of files) await (await fetch(`${BASE}${f}`, { headers: { 'cache-control': 'no-cache' } })).arrayBuffer();
      const rawMs = performance.now() - rawStarted;
      if (round >= WARMUP) {
        usable.push(ms);
        raw.push(rawMs);
      }
    }
  } finally {
    await browser.close();
  }
  const round1 = (x) => Math.round(x * 10) / 10;
  const result = {
    rounds: ROUNDS,
    usableP50Ms: round1(median(usable)),
    usableP95Ms: round1(percentile(usable, 95)),
    rawP50Ms: round1(median(raw)),
    rawP95Ms: round1(percentile(raw, 95)),
    firstPageGzipBytes,
    spread: pairedSpread(usable, raw),
  };
  result.ratioP95 = round1(result.usableP95Ms / result.rawP95Ms);
  log(`P17: first page usable p50 ${result.usableP50Ms} ms, p95 ${result.usableP95Ms} ms (raw fetch of its ${files.length} files p95 ${result.rawP95Ms} ms); ${(firstPageGzipBytes / 1024).toFixed(1)} KB gzipped`);
  return result;
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
let result;
try {
  result = only && !only.includes('P17') ? { error: 'not measured in this run (BENCH_ONLY)' } : await p17();
} catch (error) {
  result = { error: error.message };
}
fs.writeFileSync(out, JSON.stringify({ P17: result }, null, 2));
