// P14: the booking engine on the emulator. (a) GET /hotels/search for a 30-night stay in a city of 200 hotels (three
// room types each): p50 / p95 of one page, with the Firestore reads it took. (b) POST /hotels/bookings of a 3-night
// stay paid from the wallet, through the API in this process (auth, rate limit, idempotency, the hold's transaction
// over the inventory, the wallet charge, the securing transaction) ÷ one transaction reading and writing the same
// documents the booking wrote (copies under `bench_raw`), p50 / p95 after warm-up rounds, the two taking turns going
// first. Run by `npm run bench` inside `firebase emulators:exec`; writes its figures as JSON to the path given.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir, PROJECT_ID } from '../lib/util.mjs';
import { createUser } from './realtime-accounts.mjs';
import { aggregate, recorded } from './firestore-rpcs.mjs';
import { attempt, median, pairedSpread, percentile } from './stats.mjs';
import { startApi, summaryOf, twinRounds } from './twin.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { db } = lib('platform/core/firebase/firebase.js');
const { seedPartnerCatalog } = lib('platform/kits/catalog/catalog.seed.js');
const { hotelsCatalog } = lib('modules/hotels/hotels.catalog.js');
const { partnerCatalogDeps } = lib('modules/partners/index.js');
const { PARTNERS, PARTNER_MEMBERS } = lib('modules/partners/partners.model.js');
const { ledgerRepo } = lib('modules/wallet/ledger.repo.js');
const { userAccount, systemAccount } = lib('modules/wallet/ledger.model.js');

const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });
const r1 = (x) => Math.round(x * 10) / 10;
const stats = (xs) => ({ p50Ms: r1(median(xs)), p95Ms: r1(percentile(xs, 95)), minMs: r1(Math.min(...xs)), maxMs: r1(Math.max(...xs)) });
const CENTER = { lat: 10.7769, lng: 106.7009 };
const HOTELS = 200;
const NIGHTS = 30;
const STAY = 3;
const SEARCH_ROUNDS = 30;
const WARMUP = 5;
// 80, not 40: the target is at p95, and the p95 of 40 is the third-highest round, so one slow round of either side
// moved the ratio (P13's raw p95 measured 14.7 and 23.4 ms in two runs of the same code, P14's 9.3 and 12.2).
const ROUNDS = 80;
const FUNDS = 20_000_000;
const dayAfter = (days) => new Date(Date.now() + 7 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

/** 200 hotels of the bench partner in Hồ Chí Minh City, within about 6 km, each with three room types, through the hotels' seed path. */
async function seedHotels(owner) {
  const t = Date.now();
  const partnerId = `bench-hotels-${t.toString(36)}`;
  await db().collection(PARTNERS).doc(partnerId).set({ ownerId: owner.id, businessName: 'Bench Hotels', businessType: 'HOTEL', address: null, status: 'ACTIVE', applicationId: 'bench', createdAt: t, updatedAt: t, approvedAt: t });
  await db().collection(PARTNER_MEMBERS).doc(`${partnerId}_${owner.id}`).set({ partnerId, userId: owner.id, role: 'OWNER', email: null, addedBy: 'bench', createdAt: t });
  const rows = Array.from({ length: HOTELS }, (_, i) => ({
    id: `bench-hotel-${String(i).padStart(3, '0')}`,
    fields: {
      name: `Khách sạn Bench ${i}`,
      location: { lat: CENTER.lat + (((i * 37) % 100) - 50) / 1_000, lng: CENTER.lng + (((i * 53) % 100) - 50) / 1_000 },
      address: `${i + 1} Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh`,
      city: 'HO_CHI_MINH',
      stars: 2 + (i % 4),
    },
    items: [
      { key: 'standard', name: 'Standard Double', rooms: 10, maxGuests: 2, beds: [{ type: 'DOUBLE', count: 1 }], rates: { weekdayVnd: 600_000 + (i % 20) * 50_000 } },
      { key: 'deluxe', name: 'Deluxe Twin', rooms: 6, maxGuests: 2, beds: [{ type: 'TWIN', count: 2 }], rates: { weekdayVnd: 900_000, weekendVnd: 1_100_000 } },
      { key: 'family', name: 'Family Suite', rooms: 2, maxGuests: 4, beds: [{ type: 'KING', count: 1 }], rates: { weekdayVnd: 1_800_000 } },
    ],
  }));
  const ctx = { fixtures: { DEMO_PARTNER: { id: partnerId, userId: owner.id } }, now: Date.now(), log: () => undefined };
  for (let i = 0; i < HOTELS; i += 20) {
    await Promise.all(rows.slice(i, i + 20).map((row) => seedPartnerCatalog({ ...ctx, now: Date.now() }, 'hotels', hotelsCatalog, partnerCatalogDeps, [row])));
    if ((i + 20) % 100 === 0) log(`  ${i + 20}/${HOTELS} hotels with 3 room types`);
  }
  return rows.map((r) => r.id);
}

async function measureSearch(api, user) {
  const q = `/hotels/stays/search?city=HO_CHI_MINH&checkIn=${dayAfter(10)}&checkOut=${dayAfter(10 + NIGHTS)}&guests=2&limit=20`;
  const times = [];
  let profile;
  for (let r = 0; r < WARMUP + SEARCH_ROUNDS; r++) {
    const res = await recorded(() => api.apiJson('GET', q, undefined, user.token));
    if (res.value.status !== 200) throw new Error(`GET /hotels/search ${res.value.status}: ${JSON.stringify(res.value.body)}`);
    if (r >= WARMUP) times.push(res.ms);
    profile ??= { hotels: res.value.body.items.length, rpcs: res.rpcs.length, docsRead: res.rpcs.reduce((n, e) => n + e.reads.length, 0) };
  }
  const s = stats(times);
  log(`  search of ${NIGHTS} nights over ${HOTELS} hotels: p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms (${s.minMs}–${s.maxMs}); a page of ${profile.hotels} hotels, ${profile.rpcs} RPCs, ${profile.docsRead} documents read`);
  return { hotels: HOTELS, nights: NIGHTS, rounds: SEARCH_ROUNDS, warmup: WARMUP, ...s, page: profile };
}

/** Consumers with money in the wallet (an adjustment from the platform's account, as the ledger bench funds payers). */
async function seedConsumers(api, count) {
  const adjustments = systemAccount('platform_adjustments');
  const consumers = [];
  for (let i = 0; i < count; i += 5) {
    consumers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(5, count - i) }, async (_, k) => {
          const user = await createUser(api.apiJson, `bench-guest-${i + k}`);
          await db().runTransaction((tx) => ledgerRepo.post(tx, [{ kind: 'ADJUSTMENT', debit: adjustments, credit: userAccount('WALLET', user.id), amount: FUNDS, memo: 'bench float' }], { operationId: `bench-fund-${user.id}`, by: 'bench', now: Date.now() }));
          return user;
        }),
      )),
    );
  }
  log(`  ${count} guests signed in and funded`);
  return consumers;
}

