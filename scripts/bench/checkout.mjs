// P13: POST /cart/checkout of a 10-line cart (WALLET) through the API in this process (the `api` function's Express
// app on a local port, as the integration tests run it) ÷ one Firestore transaction reading and writing the same
// documents the checkout wrote (copies under `bench_raw`, so no deployed trigger reacts to them and the books stay
// whole), p50 / p95 after warm-up rounds, the two taking turns going first. The documents are not guessed: every
// Firestore RPC of this process is recorded, so the report lists what one checkout wrote (from its commits) and its
// round trips in order, the profile behind the ratio. Then 50 consumers check out at once at one merchant (one item
// with 5 units too few): statuses and codes, no 5xx, no oversold unit, every refused hold given back, the ledger
// balanced. Run by `npm run bench` inside `firebase emulators:exec`; writes its figures as JSON to the path given.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir, PROJECT_ID } from '../lib/util.mjs';
import { createUser } from './realtime-accounts.mjs';
import { aggregate, contentionOf, recorded, startRecording, stopRecording } from './firestore-rpcs.mjs';
import { startApi, summaryOf, twinRounds } from './twin.mjs';
import { attempt, median, pairedSpread, percentile } from './stats.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { db } = lib('platform/core/firebase/firebase.js');
const { createCatalogService } = lib('platform/kits/catalog/catalog.service.js');
const { createCatalogItemsService } = lib('platform/kits/catalog/catalog.items.js');
const { catalogSchemas } = lib('platform/kits/catalog/catalog.routes.js');
const { merchantsCatalog } = lib('modules/merchants/merchants.catalog.js');
const { MerchantItemBodySchema } = lib('modules/merchants/merchants.schemas.js');
const { partnerCatalogDeps } = lib('modules/partners/index.js');
const { PARTNERS, PARTNER_MEMBERS } = lib('modules/partners/partners.model.js');
const { cartIdOf } = lib('modules/cart/cart.model.js');
const { ledgerRepo } = lib('modules/wallet/ledger.repo.js');
const { userAccount, systemAccount } = lib('modules/wallet/ledger.model.js');
const { checkLedger } = lib('modules/wallet/ledger.check.js');

const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const r1 = (x) => Math.round(x * 10) / 10;
const CENTER = { lat: 10.7769, lng: 106.7009 };
const DROPOFF = { location: { lat: CENTER.lat + 0.008, lng: CENTER.lng + 0.004 }, address: '72 Lê Thánh Tôn, Bến Nghé, Quận 1', recipientName: 'Bench', phone: '0901234567' };
const FUNDS = 5_000_000;
const WARMUP = 5;
// 80, not 40: the target is at p95, and the p95 of 40 is the third-highest round, so one slow round of either side
// moved the ratio (P13's raw p95 measured 14.7 and 23.4 ms in two runs of the same code, P14's 9.3 and 12.2).
const ROUNDS = 80;
const CROWD = 50;
const SCARCE_PER_CART = 2; // the crowd's carts' last line (quantities alternate 1, 2, …: the tenth takes 2)
const SCARCE = (CROWD - 5) * SCARCE_PER_CART; // units of the crowd's shared item: five buyers too many

