import fs from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, setLogLevel, Timestamp, updateDoc, where } from 'firebase/firestore';
import { META, PUSH_OUTBOX, RATE_LIMIT_COLLECTION } from '../../src/platform/kits/firestore/collections';
import { USERS, USER_EMAILS } from '../../src/modules/users/users.model';
import { AUTH_LOCKS, AUTH_OTPS, AUTH_SESSIONS, USER_IDENTITIES } from '../../src/modules/auth/auth.model';
import { INBOX, PREFERENCES, PRESENCE, PUSH_DEVICES, PUSH_TOKENS, REALTIME } from '../../src/modules/notifications/notifications.collections';
import { CALLS, CALL_LINES, CHAT_BLOCKS, CHAT_MEMBERSHIPS, CHAT_REPORTS, CONVERSATIONS, MESSAGES } from '../../src/modules/chat/chat.collections';
import { ADJUSTMENTS, LEDGER_ACCOUNTS, LEDGER_TRANSFERS, STAFF_TOTALS, WITHDRAWALS } from '../../src/modules/wallet/wallet.collections';
import { PAYMENTS, STAFF_REFUNDS } from '../../src/modules/payments/payments.collections';
import { EVENTS } from '../../src/platform/kits/state-machine/state-machine';
import { DRIVER_RATINGS, RIDER_RATINGS, RIDES, RIDE_DRIVER_RATINGS, RIDE_RIDER_RATINGS } from '../../src/modules/rides/rides.collections';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from '../../src/modules/driver/driver.collections';
import { ORDERS, ORDER_HANDOVERS, ORDER_RATINGS } from '../../src/modules/orders/orders.collections';
import { SCHOOL_FOLLOW_UPS, SCHOOL_TRIP_PLANS, SCHOOL_TRIPS } from '../../src/modules/schools/schools.collections';
import { APPLICATIONS, KYC_PAPERS } from '../../src/modules/kyc/applications.model';
import { PARTNERS, PARTNER_MEMBERS } from '../../src/modules/partners/partners.model';
import { PLACES } from '../../src/modules/places/places.collections';
import { PHARMACY_PRODUCTS } from '../../src/modules/pharmacy/pharmacy.collections';
import { PARKING_LOTS } from '../../src/modules/parking/parking.collections';
import { ADDRESSES } from '../../src/modules/addresses/addresses.model';
import { FAVORITES } from '../../src/modules/favorites/favorites.model';
import { REVIEWS } from '../../src/modules/reviews/reviews.model';
import { APP_CONFIG, CMS_AUDIT, CMS_BANNERS } from '../../src/modules/cms/cms.collections';
import { PROMOTIONS, PROMOTION_REDEMPTIONS, PROMOTION_SHARDS, PROMOTION_USAGE } from '../../src/modules/promotions/promotions.model';

// Denied writes are expected here; keep the client SDK's warnings out of the output.
setLogLevel('error');

let env: RulesTestEnvironment;

const HOUR_MS = 3600_000;
// A client signed in with a custom token of a live API session (the `sid` claim POST /auth/firebase-token sets).
const client = (uid: string, sid = `s-${uid}`) => env.authenticatedContext(uid, { sid }).firestore();
const liveSession = (userId: string, extra: Record<string, unknown> = {}) => ({
  userId,
  revokedAt: null,
  createdAt: Date.now() - HOUR_MS,
  expireAt: Timestamp.fromMillis(Date.now() + 24 * HOUR_MS),
  ...extra,
});

