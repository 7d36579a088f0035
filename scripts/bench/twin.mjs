// What the checkout (P13) and booking (P14) benches share: the API in this process, configured as the Functions
// emulator configures the `api` function, and the raw twin of a request: the documents it wrote, copied under
// `bench_raw` (no deployed trigger reacts to them), read and written in one transaction.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { functionsDir, PROJECT_ID } from '../lib/util.mjs';
import { stackEnv } from '../lib/profiles.mjs';
import { collectionOf, profileOf } from './firestore-rpcs.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { db } = lib('platform/core/firebase/firebase.js');
const { buildApp } = lib('app.js');
const { parseConfig } = lib('platform/core/config/config.js');
const { setLogSink } = lib('platform/core/logging/logger.js');

function envFile(name) {
  const file = path.join(functionsDir, name);
  return fs.existsSync(file) ? parseEnv(fs.readFileSync(file, 'utf8')) : {};
}
export async function startApi() {
  // The local stacks' request deadline (profiles.mjs): the emulator serialises contended transactions far more slowly
  // than Firestore, and the crowd of 50 contends on the same ten items.
  const env = { REQUEST_DEADLINE_MS: stackEnv('dev').REQUEST_DEADLINE_MS, ...process.env, ...envFile('.env'), ...envFile(`.env.${PROJECT_ID}`), ...envFile('.env.local'), ...envFile('.secret.local') };
  env.JWT_SECRET ??= 'bench-access-secret-0123456789abcdef0123456789';
  env.JWT_REFRESH_SECRET ??= 'bench-refresh-secret-0123456789abcdef01234567';
  const errors = [];
  setLogSink((entry) => (entry.severity === 'ERROR' || entry.severity === 'WARNING') && errors.push(entry));
  const { app } = buildApp({ config: parseConfig(env) });
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  server.keepAliveTimeout = 1_000;
  const base = `http://127.0.0.1:${server.address().port}/api/v1`;
  const apiJson = async (method, p, body, token, headers = {}) => {
    const res = await fetch(`${base}${p}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  };
  // Checkouts left running (a crowd that never settled) do not hold the bench up: their sockets are cut.
  return { apiJson, errors, close: () => (server.close(), server.closeAllConnections()) };
}


const rawRef = (tag, p) => db().collection('bench_raw').doc(`${tag}~${p.replaceAll('/', '~')}`);

/** What a request wrote, one entry per document (its last operation), with the content it left (or `deleted`'s, if deleted). */
export async function templateOf(rpcs, deleted) {
  const last = new Map();
  for (const w of rpcs.flatMap((e) => e.writes)) last.set(w.path, { ...(last.get(w.path) ?? { ops: [] }), path: w.path, op: w.op, ops: [...(last.get(w.path)?.ops ?? []), w.op] });
  const docs = [...last.values()];
  const snaps = await db().getAll(...docs.map((d) => db().doc(d.path)));
  return docs.map((d, i) => ({ ...d, data: d.op === 'delete' ? deleted : snaps[i].data() }));
}

/** Untimed: the copies of the documents the request found in place (updated or deleted), as they were. */
export async function prepareRaw(template, round, shared, made) {
  const batch = db().batch();
  for (const d of template) {
    if (shared.has(d.path)) {
      if (!made.has(d.path)) batch.set(rawRef('shared', d.path), d.data);
      made.add(d.path);
    } else if (d.ops[0] === 'update' || d.ops[0] === 'delete') batch.set(rawRef(round, d.path), d.data);
  }
  await batch.commit();
}

/** Timed: one transaction reading every copy, then writing each once as the request left it. */
export function rawTransaction(template, round, shared) {
  const refOf = (d) => rawRef(shared.has(d.path) ? 'shared' : round, d.path);
  return db().runTransaction(async (tx) => {
    await tx.getAll(...template.map(refOf));
    for (const d of template) {
      if (d.op === 'delete') tx.delete(refOf(d));
      else if (shared.has(d.path) || d.ops[0] === 'update') tx.set(refOf(d), d.data);
      else tx.create(refOf(d), d.data);
    }
  });
}

export function summaryOf(template) {
  const byCollection = {};
  for (const d of template) {
    const key = `${collectionOf(d.path)} (${d.ops.join(' → ')})`;
    byCollection[key] = (byCollection[key] ?? 0) + 1;
  }
  return Object.entries(byCollection).map(([what, n]) => `${n}× ${what}`);
}


/**
 * Rounds of a request and its raw twin, taking turns going first (the first two: the request, whose writes make the
 * twin's template). `request(r)` answers the recorded call and what a document it deleted held; documents written in
 * every round (a shared counter, an item's stock) keep one set of copies. `gapMs` lets the deployed triggers settle.
 */
export async function twinRounds({ rounds, warmup, gapMs, request, onRound }) {
  const shared = new Set();
  const seen = new Set();
  const made = new Set();
  const requestMs = [];
  const rawMs = [];
  const profiles = [];
  let template;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let r = 0; r < rounds; r++) {
    const runRequest = async () => {
      const { res, deleted } = await request(r);
      const paths = new Set(res.rpcs.flatMap((e) => e.writes.map((w) => w.path)));
      for (const p of paths) if (seen.has(p)) shared.add(p);
      for (const p of paths) seen.add(p);
      template = await templateOf(res.rpcs, deleted);
      return res;
    };
    const runRaw = async () => {
      await prepareRaw(template, r, shared, made);
      const started = performance.now();
      await rawTransaction(template, r, shared);
      return performance.now() - started;
    };
    let res;
    let raw;
    if (r < 2 || r % 2 === 0) {
      res = await runRequest();
      await sleep(gapMs);
      raw = await runRaw();
    } else {
      raw = await runRaw();
      await sleep(gapMs);
      res = await runRequest();
    }
    if (r >= warmup) {
      requestMs.push(res.ms);
      rawMs.push(raw);
      profiles.push(profileOf(res.rpcs, res.started, res.ms));
    }
    onRound?.(r, res, raw, template);
    await sleep(gapMs);
  }
  return { requestMs, rawMs, profiles, template };
}
