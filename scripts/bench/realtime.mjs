// P3, P4, P6 and chat's P7/P8: run by `npm run bench` inside `firebase emulators:exec` (Firestore, Auth, Functions,
// Hosting, Tasks). Writes its figures as JSON to the path given as the first argument.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir, functionsRegion, PROJECT_ID } from '../lib/util.mjs';
import { attempt, median, pairedSpread, percentile, spread } from './stats.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { db } = lib('platform/core/firebase/firebase.js');
const { createHub } = lib('modules/notifications/hub.js');
const { createBroadcast, runBroadcast } = lib('modules/notifications/broadcast.job.js');
const { outboxTransport } = lib('platform/core/push/transport.js');
const { asWritten } = lib('platform/kits/i18n/messages.js');
const { CHAT_TEXTS } = lib('modules/chat/chat.texts.js');
// The chat module's rows of the event table (chat.message) register when its events file loads.
lib('modules/chat/chat.events.js');
const { initializeApp, deleteApp } = require('firebase/app');
const { connectAuthEmulator, getAuth, signInWithCustomToken } = require('firebase/auth');
const { collection, connectFirestoreEmulator, getFirestore, onSnapshot, query, where, terminate } = require('firebase/firestore');

// The function's own URL: the Hosting emulator's extra proxy hop is not part of what is measured.
const API = process.env.BENCH_API ?? `http://127.0.0.1:5001/${PROJECT_ID}/${functionsRegion()}/api/api/v1`;
const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });

async function batchedWrite(collectionName, docs) {
  const chunks = [];
  for (let i = 0; i < docs.length; i += 500) chunks.push(docs.slice(i, i + 500));
  await Promise.all(chunks.map((chunk) => {
    const batch = db().batch();
    for (const d of chunk) batch.set(db().collection(collectionName).doc(d.id), d.data);
    return batch.commit();
  }));
}