async function measureBookings(api, hotelIds, consumers) {
  const { requestMs: books, rawMs: raws, profiles, template } = await twinRounds({
    rounds: consumers.length,
    warmup: WARMUP,
    gapMs: 300,
    request: async (r) => {
      // Each round its own hotel and dates: no round waits on another's inventory.
      const body = { hotelId: hotelIds[r % hotelIds.length], roomTypeId: 'standard', checkIn: dayAfter(40 + r), checkOut: dayAfter(40 + r + STAY), guests: 2, payment: { method: 'WALLET' } };
      const res = await recorded(() => api.apiJson('POST', '/hotels/bookings', body, consumers[r].token, { 'idempotency-key': `bench-stay-${r}` }));
      if (res.value.status !== 201 || res.value.body.booking.status !== 'CONFIRMED') throw new Error(`POST /hotels/bookings ${res.value.status}: ${JSON.stringify(res.value.body)}`);
      return { res, deleted: undefined };
    },
    onRound: (r, b, raw, t) => r % 10 === 9 && log(`  booking round ${r + 1}/${consumers.length}: ${b.ms.toFixed(0)} ms (${b.rpcs.length} RPCs), raw transaction ${raw.toFixed(0)} ms (${t.length} docs)`),
  });
  const booking = stats(books);
  const raw = stats(raws);
  const profile = aggregate(profiles);
  return {
    nights: STAY,
    warmup: WARMUP,
    rounds: ROUNDS,
    booking,
    raw,
    ratioP50: +(booking.p50Ms / raw.p50Ms).toFixed(2),
    ratioP95: +(booking.p95Ms / raw.p95Ms).toFixed(2),
    spread: pairedSpread(books, raws),
    documents: template.length,
    written: summaryOf(template),
    profile,
  };
}

async function p14() {
  await wipe();
  const api = await startApi();
  try {
    const owner = await createUser(api.apiJson, 'bench-hotelier');
    log(`P14: seeding ${HOTELS} hotels through the hotels' seed path …`);
    const hotelIds = await seedHotels(owner);
    const [searcher] = await seedConsumers(api, 1);
    const search = await measureSearch(api, searcher);
    log(`P14: ${WARMUP + ROUNDS} stays of ${STAY} nights booked from the wallet, each beside one transaction of the same documents …`);
    const consumers = await seedConsumers(api, WARMUP + ROUNDS);
    const booking = await measureBookings(api, hotelIds, consumers);
    log(`  booking p50 ${booking.booking.p50Ms} ms, p95 ${booking.booking.p95Ms} ms; raw p50 ${booking.raw.p50Ms} ms, p95 ${booking.raw.p95Ms} ms → ${booking.ratioP50}× / ${booking.ratioP95}×; one booking wrote ${booking.written.join('; ')}`);
    return { search, ...booking, apiLogged: api.errors.length };
  } finally {
    await api.close();
  }
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
const results = !only || only.includes('P14') ? { P14: await attempt('P14', () => p14()) } : {};
if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
