// The usage profile and the prices of the bench's cost model (scripts/bench/cost-model.mjs); every name in it is an
// operationId or a trigger handler (checked in functions/test/platform/cost-profile.unit.test.ts).
'use strict';

// Firestore Standard edition, USD per 100,000 documents; the free quota is per day (one free database per project).
// The multi-region list prices (nam5, eur3): the stored copies of the pricing page we could read stop before the
// asia-southeast1 row, and the regional rows they show are lower (Oregon 0.03 / 0.09 / 0.01, Los Angeles 0.036 /
// 0.108 / 0.012). Replace them with the live page's Singapore row for a production estimate.
const PRICES = {
  label: 'multi-region list prices (nam5, eur3), standing in for asia-southeast1',
  source: 'https://cloud.google.com/firestore/pricing',
  readsPer100k: 0.06,
  writesPer100k: 0.18,
  deletesPer100k: 0.02,
  freePerDay: { reads: 50_000, writes: 20_000, deletes: 20_000 },
};

// What 10,000 daily users do on a day, as flows of API operations and the trigger runs they cause (`trigger:<handler>`),
// each with its count per flow. A flow's `perUser` is how often one daily user goes through it. Client snapshot
// listeners are billed too (one read per document change they receive): `listened` counts them per flow.
const PROFILE = {
  dailyUsers: 10_000,
  flows: [
    {
      name: 'opening the app (token refresh, inbox, unread count)',
      perUser: 3,
      ops: { refreshTokens: 1, listMyNotifications: 1, getUnreadCount: 1 },
    },
    { name: 'password sign-in (a new device, a signed-out session)', perUser: 0.1, ops: { loginWithPassword: 1 } },
    {
      name: 'a ride (quote, request and assignment, arrival, pick-up, completion, rating; the status trigger each move)',
      perUser: 0.3,
      ops: { quoteRide: 2, createRide: 1, markDriverArrived: 1, pickUpRider: 1, completeRide: 1, rateDriver: 1, 'trigger:rideStatusChanged': 4 },
      listened: 10,
    },
    {
      name: 'a food order (menu, cart, wallet checkout, merchant and courier moves)',
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
        // The payment is written twice (held at checkout, captured at delivery): each write runs its handlers.
        'trigger:paymentStatusChanged': 2,
        'trigger:orderPaymentChanged': 2,
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
    // Drivers: 3 % of the daily users, online 6 hours, reporting every 5 s (the slowest rate the API asks for: 1–5 s).
    { name: 'a driver’s online hour (a position every 5 s)', perUser: 0.03 * 6, ops: { reportMyDriverLocation: 720 } },
    { name: 'the map tab (places nearby, a search)', perUser: 2, ops: { listNearbyPlaces: 1, searchPlaces: 0.5 } },
    { name: 'the wallet tab (balance, history) and vouchers', perUser: 1, ops: { getWalletBalance: 1, listWalletTransactions: 0.5, listAvailablePromotions: 0.3 } },
  ],
};

/** Every operation and trigger handler the profile names. */
const profileOperations = () => [...new Set(PROFILE.flows.flatMap((f) => Object.keys(f.ops)))].sort();

module.exports = { PRICES, PROFILE, profileOperations };