// P3: the hub's dispatch of N inbox notifications (ids, payloads, idempotent creates, push decisions)
// vs a raw batched write of the same N documents. The admin.broadcast job (reads its audience page by
// page, saves its cursor after each) is measured alongside for information.
const BROADCAST_ROUNDS = 5;
async function p3(n, measured = 30) {
  const hub = createHub({ transport: outboxTransport() });
  const rounds = [];
  let template = [];
  // One warm-up round (first-use costs of both paths), then an even number of measured rounds; hub and raw
  // take turns going first, as often each, so neither meets the emulator right after the other's writes
  // more often (with 9 rounds the hub went second five times). 30, not 10 or 20: single rounds here move by up to
  // 3x (two 10-round runs of the same code measured 0.91x and 1.30x at N = 1,000), and at N = 5,000 the quartiles of
  // 20 rounds spanned 0.75-1.49x within one run, the median of 20 crossing 1.2x in two of five full runs (1.28x,
  // 1.22x) where the others measured 1.07-1.16x.
  for (let r = 0; r <= measured; r += 1) {
    await wipe();
    const users = Array.from({ length: n }, (_, i) => ({ id: `bench-u${String(i).padStart(5, '0')}`, data: { roles: ['USER'], hats: ['CON'], disabled: false, email: null, name: 'Bench' } }));
    await batchedWrite('users', users);
    const entityId = `bench-${r}`;
    const timeHub = async () => {
      const t0 = performance.now();
      const reports = await hub.dispatch({ event: 'admin.broadcast', recipients: users.map((u) => ({ userId: u.id, surface: 'CON' })), entityId, text: asWritten({ title: 'Bench', body: 'dispatch' }) });
      const ms = performance.now() - t0;
      const inboxItems = reports.filter((x) => x.inbox).length;
      if (inboxItems !== n) throw new Error(`dispatch wrote ${inboxItems} of ${n}`);
      return ms;
    };
    const timeRaw = async () => {
      // The documents the hub wrote in the warm-up round (re-keyed), so only the hub's own work differs.
      const raw = template.map((d) => ({ id: `raw-${r}-${d.id}`, data: d.data }));
      const t0 = performance.now();
      await batchedWrite('raw_notifications', raw);
      return performance.now() - t0;
    };
    let hubMs;
    let rawMs;
    if (r === 0) {
      hubMs = await timeHub();
      template = (await db().collection('app_notifications').where('entityId', '==', entityId).get()).docs.map((d) => ({ id: d.id, data: d.data() }));
      rawMs = await timeRaw();
    } else if (r % 2 === 0) {
      hubMs = await timeHub();
      rawMs = await timeRaw();
    } else {
      rawMs = await timeRaw();
      hubMs = await timeHub();
    }
    // The broadcast job in the first rounds only: each run writes N more documents, and the hub's device count is a
    // query, which slows with everything the emulator has stored (docs/benchmarks.md), the raw write's batch not.
    let broadcastMs;
    if (r <= BROADCAST_ROUNDS) {
      const t2 = performance.now();
      const { broadcast } = await createBroadcast('bench-admin', { title: 'Bench', body: 'broadcast', surfaces: ['CON'] }, `bench-b${r}-${Date.now()}`, Date.now());
      await runBroadcast(broadcast.id, { hub });
      broadcastMs = performance.now() - t2;
      const written = (await db().collection('app_notifications').where('entityId', '==', broadcast.id).count().get()).data().count;
      if (written !== n) throw new Error(`broadcast wrote ${written} of ${n}`);
    }
    const label = r === 0 ? 'warm-up' : `round ${r}/${measured} (${r % 2 === 0 ? 'hub first' : 'raw first'})`;
    log(`P3 N=${n} ${label}: dispatch ${hubMs.toFixed(0)} ms, raw ${rawMs.toFixed(0)} ms${broadcastMs === undefined ? '' : `, broadcast with audience read ${broadcastMs.toFixed(0)} ms`}`);
    if (r > 0) rounds.push({ hubMs, rawMs, broadcastMs });
  }
  const hubMs = median(rounds.map((x) => x.hubMs));
  const rawMs = median(rounds.map((x) => x.rawMs));
  // The broadcast against the raw writes of the same rounds.
  const withBroadcast = rounds.filter((x) => x.broadcastMs !== undefined);
  const broadcastMs = median(withBroadcast.map((x) => x.broadcastMs));
  const broadcastRawMs = median(withBroadcast.map((x) => x.rawMs));
  // The target's ratio is the median of each round's own (hub and raw back to back under the same emulator state): a
  // round the machine slowed slows both; the ratio of the two medians is kept for information.
  const paired = rounds.map((x) => x.hubMs / x.rawMs);
  return {
    n,
    rounds: measured,
    hubMedianMs: Math.round(hubMs),
    rawMedianMs: Math.round(rawMs),
    ratio: Math.round(median(paired) * 1000) / 1000,
    ratioOfMedians: Math.round((hubMs / rawMs) * 1000) / 1000,
    spread: spread(paired),
    broadcastRounds: withBroadcast.length,
    broadcastMedianMs: Math.round(broadcastMs),
    broadcastRawMedianMs: Math.round(broadcastRawMs),
    broadcastRatio: Math.round((broadcastMs / broadcastRawMs) * 1000) / 1000,
  };
}

// A client signed in as a bench user through the API's custom token (it carries the session the rules check).
async function clientFor(user) {
  const minted = await apiJson('POST', '/auth/firebase-token', undefined, user.token);
  if (minted.status !== 200) throw new Error(`POST /auth/firebase-token answered ${minted.status}`);
  return clientWithToken(minted.body.token);
}

// Resolves with the arrival time of the next added realtime event matching `accept`.
function listen(firestore, uid, onEvent) {
  let ready;
  let failed;
  const readyPromise = new Promise((r, reject) => ((ready = r), (failed = reject)));
  // A refused listener fails the measurement instead of waiting for events that never come.
  const stop = onSnapshot(
    query(collection(firestore, 'realtime_events'), where('recipientId', '==', uid)),
    (snap) => {
      ready();
      for (const change of snap.docChanges()) if (change.type === 'added' && !snap.metadata.fromCache) onEvent(change.doc, performance.now());
    },
    (err) => failed(err),
  );
  return { stop, ready: readyPromise };
}