// ---- Seeding: a partner's merchant and its menu through the merchants' seed path, consumers with money and carts. ----
const SIZE = { key: 'size', name: 'Cỡ tô', required: true, max: 1, choices: [{ key: 'thuong', name: 'Tô thường' }, { key: 'lon', name: 'Tô lớn', priceDeltaVnd: 10_000 }] };
const EXTRAS = { key: 'them', name: 'Thêm', max: 2, choices: [{ key: 'bo', name: 'Thêm bò', priceDeltaVnd: 15_000 }, { key: 'trung', name: 'Trứng chần', priceDeltaVnd: 5_000 }] };
const MENU = [
  ['pho-tai', 'Phở bò tái', 55_000, 'mon-chinh', [SIZE, EXTRAS]],
  ['bun-bo', 'Bún bò Huế', 50_000, 'mon-chinh', [SIZE]],
  ['com-tam', 'Cơm tấm sườn bì', 45_000, 'mon-chinh'],
  ['banh-mi', 'Bánh mì thịt', 25_000, 'mon-chinh'],
  ['goi-cuon', 'Gỏi cuốn tôm thịt', 30_000, 'mon-phu'],
  ['cha-gio', 'Chả giò', 35_000, 'mon-phu'],
  ['tra-da', 'Trà đá', 3_000, 'do-uong'],
  ['ca-phe-sua', 'Cà phê sữa đá', 29_000, 'do-uong'],
  ['nuoc-mia', 'Nước mía', 15_000, 'do-uong'],
  ['che-ba-mau', 'Chè ba màu', 20_000, 'trang-mieng'],
  ['banh-flan', 'Bánh flan', 15_000, 'trang-mieng'],
];
const LINE_OPTIONS = { 'pho-tai': [{ group: 'size', choices: ['lon'] }, { group: 'them', choices: ['bo', 'trung'] }], 'bun-bo': [{ group: 'size', choices: ['thuong'] }] };

/** `counted`: every item counts its stock (taken in the order's transaction), or only the scarce one (the others null). */
async function seedMerchant(owner, counted = 'all') {
  const t = Date.now();
  const partnerId = `bench-partner-${t.toString(36)}-${counted}`;
  // An approved partner as approval writes it (test/helpers/partners.ts does the same without the paper flow).
  await db().collection(PARTNERS).doc(partnerId).set({ ownerId: owner.id, businessName: 'Quán Bench', businessType: 'RESTAURANT', address: null, status: 'ACTIVE', applicationId: 'bench', createdAt: t, updatedAt: t, approvedAt: t });
  await db().collection(PARTNER_MEMBERS).doc(`${partnerId}_${owner.id}`).set({ partnerId, userId: owner.id, role: 'OWNER', email: null, addedBy: 'bench', createdAt: t });
  const caller = { userId: owner.id, roles: ['USER', 'PARTNER_OWNER'] };
  const records = createCatalogService(merchantsCatalog, { ...partnerCatalogDeps, now: Date.now });
  const items = createCatalogItemsService(merchantsCatalog.items, records, Date.now);
  const sections = [['mon-chinh', 'Món chính'], ['mon-phu', 'Món phụ'], ['do-uong', 'Đồ uống'], ['trang-mieng', 'Tráng miệng']].map(([key, name]) => ({ key, name }));
  const body = catalogSchemas(merchantsCatalog).body.parse({
    partnerId, name: 'Quán Bench Sài Gòn', category: 'FOOD', location: CENTER, address: '1 Công xã Paris, Bến Nghé, Quận 1',
    openingHours: { open24h: true }, deliveryRadiusM: 5_000, prepTimeMin: 15, minOrderVnd: 30_000, menuSections: sections,
  });
  const merchant = await records.create(caller, body);
  for (const [key, name, priceVnd, categoryKey, optionGroups = []] of MENU) {
    // The shared one is five carts short.
    const stock = key === 'banh-flan' ? SCARCE : counted === 'all' ? 100_000 : null;
    await items.put(merchant.id, key, caller, MerchantItemBodySchema.parse({ name, priceVnd, categoryKey, optionGroups, stock }));
  }
  log(`  merchant ${merchant.id} with ${MENU.length} items (${counted === 'all' ? 'all counted' : 'only banh-flan counted'}; banh-flan: ${SCARCE} units)`);
  return merchant.id;
}