// Loading the rules and the fixtures takes 1–2 s on a quiet machine; a busy one (a CI beside other work) needed more
// than jest's 5 s default, failing every test of the file.
beforeAll(async () => {
  const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080').split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-superapp-rules',
    firestore: { host, port: Number(port), rules: fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firestore.rules'), 'utf8') },
  });
  await env.withSecurityRulesDisabled(async (ctx) => {
    await setDoc(doc(ctx.firestore(), `${META}/seed`), { version: 1 });
    await setDoc(doc(ctx.firestore(), 'private/thing'), { secret: true });
    await setDoc(doc(ctx.firestore(), `${USERS}/alice`), { email: 'alice@example.com', passwordHash: '$2b$10$x', roles: ['USER'], disabled: false });
    await setDoc(doc(ctx.firestore(), `${USERS}/bob`), { roles: ['USER'], disabled: false });
    await setDoc(doc(ctx.firestore(), `${USERS}/carol`), { roles: ['USER'], disabled: false });
    // dave: locked by an administrator; erin: reset her password after her session started.
    await setDoc(doc(ctx.firestore(), `${USERS}/dave`), { roles: ['USER'], disabled: true });
    await setDoc(doc(ctx.firestore(), `${USERS}/erin`), { roles: ['USER'], disabled: false, sessionsValidAfter: Date.now() - 60_000 });
    await setDoc(doc(ctx.firestore(), `${AUTH_SESSIONS}/s1`), { userId: 'alice' });
    for (const uid of ['alice', 'bob', 'carol', 'dave', 'erin']) await setDoc(doc(ctx.firestore(), `${AUTH_SESSIONS}/s-${uid}`), liveSession(uid));
    await setDoc(doc(ctx.firestore(), `${AUTH_SESSIONS}/s-alice-revoked`), liveSession('alice', { revokedAt: Date.now() - 1000, revokeReason: 'logout' }));
    await setDoc(doc(ctx.firestore(), `${AUTH_SESSIONS}/s-alice-expired`), liveSession('alice', { expireAt: Timestamp.fromMillis(Date.now() - 1000) }));
    await setDoc(doc(ctx.firestore(), `${AUTH_SESSIONS}/s-erin-new`), liveSession('erin', { createdAt: Date.now() }));
    await setDoc(doc(ctx.firestore(), `${INBOX}/n-dave`), { recipientId: 'dave', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), `${INBOX}/n-erin`), { recipientId: 'erin', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), `${REALTIME}/e-erin`), { recipientId: 'erin', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), `${AUTH_OTPS}/LOGIN:abc`), { userId: 'alice', codeHmac: 'h' });
    await setDoc(doc(ctx.firestore(), `${INBOX}/n-alice`), { recipientId: 'alice', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), `${INBOX}/n-bob`), { recipientId: 'bob', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), `${REALTIME}/e-alice`), { recipientId: 'alice', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), `${REALTIME}/e-bob`), { recipientId: 'bob', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), `${PREFERENCES}/alice`), { push: true });
    await setDoc(doc(ctx.firestore(), `${PREFERENCES}/bob`), { push: true });
    await setDoc(doc(ctx.firestore(), `${CALLS}/c1`), { participants: ['alice', 'bob'], status: 'RINGING' });
    await setDoc(doc(ctx.firestore(), `${CALLS}/c-erin`), { participants: ['erin', 'bob'], status: 'RINGING' });
    // Chat: alice and bob in a direct conversation; a group alice owns that carol was removed from; bob blocks carol.
    await setDoc(doc(ctx.firestore(), `${CONVERSATIONS}/dm1`), { type: 'DIRECT', memberIds: ['alice', 'bob'] });
    await setDoc(doc(ctx.firestore(), `${CONVERSATIONS}/dm1/${MESSAGES}/m1`), { id: 'm1', senderId: 'alice', type: 'TEXT', text: 'hi', createdAt: 1 });
    await setDoc(doc(ctx.firestore(), `${CONVERSATIONS}/g1`), { type: 'GROUP', memberIds: ['alice', 'bob'], ownerId: 'alice' });
    await setDoc(doc(ctx.firestore(), `${CONVERSATIONS}/g1/${MESSAGES}/m2`), {
      id: 'm2',
      senderId: 'carol',
      type: 'TEXT',
      text: 'before removal',
      createdAt: 1,
    });
    await setDoc(doc(ctx.firestore(), `${CHAT_MEMBERSHIPS}/dm1_alice`), { conversationId: 'dm1', userId: 'alice', unreadCount: 0 });
    await setDoc(doc(ctx.firestore(), `${CHAT_MEMBERSHIPS}/dm1_bob`), { conversationId: 'dm1', userId: 'bob', unreadCount: 1 });
    await setDoc(doc(ctx.firestore(), `${CHAT_BLOCKS}/bob_carol`), { blockerId: 'bob', blockedId: 'carol', createdAt: 1 });
    // Wallet: alice pays bob 5,000; her top-up; a platform account; bob's withdrawal.
    await setDoc(doc(ctx.firestore(), `${LEDGER_ACCOUNTS}/wallet_alice`), { type: 'WALLET', ownerId: 'alice', balance: 95_000, reserved: 0 });
    await setDoc(doc(ctx.firestore(), `${LEDGER_ACCOUNTS}/wallet_bob`), { type: 'WALLET', ownerId: 'bob', balance: 5_000, reserved: 0 });
    await setDoc(doc(ctx.firestore(), `${LEDGER_ACCOUNTS}/payouts_transit`), { type: 'SYSTEM', ownerId: null, balance: 0, reserved: 0 });
    await setDoc(doc(ctx.firestore(), `${LEDGER_ACCOUNTS}/platform_revenue/ledger_shards/0`), { balance: 100 });
    await setDoc(doc(ctx.firestore(), `${LEDGER_TRANSFERS}/t1-0`), {
      kind: 'P2P',
      debit: 'wallet_alice',
      credit: 'wallet_bob',
      amount: 5_000,
      owners: ['alice', 'bob'],
      at: 1,
    });
    await setDoc(doc(ctx.firestore(), `${LEDGER_TRANSFERS}/t2-0`), {
      kind: 'TOPUP',
      debit: 'clearing_MOCK',
      credit: 'wallet_alice',
      amount: 100_000,
      owners: ['alice'],
      at: 0,
    });
    await setDoc(doc(ctx.firestore(), `${PAYMENTS}/p1`), { payerId: 'alice', status: 'SUCCEEDED', amount: 100_000 });
    await setDoc(doc(ctx.firestore(), `${WITHDRAWALS}/w1`), { userId: 'bob', status: 'PENDING', amount: 50_000 });
    // Staff ids live only where staff read: the owner's records say STAFF (review finding 4).
    await setDoc(doc(ctx.firestore(), `${WITHDRAWALS}/w2`), { userId: 'bob', status: 'APPROVED', amount: 50_000, decidedBy: 'STAFF' });
    await setDoc(doc(ctx.firestore(), `${WITHDRAWALS}/w2/${EVENTS}/e1`), { action: 'approve', by: 'admin-1', at: 1 });
    await setDoc(doc(ctx.firestore(), `${ADJUSTMENTS}/a1`), { userId: 'bob', requestedBy: 'admin-1', status: 'APPLIED' });
    await setDoc(doc(ctx.firestore(), `${STAFF_TOTALS}/user_bob_2026-01-01`), { moved: 1 });
    await setDoc(doc(ctx.firestore(), `${STAFF_REFUNDS}/R1`), { payerId: 'bob', requestedBy: 'admin-1', status: 'PENDING' });
    // Rides: alice rides with driver bob; carol is a driver with no ride.
    await setDoc(doc(ctx.firestore(), `${RIDES}/r1`), { riderId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'CONFIRMED' });
    await setDoc(doc(ctx.firestore(), `${DRIVER_LOCATIONS}/bob`), { userId: 'bob', lat: 10.77, lng: 106.7, currentRideId: 'r1', riderId: 'alice' });
    await setDoc(doc(ctx.firestore(), `${DRIVER_LOCATIONS}/carol`), { userId: 'carol', lat: 10.78, lng: 106.71, currentRideId: null, riderId: null });
    await setDoc(doc(ctx.firestore(), `${RIDE_RIDER_RATINGS}/r1`), { rideId: 'r1', riderId: 'alice', driverId: 'bob', stars: 2, comment: 'late' });
    await setDoc(doc(ctx.firestore(), `${RIDER_RATINGS}/alice`), { count: 1, sum: 2, average: 2 });
    await setDoc(doc(ctx.firestore(), `${RIDE_DRIVER_RATINGS}/r1`), { rideId: 'r1', riderId: 'alice', driverId: 'bob', stars: 1, comment: 'rude', ratedAt: 1 });
    await setDoc(doc(ctx.firestore(), `${DRIVER_RATINGS}/bob`), { count: 1, sum: 1, average: 1 });
    // Orders: alice ordered, courier bob delivers it; carol (say, the store's staff) reads it through the API only.
    await setDoc(doc(ctx.firestore(), `${ORDERS}/o1`), { consumerId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'PICKED_UP' });
    await setDoc(doc(ctx.firestore(), `${SCHOOL_TRIP_PLANS}/sp1`), { parentId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'MATCHED' });
    await setDoc(doc(ctx.firestore(), `${SCHOOL_TRIPS}/st1`), { parentId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'EN_ROUTE' });
    await setDoc(doc(ctx.firestore(), `${SCHOOL_FOLLOW_UPS}/l1`), { consumerId: 'alice', partnerId: 'p1', status: 'FOLLOWING_UP' });
    await setDoc(doc(ctx.firestore(), `${ORDER_HANDOVERS}/o1`), { code: '1234', attempts: 0 });
    await setDoc(doc(ctx.firestore(), `${ORDER_RATINGS}/o1`), { orderId: 'o1', consumerId: 'alice', driverId: 'bob', store: { stars: 5 } });
    await setDoc(doc(ctx.firestore(), `${APP_CONFIG}/CON`), { surface: 'CON', version: 3, minVersion: '2.0.0', flags: { wallet: true } });
    await setDoc(doc(ctx.firestore(), `${CMS_BANNERS}/b1`), { status: 'DRAFT', draft: { title: { vi: 'Sắp ra mắt', en: 'Coming soon' } } });
    await setDoc(doc(ctx.firestore(), `${CMS_AUDIT}/a1`), { kind: 'banner', entityId: 'b1', by: 'admin-1', action: 'CREATE' });
  });
}, 30_000);

