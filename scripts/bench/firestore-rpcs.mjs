// What the Firestore client of this process sends, recorded while asked (the P13 bench's profile of a checkout and
// of a crowd's contention): every RPC's method, start and end, the documents it reads or writes, the gRPC code it
// failed with. Patches the client's two RPC funnels (Firestore.prototype.request and requestStream) on import.
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir } from '../lib/util.mjs';
import { median } from './stats.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const { Firestore } = require('@google-cloud/firestore');
const r1 = (x) => Math.round(x * 10) / 10;

let recording = null;
const docPath = (name) => name.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\//, '');
export const collectionOf = (p) => p.split('/').filter((_, i) => i % 2 === 0).join('/*/');
function writeOf(w) {
  if (w.delete) return { op: 'delete', path: docPath(w.delete) };
  const op = w.currentDocument?.exists === false ? 'create' : w.updateMask ? 'update' : 'set';
  return { op: w.updateTransforms?.length ? `${op}+increment` : op, path: docPath(w.update?.name ?? w.transform?.document) };
}
const request = Firestore.prototype.request;
Firestore.prototype.request = function (method, req, ...rest) {
  const pending = request.call(this, method, req, ...rest);
  if (!recording) return pending;
  const entry = { method, start: performance.now(), writes: method === 'commit' ? (req.writes ?? []).map(writeOf) : [], reads: [] };
  recording.push(entry);
  return pending.then(
    (value) => ((entry.end = performance.now()), value),
    (err) => {
      entry.end = performance.now();
      entry.error = err.code ?? 'error';
      throw err;
    },
  );
};
const requestStream = Firestore.prototype.requestStream;
Firestore.prototype.requestStream = function (method, bidi, req, ...rest) {
  const pending = requestStream.call(this, method, bidi, req, ...rest);
  if (!recording || method === 'listen') return pending;
  const reads = method === 'batchGetDocuments' ? (req.documents ?? []).map(docPath) : method === 'runQuery' ? [`${docPath(`${req.parent}/`)}${req.structuredQuery?.from?.[0]?.collectionId} (query)`] : [];
  const entry = { method, start: performance.now(), writes: [], reads, inTransaction: Boolean(req.transaction || req.newTransaction) };
  recording.push(entry);
  return pending.then(
    (stream) => {
      const done = () => (entry.end ??= performance.now());
      stream.on('end', done);
      stream.on('close', done);
      stream.on('error', (err) => {
        entry.error ??= err.code ?? 'error';
        done();
      });
      return stream;
    },
    (err) => {
      entry.end = performance.now();
      entry.error = err.code ?? 'error';
      throw err;
    },
  );
};
/** The contention a burst met: its commits, those refused (gRPC code: 10 ABORTED, 3 a transaction expired), rollbacks. */
export function contentionOf(rpcs) {
  const commits = rpcs.filter((e) => e.method === 'commit');
  const refused = {};
  for (const e of [...commits, ...rpcs.filter((x) => x.method === 'batchGetDocuments')].filter((x) => x.error !== undefined)) refused[`${e.method} ${e.error}`] = (refused[`${e.method} ${e.error}`] ?? 0) + 1;
  return { commits: commits.length, refused, rollbacks: rpcs.filter((e) => e.method === 'rollback').length, reads: rpcs.filter((e) => e.method === 'batchGetDocuments').length };
}
export async function recorded(fn) {
  recording = [];
  const started = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - started, rpcs: recording, started };
  } finally {
    recording = null;
  }
}

/** The RPCs of one request as sequential steps (overlapping ones merged): how many round trips, and their time. */
export function profileOf(rpcs, started, totalMs) {
  const sorted = rpcs.filter((e) => e.end !== undefined).sort((a, b) => a.start - b.start);
  const steps = [];
  for (const e of sorted) {
    const last = steps.at(-1);
    if (last && e.start < last.end) {
      last.end = Math.max(last.end, e.end);
      last.rpcs.push(e);
    } else steps.push({ start: e.start, end: e.end, rpcs: [e] });
  }
  const firestoreMs = steps.reduce((s, x) => s + (x.end - x.start), 0);
  const byMethod = {};
  for (const e of sorted) byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
  const what = (e) => {
    const docs = e.method === 'commit' ? e.writes.map((w) => `${w.op} ${collectionOf(w.path)}`) : e.reads.map(collectionOf);
    const counted = Object.entries(docs.reduce((m, d) => ({ ...m, [d]: (m[d] ?? 0) + 1 }), {})).map(([d, n]) => (n > 1 ? `${n}× ${d}` : d));
    return `${e.method}${e.inTransaction ? ' (tx)' : ''}: ${counted.join(', ')}`;
  };
  return {
    rpcs: sorted.length,
    byMethod,
    sequentialSteps: steps.length,
    firestoreMs: r1(firestoreMs),
    otherMs: r1(totalMs - firestoreMs),
    timeline: steps.map((s) => ({ atMs: r1(s.start - started), ms: r1(s.end - s.start), rpcs: s.rpcs.map(what) })),
  };
}

/** Which part of the request a step belongs to, by the documents it touches. */
function phaseOf(step) {
  const text = step.rpcs.join(' ');
  if (/auth_sessions|users/.test(text)) return 'auth';
  if (/rate_limits/.test(text)) return 'rate limit';
  if (/idempotency_keys/.test(text)) return 'idempotency';
  return 'checkout';
}

/** The rounds' profiles as one: the median of each step (rounds with the usual sequence of steps), and per phase. */
export function aggregate(profiles) {
  const shape = (p) => p.timeline.map((s) => s.rpcs.join('|')).join('/');
  const counts = new Map();
  for (const p of profiles) counts.set(shape(p), (counts.get(shape(p)) ?? 0) + 1);
  const usual = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const alike = profiles.filter((p) => shape(p) === usual);
  const timeline = alike[0].timeline.map((step, i) => ({ rpcs: step.rpcs, ms: r1(median(alike.map((p) => p.timeline[i].ms))) }));
  const phases = {};
  for (const step of timeline) {
    step.phase = phaseOf(step);
    phases[step.phase] = { steps: (phases[step.phase]?.steps ?? 0) + 1, ms: r1((phases[step.phase]?.ms ?? 0) + step.ms) };
  }
  return {
    roundsAlike: alike.length,
    rpcs: alike[0].rpcs,
    byMethod: alike[0].byMethod,
    sequentialSteps: timeline.length,
    firestoreMs: r1(median(alike.map((p) => p.firestoreMs))),
    otherMs: r1(median(alike.map((p) => p.otherMs))),
    phases,
    timeline,
  };
}

/** Records every RPC from now until `stopRecording`, which answers them. */
export function startRecording() {
  recording = [];
}
export function stopRecording() {
  const rpcs = recording ?? [];
  recording = null;
  return rpcs;
}