/** `count` consumers signed in through the API, each with FUNDS in the wallet and a 10-line cart at the merchant. */
async function seedConsumers(apiJson, merchantId, count, tag, keys) {
  const consumers = [];
  const adjustments = systemAccount('platform_adjustments');
  for (let i = 0; i < count; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, count - i) }, async (_, k) => {
        const user = await createUser(apiJson, `bench-${tag}-${i + k}`);
        // Money as the ledger bench funds its payers: an adjustment from the platform's adjustments account.
        await db().runTransaction((tx) => ledgerRepo.post(tx, [{ kind: 'ADJUSTMENT', debit: adjustments, credit: userAccount('WALLET', user.id), amount: FUNDS, memo: 'bench float' }], { operationId: `bench-fund-${user.id}`, by: 'bench', now: Date.now() }));
        for (const [n, itemKey] of keys.entries()) {
          const line = { seller: { kind: 'MERCHANT', id: merchantId }, itemKey, quantity: 1 + (n % 2), ...(LINE_OPTIONS[itemKey] ? { options: LINE_OPTIONS[itemKey] } : {}) };
          // A 503 (the request's deadline on a busy machine) is sent again under the same key, as an app does.
          let added = await apiJson('POST', '/cart/items', line, user.token, { 'idempotency-key': `bench-${user.id}-${itemKey}` });
          for (let retry = 1; added.status === 503 && retry <= 5; retry++) {
            await new Promise((resolve) => setTimeout(resolve, 500 * retry));
            added = await apiJson('POST', '/cart/items', line, user.token, { 'idempotency-key': `bench-${user.id}-${itemKey}` });
          }
          if (added.status !== 201) throw new Error(`POST /cart/items ${added.status}: ${JSON.stringify(added.body)}`);
        }
        return user;
      }),
    );
    consumers.push(...batch);
    if (consumers.length % 10 === 0 || consumers.length === count) log(`  ${tag}: ${consumers.length}/${count} consumers signed in, funded, carts of ${keys.length} lines`);
  }
  return consumers;
}

const checkoutOf = (apiJson, merchantId, user, key) =>
  apiJson('POST', '/cart/checkout', { seller: { kind: 'MERCHANT', id: merchantId }, address: DROPOFF, payment: { method: 'WALLET' } }, user.token, { 'idempotency-key': key });

/** The rounds: a fresh consumer's checkout and the raw transaction of the documents a checkout wrote, in turns. */
async function measureRounds(api, merchantId, consumers) {
  const ref = { kind: 'MERCHANT', id: merchantId };
  const { requestMs, rawMs, profiles, template } = await twinRounds({
    rounds: consumers.length,
    warmup: WARMUP,
    gapMs: 400,
    request: async (r) => {
      const user = consumers[r];
      const deleted = (await db().collection('carts').doc(cartIdOf(user.id, ref)).get()).data();
      const res = await recorded(() => checkoutOf(api.apiJson, merchantId, user, `bench-round-${r}`));
      if (res.value.status !== 201) throw new Error(`POST /cart/checkout ${res.value.status}: ${JSON.stringify(res.value.body)}`);
      return { res, deleted };
    },
    onRound: (r, c, raw, t) =>
      log(`P13 ${r < WARMUP ? 'warm-up' : `round ${r - WARMUP + 1}/${ROUNDS}`}: checkout ${c.ms.toFixed(0)} ms (${c.rpcs.length} Firestore RPCs), raw transaction ${raw.toFixed(0)} ms (${t.length} docs)`),
  });
  return { checkouts: requestMs, raws: rawMs, profiles, template };
}