afterAll(async () => {
  await env.cleanup();
});

describe('firestore.rules', () => {
  it('a signed-in user reads platform metadata', async () => {
    await assertSucceeds(getDoc(doc(env.authenticatedContext('alice').firestore(), `${META}/seed`)));
  });

  it('an anonymous client cannot read platform metadata', async () => {
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), `${META}/seed`)));
  });

  it('nobody writes platform metadata from a client', async () => {
    await assertFails(setDoc(doc(env.authenticatedContext('alice', { roles: ['ADMIN'] }).firestore(), `${META}/seed`), { version: 2 }));
  });

  // The app config is read before sign-in (minimum version, maintenance): anyone reads it, nobody writes it.
  it('anyone reads the live app config, signed in or not; nobody writes it; the drafts and the audit trail stay closed', async () => {
    await assertSucceeds(getDoc(doc(env.unauthenticatedContext().firestore(), `${APP_CONFIG}/CON`)));
    await assertSucceeds(getDocs(collection(env.unauthenticatedContext().firestore(), APP_CONFIG)));
    await assertSucceeds(getDoc(doc(env.authenticatedContext('alice').firestore(), `${APP_CONFIG}/CON`)));
    await assertFails(setDoc(doc(env.unauthenticatedContext().firestore(), `${APP_CONFIG}/CON`), { minVersion: '0.0.0' }));
    await assertFails(updateDoc(doc(env.authenticatedContext('alice', { roles: ['ADMIN'] }).firestore(), `${APP_CONFIG}/CON`), { flags: {} }));
    await assertFails(deleteDoc(doc(env.authenticatedContext('alice').firestore(), `${APP_CONFIG}/CON`)));
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), `${CMS_BANNERS}/b1`)));
    await assertFails(getDoc(doc(env.authenticatedContext('alice', { roles: ['ADMIN'] }).firestore(), `${CMS_AUDIT}/a1`)));
  });

  it('default deny: any other path is closed to reads and writes', async () => {
    const alice = env.authenticatedContext('alice').firestore();
    await assertFails(getDoc(doc(alice, 'private/thing')));
    await assertFails(setDoc(doc(alice, `${USERS}/alice`), { roles: ['ADMIN'] }));
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), 'private/thing')));
  });

  // Accounts hold password hashes; sessions, codes and identities are the API's alone (firebase-admin).
  it.each([
    `${USERS}/alice`,
    `${AUTH_SESSIONS}/s1`,
    `${AUTH_OTPS}/LOGIN:abc`,
    `${USER_EMAILS}/alice@example.com`,
    `${USER_IDENTITIES}/google:1`,
    `${AUTH_LOCKS}/alice`,
    `${RATE_LIMIT_COLLECTION}/x`,
    `${APPLICATIONS}/a1`,
    `${KYC_PAPERS}/p1`,
    `${DRIVER_PROFILES}/alice`,
    `${PARTNERS}/p1`,
    `${PARTNER_MEMBERS}/p1_alice`,
    // The map tab is API only: catalogs (their moderation state and managers), a user's addresses, favorites and
    // reviews, and vouchers with their use counters.
    `${PLACES}/p1`,
    `${PHARMACY_PRODUCTS}/s1_SKU`,
    `${PARKING_LOTS}/l1`,
    `${ADDRESSES}/a1`,
    `${FAVORITES}/alice_PLACE_p1`,
    `${REVIEWS}/PLACE_p1_alice`,
    `${PROMOTIONS}/v1`,
    `${PROMOTIONS}/v1/${PROMOTION_SHARDS}/0`,
    `${PROMOTION_USAGE}/v1_alice`,
    `${PROMOTION_REDEMPTIONS}/r1`,
  ])('even the owner cannot read or write %s from a client', async (p) => {
    const alice = env.authenticatedContext('alice').firestore();
    await assertFails(getDoc(doc(alice, p)));
    await assertFails(setDoc(doc(alice, p), { userId: 'alice', roles: ['ADMIN'] }));
  });

  describe('notification hub documents', () => {
    it('a user reads and lists only their own inbox items, realtime events and preferences', async () => {
      const alice = client('alice');
      await assertSucceeds(getDoc(doc(alice, `${INBOX}/n-alice`)));
      await assertFails(getDoc(doc(alice, `${INBOX}/n-bob`)));
      await assertSucceeds(getDocs(query(collection(alice, INBOX), where('recipientId', '==', 'alice'))));
      await assertFails(getDocs(collection(alice, INBOX)));
      await assertSucceeds(getDocs(query(collection(alice, REALTIME), where('recipientId', '==', 'alice'))));
      await assertFails(getDoc(doc(alice, `${REALTIME}/e-bob`)));
      await assertSucceeds(getDoc(doc(alice, `${PREFERENCES}/alice`)));
      await assertFails(getDoc(doc(alice, `${PREFERENCES}/bob`)));
      await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), `${INBOX}/n-alice`)));
    });

    it('clients never write them (marking read goes through the API)', async () => {
      const alice = client('alice');
      await assertFails(updateDoc(doc(alice, `${INBOX}/n-alice`), { read: true }));
      await assertFails(setDoc(doc(alice, `${INBOX}/new`), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, `${REALTIME}/new`), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, `${PREFERENCES}/alice`), { push: false }));
    });

    it('presence: only your own member doc, with a fresh expiry at most 2 minutes ahead', async () => {
      const alice = client('alice');
      const soon = () => Timestamp.fromMillis(Date.now() + 60_000);
      await assertSucceeds(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: soon(), updatedAt: Timestamp.now() }));
      await assertSucceeds(getDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`)));
      await assertFails(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/bob`), { expiresAt: soon() }));
      await assertFails(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: Timestamp.fromMillis(Date.now() + 3_600_000) }));
      await assertFails(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: Timestamp.fromMillis(Date.now() - 1000) }));
      await assertFails(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: soon(), roles: ['ADMIN'] }));
      // Times in listened documents are Timestamps: an epoch-ms heartbeat is refused.
      await assertFails(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: soon(), updatedAt: Date.now() }));
      await assertSucceeds(setDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`), { expiresAt: soon() }));
      await assertFails(getDoc(doc(client('bob'), `${PRESENCE}/chat_c1/members/alice`)));
      await assertSucceeds(deleteDoc(doc(alice, `${PRESENCE}/chat_c1/members/alice`)));
    });

    it('presence: a heartbeat to a legacy document (epoch-ms updatedAt) passes unless it writes updatedAt as a number', async () => {
      const alice = client('alice');
      const soon = () => Timestamp.fromMillis(Date.now() + 60_000);
      const ref = doc(alice, `${PRESENCE}/ride_r1/members/alice`);
      await env.withSecurityRulesDisabled((ctx) =>
        setDoc(doc(ctx.firestore(), `${PRESENCE}/ride_r1/members/alice`), { expiresAt: soon(), updatedAt: Date.now() - 30_000 }),
      );
      // The app's heartbeat: only expiresAt changes, the legacy updatedAt stays as it was.
      await assertSucceeds(updateDoc(ref, { expiresAt: soon() }));
      // Changing updatedAt: only to a Timestamp.
      await assertFails(updateDoc(ref, { expiresAt: soon(), updatedAt: Date.now() }));
      await assertSucceeds(updateDoc(ref, { expiresAt: soon(), updatedAt: Timestamp.now() }));
      await assertFails(updateDoc(ref, { expiresAt: soon(), updatedAt: Date.now() }));
      // A whole-document write that drops it passes; one that creates with a number does not.
      await assertSucceeds(setDoc(ref, { expiresAt: soon() }));
      await assertSucceeds(deleteDoc(ref));
      await assertFails(setDoc(ref, { expiresAt: soon(), updatedAt: Date.now() }));
    });

    it('calls: participants read the call, nobody else; no client writes', async () => {
      await assertSucceeds(getDoc(doc(client('alice'), `${CALLS}/c1`)));
      await assertSucceeds(getDoc(doc(client('bob'), `${CALLS}/c1`)));
      await assertFails(getDoc(doc(client('carol'), `${CALLS}/c1`)));
      await assertFails(updateDoc(doc(client('alice'), `${CALLS}/c1`), { status: 'ACTIVE' }));
    });

    describe('chat', () => {
      it('members read the conversation and its messages, listing them live', async () => {
        for (const uid of ['alice', 'bob']) {
          await assertSucceeds(getDoc(doc(client(uid), `${CONVERSATIONS}/dm1`)));
          await assertSucceeds(getDocs(collection(client(uid), `${CONVERSATIONS}/dm1/${MESSAGES}`)));
        }
      });
      it('a non-member reads neither the conversation nor its messages', async () => {
        await assertFails(getDoc(doc(client('carol'), `${CONVERSATIONS}/dm1`)));
        await assertFails(getDoc(doc(client('carol'), `${CONVERSATIONS}/dm1/${MESSAGES}/m1`)));
        await assertFails(getDocs(collection(client('carol'), `${CONVERSATIONS}/dm1/${MESSAGES}`)));
      });
      it('a removed member no longer reads the group, not even their own old message', async () => {
        await assertFails(getDoc(doc(client('carol'), `${CONVERSATIONS}/g1`)));
        await assertFails(getDoc(doc(client('carol'), `${CONVERSATIONS}/g1/${MESSAGES}/m2`)));
        await assertSucceeds(getDoc(doc(client('alice'), `${CONVERSATIONS}/g1/${MESSAGES}/m2`)));
      });
      it('a member reads only their own membership (unread count, markers); a locked member nothing', async () => {
        await assertSucceeds(getDoc(doc(client('bob'), `${CHAT_MEMBERSHIPS}/dm1_bob`)));
        await assertSucceeds(getDocs(query(collection(client('bob'), CHAT_MEMBERSHIPS), where('userId', '==', 'bob'))));
        await assertFails(getDoc(doc(client('bob'), `${CHAT_MEMBERSHIPS}/dm1_alice`)));
        await assertFails(getDocs(collection(client('bob'), CHAT_MEMBERSHIPS)));
        await assertFails(getDoc(doc(client('bob', 's-alice-revoked'), `${CHAT_MEMBERSHIPS}/dm1_bob`)));
      });
      it('a blocked user cannot see who blocks them; the blocker sees their own block', async () => {
        await assertFails(getDoc(doc(client('carol'), `${CHAT_BLOCKS}/bob_carol`)));
        await assertFails(getDocs(query(collection(client('carol'), CHAT_BLOCKS), where('blockedId', '==', 'carol'))));
        await assertSucceeds(getDoc(doc(client('bob'), `${CHAT_BLOCKS}/bob_carol`)));
      });
      it('nobody writes chat documents from a client (sending goes through the API)', async () => {
        const alice = client('alice');
        await assertFails(setDoc(doc(alice, `${CONVERSATIONS}/dm1/${MESSAGES}/forged`), { senderId: 'alice', type: 'TEXT', text: 'x', createdAt: 2 }));
        await assertFails(updateDoc(doc(alice, `${CONVERSATIONS}/dm1`), { memberIds: ['alice', 'bob', 'carol'] }));
        await assertFails(setDoc(doc(client('carol'), `${CONVERSATIONS}/dm2`), { memberIds: ['carol'] }));
        await assertFails(updateDoc(doc(client('bob'), `${CHAT_MEMBERSHIPS}/dm1_bob`), { unreadCount: 0 }));
        await assertFails(deleteDoc(doc(client('bob'), `${CHAT_BLOCKS}/bob_carol`)));
        await assertFails(getDoc(doc(alice, `${CHAT_REPORTS}/r1`)));
      });
    });

    describe('wallet and payments', () => {
      it('each user reads their own wallet, transfers, payments and withdrawals, live', async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, `${LEDGER_ACCOUNTS}/wallet_alice`)));
        await assertSucceeds(getDocs(query(collection(alice, LEDGER_TRANSFERS), where('owners', 'array-contains', 'alice'))));
        await assertSucceeds(getDoc(doc(bob, `${LEDGER_TRANSFERS}/t1-0`)));
        await assertSucceeds(getDocs(query(collection(alice, PAYMENTS), where('payerId', '==', 'alice'))));
        await assertSucceeds(getDoc(doc(bob, `${WITHDRAWALS}/w1`)));
        await assertFails(getDoc(doc(carol, `${LEDGER_ACCOUNTS}/wallet_alice`)));
        await assertFails(getDoc(doc(carol, `${LEDGER_TRANSFERS}/t1-0`)));
        await assertFails(getDoc(doc(bob, `${LEDGER_TRANSFERS}/t2-0`)));
        await assertFails(getDocs(collection(bob, LEDGER_TRANSFERS)));
        await assertFails(getDoc(doc(bob, `${PAYMENTS}/p1`)));
        await assertFails(getDoc(doc(alice, `${WITHDRAWALS}/w1`)));
        await assertFails(getDoc(doc(alice, `${LEDGER_ACCOUNTS}/payouts_transit`)));
        await assertFails(getDoc(doc(alice, `${LEDGER_ACCOUNTS}/platform_revenue/ledger_shards/0`)));
        await assertFails(getDoc(doc(client('dave'), `${LEDGER_ACCOUNTS}/wallet_dave`)));
      });

      it('staff ids stay where only staff read: the owner reads STAFF on a withdrawal, never its events, adjustments, staff totals or staff refund requests', async () => {
        const bob = client('bob');
        expect((await assertSucceeds(getDoc(doc(bob, `${WITHDRAWALS}/w2`)))).get('decidedBy')).toBe('STAFF');
        await assertFails(getDoc(doc(bob, `${WITHDRAWALS}/w2/${EVENTS}/e1`)));
        await assertFails(getDocs(collection(bob, `${WITHDRAWALS}/w2/${EVENTS}`)));
        await assertFails(getDoc(doc(bob, `${ADJUSTMENTS}/a1`)));
        await assertFails(getDocs(query(collection(bob, ADJUSTMENTS), where('userId', '==', 'bob'))));
        await assertFails(getDoc(doc(bob, `${STAFF_TOTALS}/user_bob_2026-01-01`)));
        await assertFails(getDocs(query(collection(bob, STAFF_REFUNDS), where('payerId', '==', 'bob'))));
      });

      it('nobody writes money from a client', async () => {
        const alice = client('alice');
        await assertFails(updateDoc(doc(alice, `${LEDGER_ACCOUNTS}/wallet_alice`), { balance: 10_000_000 }));
        await assertFails(setDoc(doc(alice, `${LEDGER_ACCOUNTS}/wallet_alice2`), { type: 'WALLET', ownerId: 'alice', balance: 1 }));
        await assertFails(
          setDoc(doc(alice, `${LEDGER_TRANSFERS}/forged-0`), {
            kind: 'P2P',
            debit: 'wallet_bob',
            credit: 'wallet_alice',
            amount: 5_000,
            owners: ['alice', 'bob'],
            at: 2,
          }),
        );
        await assertFails(updateDoc(doc(alice, `${PAYMENTS}/p1`), { status: 'REFUNDED' }));
        await assertFails(updateDoc(doc(client('bob'), `${WITHDRAWALS}/w1`), { status: 'APPROVED' }));
        await assertFails(setDoc(doc(alice, `${LEDGER_ACCOUNTS}/platform_revenue/ledger_shards/1`), { balance: -1 }));
      });
    });

    describe('rides', () => {
      it("the rider and the driver read the ride; the rider reads the driver's position while it is theirs", async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, `${RIDES}/r1`)));
        await assertSucceeds(getDoc(doc(bob, `${RIDES}/r1`)));
        await assertSucceeds(getDocs(query(collection(alice, RIDES), where('participants', 'array-contains', 'alice'))));
        await assertFails(getDoc(doc(carol, `${RIDES}/r1`)));
        await assertSucceeds(getDoc(doc(alice, `${DRIVER_LOCATIONS}/bob`)));
        await assertSucceeds(getDoc(doc(bob, `${DRIVER_LOCATIONS}/bob`)));
        await assertFails(getDoc(doc(alice, `${DRIVER_LOCATIONS}/carol`)));
        await assertFails(getDocs(collection(alice, DRIVER_LOCATIONS)));
        await assertFails(getDoc(doc(client('dave'), `${RIDES}/r1`)));
      });

      it('nobody writes a ride or a position from a client', async () => {
        await assertFails(updateDoc(doc(client('bob'), `${RIDES}/r1`), { status: 'COMPLETED', fare: 1 }));
        await assertFails(updateDoc(doc(client('bob'), `${DRIVER_LOCATIONS}/bob`), { lat: 0 }));
        await assertFails(setDoc(doc(client('alice'), `${RIDES}/r2`), { riderId: 'alice', participants: ['alice'], status: 'CONFIRMED' }));
      });

      it("the driver's rating of a rider is read through the API only, not even by the ride's parties", async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), `${RIDE_RIDER_RATINGS}/r1`)));
          await assertFails(getDoc(doc(client(uid), `${RIDER_RATINGS}/alice`)));
        }
        await assertFails(setDoc(doc(client('alice'), `${RIDER_RATINGS}/alice`), { count: 1, sum: 5, average: 5 }));
      });

      it("the rider's rating of the driver is read through the API only: the rated driver never reads it by ride", async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), `${RIDE_DRIVER_RATINGS}/r1`)));
          await assertFails(getDocs(query(collection(client(uid), RIDE_DRIVER_RATINGS), where('driverId', '==', 'bob'))));
          await assertFails(getDoc(doc(client(uid), `${DRIVER_RATINGS}/bob`)));
        }
      });
    });

    describe('orders', () => {
      it('the consumer and the courier listen to the order; nobody else, and nobody writes it', async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, `${ORDERS}/o1`)));
        await assertSucceeds(getDoc(doc(bob, `${ORDERS}/o1`)));
        await assertSucceeds(getDocs(query(collection(alice, ORDERS), where('participants', 'array-contains', 'alice'))));
        await assertFails(getDoc(doc(carol, `${ORDERS}/o1`)));
        await assertFails(getDocs(collection(carol, ORDERS)));
        await assertFails(getDoc(doc(client('dave'), `${ORDERS}/o1`)));
        await assertFails(updateDoc(doc(bob, `${ORDERS}/o1`), { status: 'DELIVERED' }));
        await assertFails(setDoc(doc(alice, `${ORDERS}/o2`), { consumerId: 'alice', participants: ['alice'], status: 'PLACED' }));
      });

      it('the delivery code and the ratings are read through the API only (the courier never reads the code)', async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), `${ORDER_HANDOVERS}/o1`)));
          await assertFails(getDoc(doc(client(uid), `${ORDER_RATINGS}/o1`)));
          await assertFails(getDoc(doc(client(uid), `${ORDERS}/o1/${EVENTS}/e1`)));
        }
      });
    });

    describe('school trips', () => {
      it('the parent and the driver listen to a plan and its trips; nobody else, and nobody writes them', async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        for (const path of [`${SCHOOL_TRIP_PLANS}/sp1`, `${SCHOOL_TRIPS}/st1`]) {
          await assertSucceeds(getDoc(doc(alice, path)));
          await assertSucceeds(getDoc(doc(bob, path)));
          await assertFails(getDoc(doc(carol, path)));
          await assertFails(updateDoc(doc(bob, path), { status: 'ARRIVED' }));
        }
        await assertSucceeds(getDocs(query(collection(alice, SCHOOL_TRIPS), where('participants', 'array-contains', 'alice'))));
        await assertFails(getDocs(collection(carol, SCHOOL_TRIP_PLANS)));
        await assertFails(setDoc(doc(alice, `${SCHOOL_TRIP_PLANS}/sp2`), { parentId: 'alice', participants: ['alice'], status: 'MATCHED' }));
      });

      it("a school's follow-up of a family is read through the API only (the family never reads it)", async () => {
        await assertFails(getDoc(doc(client('alice'), `${SCHOOL_FOLLOW_UPS}/l1`)));
      });
    });

    describe('a client whose API session has ended is denied', () => {
      const reads = (db: ReturnType<typeof client>, uid: string): Array<Promise<unknown>> => [
        getDoc(doc(db, `${INBOX}/n-${uid}`)),
        getDocs(query(collection(db, INBOX), where('recipientId', '==', uid))),
        getDocs(query(collection(db, REALTIME), where('recipientId', '==', uid))),
      ];

      it('a live session reads its inbox, realtime events and calls', async () => {
        for (const read of reads(client('alice'), 'alice')) await assertSucceeds(read);
        await assertSucceeds(getDoc(doc(client('alice'), `${CALLS}/c1`)));
        await assertSucceeds(getDoc(doc(client('erin', 's-erin-new'), `${CALLS}/c-erin`)));
      });

      it.each([
        ['revoked (logout, refresh-token reuse)', 'alice', 's-alice-revoked', 'c1'],
        ['expired', 'alice', 's-alice-expired', 'c1'],
        ['locked account', 'dave', 's-dave', undefined],
        ['older than the last password reset', 'erin', 's-erin', 'c-erin'],
        ["another user's session id", 'alice', 's-bob', 'c1'],
        ['unknown session id', 'alice', 's-nope', 'c1'],
      ])('%s: app_notifications, realtime_events and calls are closed', async (_why, uid, sid, callId) => {
        const db = client(uid as string, sid as string);
        for (const read of reads(db, uid as string)) await assertFails(read);
        if (callId) await assertFails(getDoc(doc(db, `${CALLS}/${callId}`)));
        await assertFails(setDoc(doc(db, `${PRESENCE}/chat_c1/members/${uid}`), { expiresAt: Timestamp.fromMillis(Date.now() + 60_000) }));
      });

      it('a token without a session id (not minted by the API) is denied', async () => {
        const noSid = env.authenticatedContext('alice').firestore();
        await assertFails(getDoc(doc(noSid, `${INBOX}/n-alice`)));
        await assertFails(getDoc(doc(noSid, `${CALLS}/c1`)));
      });
    });

    it.each([`${PUSH_TOKENS}/t1`, `${PUSH_DEVICES}/u1`, `${PUSH_OUTBOX}/o1`, `${CALL_LINES}/u1`])('%s stays closed to clients', async (p) => {
      const alice = client('alice');
      await assertFails(getDoc(doc(alice, p)));
      await assertFails(setDoc(doc(alice, p), { userId: 'alice' }));
    });
  });
});
