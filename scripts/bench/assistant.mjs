// P16, the assistant: an answer to "where is my ride?" (POST /assistant/messages through the `api` function on the
// Functions emulator, offline provider: the intent rules, the caller's latest ride read as GET /rides answers it, the
// template, the question and answer written) p95 ÷ GET /rides/{id} of the same ride p95 (the nearest raw operation:
// one of the caller's records read through the same stack). Rounds alternate the two on several users (the
// assistant's rate limit is per user). Run by `npm run bench` inside `firebase emulators:exec`; writes its figures as
// JSON to the path given.
import fs from 'node:fs';
import { functionsRegion, PROJECT_ID } from '../lib/util.mjs';
import { createUser } from './realtime-accounts.mjs';
import { attempt, median, percentile, spread } from './stats.mjs';

const API = process.env.BENCH_API ?? `http://127.0.0.1:5001/${PROJECT_ID}/${functionsRegion()}/api/api/v1`;
const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const USERS = 8;
const ROUNDS = 64;
const WARMUP = 8;

async function apiJson(method, p, body, token, headers = {}) {
  const started = performance.now();
  const res = await fetch(`${API}${p}`, {
    method,
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  return { status: res.status, body: json, ms: performance.now() - started };
}

async function p16() {
  log(`P16: ${USERS} riders, each with a ride (no driver near: NO_DRIVER) …`);
  const riders = [];
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(apiJson, `bench-p16-${i}`);
    // A spot far from any driver of the other benches.
    const spot = { lat: 21.5 + i * 0.01, lng: 105.2 };
    const ride = await apiJson('POST', '/rides', { pickup: spot, dropoff: { lat: spot.lat + 0.02, lng: spot.lng }, vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' }, user.token, {
      'idempotency-key': `bench-p16-${i}-${Date.now()}`,
    });
    if (!ride.body.id) throw new Error(`ride ${ride.status}: ${JSON.stringify(ride.body)}`);
    riders.push({ ...user, rideId: ride.body.id });
  }
  const askMs = [];
  const getMs = [];
  const ratios = [];
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const rider = riders[r % USERS];
    // Alternate which goes first, so neither always meets a warmer emulator.
    const ask = () => apiJson('POST', '/assistant/messages', { text: 'Where is my ride?' }, rider.token);
    const get = () => apiJson('GET', `/rides/${rider.rideId}`, undefined, rider.token);
    const [a, g] = r % 2 === 0 ? [await ask(), await get()] : (([x, y]) => [y, x])([await get(), await ask()]);
    if (a.status !== 201 || a.body.answer.references[0]?.id !== rider.rideId) throw new Error(`answer ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
    if (g.status !== 200) throw new Error(`GET /rides/{id} ${g.status}`);
    if (r < WARMUP) continue;
    askMs.push(a.ms);
    getMs.push(g.ms);
    ratios.push(a.ms / g.ms);
    if ((r - WARMUP + 1) % 16 === 0) log(`P16 round ${r - WARMUP + 1}/${ROUNDS}`);
  }
  const r3 = (x) => Math.round(x * 1000) / 1000;
  return {
    users: USERS,
    rounds: ROUNDS,
    askP50Ms: Math.round(median(askMs)),
    askP95Ms: Math.round(percentile(askMs, 95)),
    getP50Ms: Math.round(median(getMs)),
    getP95Ms: Math.round(percentile(getMs, 95)),
    ratioP95: r3(percentile(askMs, 95) / percentile(getMs, 95)),
    ratioP50: r3(median(askMs) / median(getMs)),
    pairedSpread: spread(ratios),
  };
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
if (!only || only.includes('P16')) {
  const result = await attempt('P16', () => p16());
  fs.writeFileSync(out, JSON.stringify({ P16: result }, null, 2));
  log(`P16: assistant answer p95 ÷ GET /rides/{id} p95 = ${result.ratioP95 ?? result.error}×`);
} else fs.writeFileSync(out, JSON.stringify({}));
process.exit(0);