async function p13() {
  await wipe();
  const api = await startApi();
  try {
    log('P13: seeding a merchant (partner, 11 items with counted stock) through the merchants seed path …');
    const owner = await createUser(api.apiJson, 'bench-owner');
    const merchantId = await seedMerchant(owner);
    const roundKeys = MENU.slice(0, 10).map(([key]) => key);
    log(`P13: seeding ${WARMUP + ROUNDS} consumers for the rounds (wallet money through the ledger, 10-line carts through POST /cart/items) …`);
    const consumers = await seedConsumers(api.apiJson, merchantId, WARMUP + ROUNDS, 'round', roundKeys);
    const { checkouts, raws, profiles, template } = await measureRounds(api, merchantId, consumers);
    const profile = aggregate(profiles);
    const stats = (xs) => ({ p50Ms: r1(median(xs)), p95Ms: r1(percentile(xs, 95)), minMs: r1(Math.min(...xs)), maxMs: r1(Math.max(...xs)) });
    const checkout = stats(checkouts);
    const raw = stats(raws);
    const result = {
      lines: 10,
      warmup: WARMUP,
      rounds: ROUNDS,
      checkout,
      raw,
      ratioP50: +(checkout.p50Ms / raw.p50Ms).toFixed(2),
      ratioP95: +(checkout.p95Ms / raw.p95Ms).toFixed(2),
      // Each round's own ratio (the checkout and its twin side by side): what one busy moment does to both.
      spread: pairedSpread(checkouts, raws),
      documents: template.length,
      written: summaryOf(template),
      rawReads: template.length,
      profile,
    };
    log(`  checkout p50 ${checkout.p50Ms} ms, p95 ${checkout.p95Ms} ms (${checkout.minMs}–${checkout.maxMs}); raw transaction of the same ${template.length} documents p50 ${raw.p50Ms} ms, p95 ${raw.p95Ms} ms (${raw.minMs}–${raw.maxMs}) → ${result.ratioP50}× / ${result.ratioP95}×`);
    log(`  one checkout wrote: ${result.written.join('; ')}`);
    log(`  its Firestore round trips (medians over the ${ROUNDS} rounds): ${profile.sequentialSteps} sequential steps (${profile.rpcs} RPCs: ${JSON.stringify(profile.byMethod)}), ${profile.firestoreMs} ms waiting on Firestore, ${profile.otherMs} ms elsewhere; by phase: ${Object.entries(profile.phases).map(([k, v]) => `${k} ${v.steps} steps ${v.ms} ms`).join(', ')}`);
    for (const step of profile.timeline) log(`    ${step.ms} ms [${step.phase}]: ${step.rpcs.join(' | ')}`);

    result.concurrent = await crowd(api, merchantId, 'crowd');
    // The same crowd where only the short item counts its stock: one shared document in the order's transaction, not ten.
    if (!process.env.BENCH_P13_ONE_CROWD) result.concurrentOneCounted = await attempt('P13 crowd (one counted item)', async () => crowd(api, await seedMerchant(owner, 'scarce'), 'crowd1'));
    result.apiLogged = api.errors.length;
    return result;
  } finally {
    await api.close();
  }
}

/** Checkout claims still running (a request answered at its deadline goes on until it ends, then stores its answer). */
const running = async () => (await db().collection('idempotency_keys').where('state', '==', 'RUNNING').count().get()).data().count;
const tally = (answers) => {
  const statuses = {};
  const codes = {};
  for (const a of answers) {
    statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    if (a.code) codes[`${a.status} ${a.code}`] = (codes[`${a.status} ${a.code}`] ?? 0) + 1;
  }
  return { statuses, codes, fiveXx: answers.filter((a) => a.status >= 500).length };
};

/**
 * 50 consumers check out at once at the merchant; the last line of each cart is the item five carts short. The
 * first answers are what the apps see; a 503 at the request deadline leaves the checkout running, so after every
 * claim has ended each app's retry with its Idempotency-Key gets the outcome (the stored answer).
 */
