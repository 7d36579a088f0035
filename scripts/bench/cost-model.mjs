// The cost model of `npm run bench`: Firestore documents read, written and deleted per day for a stated usage
// profile, from the counts `npm test` measured per operation (scripts/cost-check.mjs writes them), and the month's
// price at Firestore's list prices in asia-southeast1. docs/deploying.md's estimate is this table.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../lib/util.mjs';

// Firestore Standard edition, USD per 100,000 documents; the free quota is per day (one free database per project).
// The stored copies of the pricing page we could read stop before the Singapore row: these are the multi-region list
// prices (nam5, eur3), which regional locations do not exceed on the rows we could read (Oregon 0.03 / 0.09 / 0.01,
// Los Angeles 0.036 / 0.108 / 0.012). An upper estimate: take asia-southeast1's row from the live page.
export const PRICES = {
  region: 'asia-southeast1 (priced at the multi-region list prices, an upper estimate)',
  source: 'https://cloud.google.com/firestore/pricing (read 2026-11-29)',
  readsPer100k: 0.06,
  writesPer100k: 0.18,
  deletesPer100k: 0.02,
  freePerDay: { reads: 50_000, writes: 20_000, deletes: 20_000 },
};

const DAYS_PER_MONTH = 30;

// What 10,000 daily users do on a day, as flows of API operations and the trigger and task runs they cause, each with
// its count per flow. A flow's `perUser` is how often one daily user goes through it. Client snapshot listeners are
// billed too (one read per document change they receive): `listened` counts, per flow, the changes someone listens to.
export const PROFILE = {
  dailyUsers: 10_000,
  flows: [
    {
      name: 'opening the app (token refresh, inbox, unread count)',
      perUser: 3,
      ops: { refreshTokens: 1, listMyNotifications: 1, getUnreadCount: 1 },
    },
    { name: 'password sign-in (a new device, a signed-out session)', perUser: 0.1, ops: { loginWithPassword: 1 } },
    {
      name: 'a ride (quote, request, driver accepts, picks up, completes, rating; status trigger each move)',
      perUser: 0.3,
      ops: { quoteRide: 2, createRide: 1, markDriverArrived: 1, pickUpRider: 1, completeRide: 1, rateDriver: 1, 'trigger:rideStatusChanged': 4 },
      listened: 10,
    },
    {
      name: 'a food order (menu, cart, checkout, merchant and courier moves)',
      perUser: 0.2,
      ops: {
        listNearbyMerchants: 1,
        getMerchantMenu: 2,
        addCartItem: 3,
        quoteCart: 1,
        checkoutCart: 1,
        confirmOrder: 1,
        startPreparingOrder: 1,
        markOrderReady: 1,
        pickUpOrder: 1,
        deliverOrder: 1,
        'trigger:orderStatusChanged': 6,
        'trigger:paymentStatusChanged': 1,
        'trigger:orderPaymentChanged': 1,
        'trigger:bookingPaymentChanged': 1,
      },
      listened: 12,
    },
    {
      name: 'a hotel booking (search, book with the wallet)',
      perUser: 0.02,
      ops: { searchHotelStays: 3, bookHotelStay: 1, 'trigger:bookingStatusChanged': 1 },
      listened: 2,
    },
    {
      name: 'chat (a message sent, read by the other member)',
      perUser: 10,
      ops: { sendMessage: 1, markConversationRead: 0.5, listMessages: 0.3, 'trigger:chatMessageCreated': 1 },
      listened: 2,
    },
    // Drivers: 3 % of the daily users, online 6 hours, reporting their position every 10 s (the driver app's rate).
    { name: 'a driver’s online hour (a position every 10 s)', perUser: 0.03 * 6, ops: { reportMyDriverLocation: 360 } },
    { name: 'the map tab (places nearby, a search)', perUser: 2, ops: { listNearbyPlaces: 1, searchPlaces: 0.5 } },
    { name: 'the wallet tab (balance, history) and vouchers', perUser: 1, ops: { getWalletBalance: 1, listWalletTransactions: 0.5, listAvailablePromotions: 0.3 } },
  ],
};

/** The per-operation counts of the last `npm test` (its cost check's report), else the budgets (upper bounds). */
export function measuredOperations() {
  const report = path.join(repoRoot, '.cache', 'test-results', 'cost-check.json');
  if (fs.existsSync(report)) {
    const { operations } = JSON.parse(fs.readFileSync(report, 'utf8'));
    if (Array.isArray(operations) && operations.length > 0) {
      const at = fs.statSync(report).mtime.toISOString();
      return {
        source: `median calls measured by npm test (${operations.length} operations, ${at})`,
        perCall: Object.fromEntries(operations.map((o) => [o.op, { reads: o.reads.p50, writes: o.writes.p50, deletes: o.deletes.p50, maxReads: o.reads.max, maxWrites: o.writes.max, calls: o.calls }])),
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
  return [
    `| flow (${thousands(model.dailyUsers)} daily users) | per user a day | documents per flow (reads / writes / deletes) | per day |`,
    '|---|---|---|---|',
    ...rows,
    `| **all** | | | **${thousands(model.perDay.reads)} / ${thousands(model.perDay.writes)} / ${thousands(model.perDay.deletes)}** |`,
    '',
    `A month (30 days): ${thousands(model.perMonth.reads)} reads, ${thousands(model.perMonth.writes)} writes, ${thousands(model.perMonth.deletes)} deletes → **US$${model.monthUsd.total}** at ${model.prices.region} list prices (US$${model.prices.readsPer100k} / ${model.prices.writesPer100k} / ${model.prices.deletesPer100k} per 100,000 reads / writes / deletes, after the daily free quota; reads US$${model.monthUsd.reads}, writes US$${model.monthUsd.writes}, deletes US$${model.monthUsd.deletes}). Counts: ${model.source}; a listener's read per change it receives is counted in the flows (rides, orders, chat).${model.missing.length ? ` Not measured, left out: ${model.missing.map((m) => `\`${m}\``).join(', ')}.` : ''}`,
  ].join('\n');
}