async function apiJson(method, p, body, token) {
  const res = await fetch(`${API}${p}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
}

// P4: POST /chat/calls → hub → realtime doc → callee's snapshot, vs a direct admin write → snapshot.
async function p4(rounds = 15) {
  await wipe();
  const { createUser } = await import('./realtime-accounts.mjs');
  const caller = await createUser(apiJson, 'caller');
  const callee = await createUser(apiJson, 'callee');
  const { app, firestore } = await clientFor(callee);
  const arrivals = new Map();
  // Keyed by the call a ring is about (or the direct write's id), so nothing else that arrives counts.
  const sub = listen(firestore, callee.id, (doc, at) => arrivals.set(doc.data().data?.callId ?? doc.id, at));
  await sub.ready;
  const waitFor = async (predicate) => {
    for (let i = 0; i < 400; i += 1) {
      const hit = [...arrivals.entries()].find(([id]) => predicate(id));
      if (hit) return hit[1];
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error('event never arrived');
  };
  const api = [];
  const direct = [];
  for (let r = 0; r < rounds + 3; r += 1) {
    arrivals.clear();
    const t0 = performance.now();
    const started = await apiJson('POST', '/chat/calls', { calleeId: callee.id }, caller.token);
    if (started.status !== 201) throw new Error(`POST /chat/calls answered ${started.status}`);
    const arrived = await waitFor((x) => x === started.body.id);
    await apiJson('POST', `/chat/calls/${started.body.id}/cancel`, undefined, caller.token);
    arrivals.clear();
    const id = `direct-${r}`;
    const t1 = performance.now();
    await db().collection('realtime_events').doc(id).set({ recipientId: callee.id, type: 'call:ring', payload: {}, createdAt: new Date() });
    const directArrived = await waitFor((x) => x === id);
    if (r >= 3) {
      api.push(arrived - t0);
      direct.push(directArrived - t1);
    }
  }
  sub.stop();
  await terminate(firestore);
  await deleteApp(app);
  const apiP50 = median(api);
  const directP50 = median(direct);
  log(`P4: API → snapshot p50 ${apiP50.toFixed(1)} ms, direct write → snapshot p50 ${directP50.toFixed(1)} ms`);
  return { rounds, apiP50Ms: Math.round(apiP50 * 10) / 10, directP50Ms: Math.round(directP50 * 10) / 10, ratio: Math.round((apiP50 / directP50) * 1000) / 1000, spread: pairedSpread(api, direct) };
}

// P6: p95 delivery latency of one dispatch (a group chat message, message:new) to 100 listeners against its nearest
// raw operation, a direct batched write of the same events to the same listeners, in paired rounds (one of each, the
// order alternating). Every listener is its own signed-in client instance listening to its own realtime events, as an
// app does (README). 100 ÷ 1 listener is reported too, through the hub and direct: the emulator serves listeners one by
// one in the commit, so that ratio measures the emulator (docs/benchmarks.md, "Reading the figures").
async function p6(listeners = 100) {
  await wipe();
  const hub = createHub({ transport: outboxTransport() });
  const measure = async (count, rounds) => {
    // Signed-in accounts with API sessions: the rules let a listener read its own events only in a live session.
    const { createUser } = await import('./realtime-accounts.mjs');
    const accounts = [];
    for (let i = 0; i < count; i += 10) accounts.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, k) => createUser(apiJson, `bench-l${count}-${i + k}`)))));
    const users = accounts.map((a) => a.id);
    const clients = [];
    for (let i = 0; i < count; i += 10) clients.push(...(await Promise.all(accounts.slice(i, i + 10).map(clientFor))));
    const arrivals = new Map();
    const subs = clients.map((c, i) => listen(c.firestore, users[i], (doc, at) => arrivals.set(`${users[i]}/${doc.data().data?.round}`, at)));
    await Promise.all(subs.map((s) => s.ready));
    // One delivery: the latency of each listener.
    const deliver = async (round, send) => {
      const sentAt = performance.now();
      await send(round);
      for (let i = 0; i < 6000 && !users.every((u) => arrivals.has(`${u}/${round}`)); i += 1) await new Promise((res) => setTimeout(res, 5));
      const heard = users.filter((u) => arrivals.has(`${u}/${round}`));
      if (heard.length < count) throw new Error(`only ${heard.length}/${count} listeners heard ${round}`);
      return users.map((u) => arrivals.get(`${u}/${round}`) - sentAt);
    };
    const viaHub = (round) =>
      hub.dispatch({ event: 'chat.message', recipients: users.map((userId) => ({ userId, surface: 'CON' })), entityId: `group-${count}`, conversationId: `group-${count}`, occurrence: round, text: CHAT_TEXTS.text('chat.message', { sender: 'Bench', group: 'Group', preview: { text: 'hello' } }), realtimeData: { round } }); // as a member's message: each recipient's language read, one getAll
    const direct = async (round) => {
      const batch = db().batch();
      for (const u of users) batch.create(db().collection('realtime_events').doc(), { recipientId: u, type: 'message:new', payload: {}, data: { round }, createdAt: new Date() });
      await batch.commit();
    };
    // Paired rounds after two warm-up pairs, the order alternating so neither always follows the other.
    const all = { hub: [], direct: [] };
    const roundRatios = [];
    for (let r = 0; r < rounds + 2; r += 1) {
      const order = r % 2 ? ['direct', 'hub'] : ['hub', 'direct'];
      const got = {};
      for (const label of order) got[label] = await deliver(`${label}-${r}`, label === 'hub' ? viaHub : direct);
      if (r < 2) continue;
      all.hub.push(...got.hub);
      all.direct.push(...got.direct);
      roundRatios.push(percentile(got.hub, 95) / percentile(got.direct, 95));
    }
    subs.forEach((s) => s.stop());
    await Promise.all(clients.map(async (c) => { await terminate(c.firestore); await deleteApp(c.app); }));
    return { viaHub: percentile(all.hub, 95), direct: percentile(all.direct, 95), roundRatios };
  };
  const one = await measure(1, 20);
  const many = await measure(listeners, 8);
  log(`P6: p95 delivery through the hub ${many.viaHub.toFixed(1)} ms to ${listeners} listeners vs ${one.viaHub.toFixed(1)} ms to 1; direct writes ${many.direct.toFixed(1)} ms vs ${one.direct.toFixed(1)} ms`);
  const r1 = (x) => Math.round(x * 10) / 10;
  const r3 = (x) => Math.round(x * 1000) / 1000;
  return {
    listeners,
    p95OneMs: r1(one.viaHub),
    p95ManyMs: r1(many.viaHub),
    // The target's ratio: the hub against the direct write at 100 listeners, the median paired round's (as P2 and P3),
    // with the spread of the rounds; the pooled p95s' ratio beside it.
    ratio: r3(median(many.roundRatios)),
    pooledRatio: r3(many.viaHub / many.direct),
    spread: spread(many.roundRatios),
    hubManyOverOne: r3(many.viaHub / one.viaHub),
    directP95OneMs: r1(one.direct),
    directP95ManyMs: r1(many.direct),
    directRatio: r3(many.direct / one.direct),
  };
}

// A client signed in with a custom token (one minted by the API carries the session id the rules check).
async function clientWithToken(customToken) {
  const app = initializeApp({ projectId: PROJECT_ID, apiKey: 'demo-key' }, `bench-${Math.random()}`);
  const auth = getAuth(app);
  connectAuthEmulator(auth, `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}`, { disableWarnings: true });
  const firestore = getFirestore(app);
  const [host, port] = process.env.FIRESTORE_EMULATOR_HOST.split(':');
  connectFirestoreEmulator(firestore, host, Number(port));
  await signInWithCustomToken(auth, customToken);
  return { app, firestore };
}

const until = async (probe, what, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 2));
  }
};

// P7 (chat): POST /chat/conversations/{id}/messages → the other member's snapshot listener on the messages, vs a
// direct write of a message document → the same listener. P8 (chat): the POST → the CHAT_MESSAGE inbox item
// (the message trigger's path: counters, then the hub), seen by the recipient's inbox listener.
// 40 rounds, not 20: the target is at p95, which of 20 is the second-highest round.
async function chatLatency(rounds = 40, warmup = 3) {
  await wipe();
  const { createUser } = await import('./realtime-accounts.mjs');
  const a = await createUser(apiJson, 'chat-a');
  const b = await createUser(apiJson, 'chat-b');
  const conversation = await apiJson('POST', '/chat/conversations', { type: 'DIRECT', userId: b.id }, a.token);
  if (conversation.status !== 201) throw new Error(`POST /chat/conversations answered ${conversation.status}`);
  const id = conversation.body.id;
  const minted = await apiJson('POST', '/auth/firebase-token', undefined, b.token);
  const { app, firestore } = await clientWithToken(minted.body.token);
  const seen = new Map();
  let inboxAt;
  let ready = 0;
  const stopMessages = onSnapshot(collection(firestore, `conversations/${id}/messages`), (snap) => {
    ready |= 1;
    for (const change of snap.docChanges()) if (change.type === 'added') seen.set(change.doc.id, performance.now());
  });
  const stopInbox = onSnapshot(query(collection(firestore, 'app_notifications'), where('recipientId', '==', b.id)), (snap) => {
    ready |= 2;
    if (snap.docChanges().some((c) => c.type === 'added')) inboxAt = performance.now();
  });
  await until(async () => (ready === 3 ? true : undefined), 'the listeners');
  const api = [];
  const direct = [];
  const trigger = [];
  // Each timed write starts on a quiet emulator: the message trigger (fan-out, then the hub) of the previous write
  // runs for a while after its listener fired, and would otherwise land on whichever write comes next.
  const settle = () => new Promise((r) => setTimeout(r, 250));
  for (let r = 0; r < rounds + warmup; r += 1) {
    await settle();
    inboxAt = undefined;
    const t0 = performance.now();
    const sent = await apiJson('POST', `/chat/conversations/${id}/messages`, { type: 'TEXT', text: `bench ${r}` }, a.token);
    if (sent.status !== 201) throw new Error(`POST …/messages answered ${sent.status}`);
    const heard = await until(async () => seen.get(sent.body.id), 'the message at the listener');
    const notified = await until(async () => inboxAt, 'the CHAT_MESSAGE item');
    const directId = `direct-${r}`;
    await settle();
    const t1 = performance.now();
    // Marked fanned out and deleted, so its trigger moves no counters and notifies nobody (no inbox item to
    // confuse P8); the listener sees it like any message.
    await db().collection(`conversations/${id}/messages`).doc(directId).set({ id: directId, conversationId: id, senderId: a.id, type: 'TEXT', text: 'direct', createdAt: new Date(), deleted: true, fannedOut: true, counted: false });
    const directHeard = await until(async () => seen.get(directId), 'the direct write at the listener');
    if (r >= warmup) {
      api.push(heard - t0);
      trigger.push(notified - t0);
      direct.push(directHeard - t1);
    }
  }
  stopMessages();
  stopInbox();
  await terminate(firestore);
  await deleteApp(app);
  const r1 = (x) => Math.round(x * 10) / 10;
  const p7 = { rounds, apiP50Ms: r1(median(api)), apiP95Ms: r1(percentile(api, 95)), directP50Ms: r1(median(direct)), directP95Ms: r1(percentile(direct, 95)) };
  p7.ratioP50 = Math.round((p7.apiP50Ms / p7.directP50Ms) * 1000) / 1000;
  p7.ratioP95 = Math.round((p7.apiP95Ms / p7.directP95Ms) * 1000) / 1000;
  p7.spread = pairedSpread(api, direct);
  const p8 = { rounds, p50Ms: r1(median(trigger)), p95Ms: r1(percentile(trigger, 95)) };
  log(`P7 (chat): POST → listener p50 ${p7.apiP50Ms} ms / p95 ${p7.apiP95Ms} ms; direct write p50 ${p7.directP50Ms} ms / p95 ${p7.directP95Ms} ms`);
  log(`P8 (chat): POST → CHAT_MESSAGE inbox item p50 ${p8.p50Ms} ms / p95 ${p8.p95Ms} ms`);
  return { P7chat: p7, P8chat: p8 };
}

// Writes of one message in a group of 100: the message, the trigger's mark on it, and the member views it moved
// (each document's update time after the message's creation); the hub's inbox items and realtime events apart.
async function groupMessageWrites(members = 100) {
  await wipe();
  const { createUser } = await import('./realtime-accounts.mjs');
  const owner = await createUser(apiJson, 'chat-owner');
  const others = Array.from({ length: members - 1 }, (_, i) => ({ id: `bench-member-${i}`, data: { name: `Member ${i}`, roles: ['USER'], hats: ['CON'], disabled: false, createdAt: Date.now() } }));
  await batchedWrite('users', others);
  // Members who let others add them directly (the default is an invitation to accept first).
  await batchedWrite('chat_preferences', others.map((o) => ({ id: o.id, data: { userId: o.id, groupAdds: 'DIRECT', updatedAt: Date.now() } })));
  const group = await apiJson('POST', '/chat/conversations', { type: 'GROUP', title: 'Bench 100', memberIds: others.map((o) => o.id) }, owner.token);
  if (group.status !== 201) throw new Error(`POST /chat/conversations (group) answered ${group.status}`);
  const id = group.body.id;
  const sent = await apiJson('POST', `/chat/conversations/${id}/messages`, { type: 'TEXT', text: 'hello, everyone' }, owner.token);
  const ref = db().collection(`conversations/${id}/messages`).doc(sent.body.id);
  const created = await until(async () => {
    const snap = await ref.get();
    return snap.get('fannedOut') === true ? snap.createTime : undefined;
  }, 'the fan-out');
  const views = await db().collection('chat_memberships').where('conversationId', '==', id).get();
  const movedViews = views.docs.filter((d) => d.updateTime.toMillis() >= created.toMillis()).length;
  const hubItems = await until(async () => {
    const n = (await db().collection('app_notifications').where('entityId', '==', id).count().get()).data().count;
    return n >= members - 1 ? n : undefined;
  }, 'the inbox items');
  const chatWrites = 2 + movedViews;
  log(`group of ${members}: ${chatWrites} chat writes per message (message, its fan-out mark, ${movedViews} member views); hub: ${hubItems} inbox items`);
  return { members, chatWrites, memberViews: movedViews, hubInboxItems: hubItems, limit: members + 3, pass: chatWrites <= members + 3 };
}


const out = process.argv[2];
const results = { P3: [] };
const only = process.env.BENCH_ONLY?.split(",");
const wanted = (k) => !only || only.includes(k);
// P3 last: the others write a few thousand documents, P3 about 600,000 over its two sizes (its hub's device count
// slows with what the emulator has stored, and so would P6's listeners after it).
if (wanted("P4")) results.P4 = await attempt('P4', () => p4());
if (wanted("P6")) results.P6 = await attempt('P6', () => p6());
if (wanted("chat")) {
  const chat = await attempt('P7/P8 (chat)', () => chatLatency());
  Object.assign(results, chat.error ? { P7chat: chat, P8chat: chat } : chat);
  results.chatGroupWrites = await attempt('group message writes', () => groupMessageWrites());
}
if (wanted("P3")) for (const n of [1000, 5000]) results.P3.push(await attempt(`P3 N=${n}`, () => p3(n)));
fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