async function crowd(api, merchantId, tag) {
  const keys = [...MENU.slice(0, 9).map(([key]) => key), 'banh-flan'];
  log(`P13: seeding ${CROWD} consumers for the ${tag} (10-line carts, the last line the item of ${SCARCE} units) …`);
  const consumers = await seedConsumers(api.apiJson, merchantId, CROWD, tag, keys);
  const flanStock = async () => (await db().collection(merchantsCatalog.items.collection).doc(`${merchantId}_banh-flan`).get()).get('stock');
  const before = await flanStock();
  log(`P13: ${CROWD} checkouts at once (banh-flan: ${before} units, ${SCARCE_PER_CART} per cart) …`);
  const errorsBefore = api.errors.length;
  startRecording();
  const started = performance.now();
  const send = (user, i) => checkoutOf(api.apiJson, merchantId, user, `bench-${tag}-${i}`);
  const answers = await Promise.all(
    consumers.map(async (user, i) => {
      const t0 = performance.now();
      const res = await send(user, i);
      return { status: res.status, code: res.status >= 400 ? res.body?.code : undefined, ms: performance.now() - t0 };
    }),
  );
  const wallMs = performance.now() - started;
  const contention = contentionOf(stopRecording());
  const logged = api.errors.slice(errorsBefore).map((e) => `${e.severity} ${e.message}`);
  const errorsLogged = Object.entries(logged.reduce((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {})).map(([x, n]) => `${n}× ${x}`);
  const first = tally(answers);
  const latencies = answers.map((a) => a.ms);
  log(`  ${CROWD} at once in ${Math.round(wallMs)} ms: ${JSON.stringify(first.statuses)} ${JSON.stringify(first.codes)}; 5xx: ${first.fiveXx}; p50 ${r1(median(latencies))} ms, p95 ${r1(percentile(latencies, 95))} ms`);
  log(`  meanwhile: ${contention.commits} commits (refused: ${JSON.stringify(contention.refused)}), ${contention.rollbacks} rollbacks, ${contention.reads} reads; API warnings and errors: ${errorsLogged.length ? errorsLogged.join('; ') : 'none'}`);
  let settledMs = wallMs;
  for (let n = await running(); n > 0; n = await running()) {
    if (performance.now() - started > 240_000) throw new Error(`${n} checkouts still running after 240 s`);
    await sleep(1_000);
    settledMs = performance.now() - started;
  }
  const retried = await Promise.all(consumers.map(async (user, i) => ({ user, res: await send(user, i) })));
  const outcome = retried.map(({ res }) => ({ status: res.status, code: res.status >= 400 ? res.body?.code : undefined, total: res.body?.payment?.amount }));
  const final = tally(outcome);
  const placed = outcome.filter((a) => a.status === 201).length;
  const after = await flanStock();
  // Each wallet: an order holds its total; a refused checkout has given its hold back.
  const balances = await ledgerRepo.balances(consumers.flatMap((u) => [userAccount('WALLET', u.id).id, userAccount('HELD', u.id).id]));
  const of = (id) => balances.find((b) => b.accountId === id)?.balance ?? 0;
  const walletsRight = retried.every(({ user }, i) => {
    const held = of(userAccount('HELD', user.id).id);
    const wallet = of(userAccount('WALLET', user.id).id);
    return outcome[i].status === 201 ? held === outcome[i].total && wallet === FUNDS - outcome[i].total : held === 0 && wallet === FUNDS;
  });
  const books = await checkLedger();
  const result = {
    consumers: CROWD,
    wallMs: Math.round(wallMs),
    ...first,
    p50Ms: r1(median(latencies)),
    p95Ms: r1(percentile(latencies, 95)),
    maxMs: r1(Math.max(...latencies)),
    contention,
    logged: errorsLogged,
    settledMs: Math.round(settledMs),
    outcome: final,
    scarceStock: { before, after, taken: before - after, orders: placed, perOrder: SCARCE_PER_CART },
    oversold: after < 0 || before - after !== placed * SCARCE_PER_CART,
    walletsRight,
    ledgerBalanced: books.ok,
  };
  log(`  every checkout ended ${Math.round(settledMs / 1000)} s after the start; retried with their keys: ${JSON.stringify(final.statuses)} ${JSON.stringify(final.codes)}`);
  log(`  banh-flan ${before} → ${after} (${placed} orders × ${SCARCE_PER_CART}); wallets right: ${walletsRight}; ledger balanced: ${books.ok}`);
  return result;
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
const results = !only || only.includes('P13') ? { P13: await attempt('P13', () => p13()) } : {};
if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
process.exit(0);
