import fs from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, setLogLevel, Timestamp, updateDoc, where } from 'firebase/firestore';

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

beforeAll(async () => {
  const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080').split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-superapp-rules',
    firestore: { host, port: Number(port), rules: fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firestore.rules'), 'utf8') },
  });
  await env.withSecurityRulesDisabled(async (ctx) => {
    await setDoc(doc(ctx.firestore(), 'meta/seed'), { version: 1 });
    await setDoc(doc(ctx.firestore(), 'private/thing'), { secret: true });
    await setDoc(doc(ctx.firestore(), 'users/alice'), { email: 'alice@example.com', passwordHash: '$2b$10$x', roles: ['USER'], disabled: false });
    await setDoc(doc(ctx.firestore(), 'users/bob'), { roles: ['USER'], disabled: false });
    await setDoc(doc(ctx.firestore(), 'users/carol'), { roles: ['USER'], disabled: false });
    // dave: locked by an administrator; erin: reset her password after her session started.
    await setDoc(doc(ctx.firestore(), 'users/dave'), { roles: ['USER'], disabled: true });
    await setDoc(doc(ctx.firestore(), 'users/erin'), { roles: ['USER'], disabled: false, sessionsValidAfter: Date.now() - 60_000 });
    await setDoc(doc(ctx.firestore(), 'auth_sessions/s1'), { userId: 'alice' });
    for (const uid of ['alice', 'bob', 'carol', 'dave', 'erin']) await setDoc(doc(ctx.firestore(), `auth_sessions/s-${uid}`), liveSession(uid));
    await setDoc(doc(ctx.firestore(), 'auth_sessions/s-alice-revoked'), liveSession('alice', { revokedAt: Date.now() - 1000, revokeReason: 'logout' }));
    await setDoc(doc(ctx.firestore(), 'auth_sessions/s-alice-expired'), liveSession('alice', { expireAt: Timestamp.fromMillis(Date.now() - 1000) }));
    await setDoc(doc(ctx.firestore(), 'auth_sessions/s-erin-new'), liveSession('erin', { createdAt: Date.now() }));
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-dave'), { recipientId: 'dave', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-erin'), { recipientId: 'erin', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'realtime_events/e-erin'), { recipientId: 'erin', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), 'auth_otps/LOGIN:abc'), { userId: 'alice', codeHmac: 'h' });
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-alice'), { recipientId: 'alice', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-bob'), { recipientId: 'bob', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'realtime_events/e-alice'), { recipientId: 'alice', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), 'realtime_events/e-bob'), { recipientId: 'bob', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), 'notification_prefs/alice'), { push: true });
    await setDoc(doc(ctx.firestore(), 'notification_prefs/bob'), { push: true });
    await setDoc(doc(ctx.firestore(), 'calls/c1'), { participants: ['alice', 'bob'], status: 'RINGING' });
    await setDoc(doc(ctx.firestore(), 'calls/c-erin'), { participants: ['erin', 'bob'], status: 'RINGING' });
    // Chat: alice and bob in a direct conversation; a group alice owns that carol was removed from; bob blocks carol.
    await setDoc(doc(ctx.firestore(), 'conversations/dm1'), { type: 'DIRECT', memberIds: ['alice', 'bob'] });
    await setDoc(doc(ctx.firestore(), 'conversations/dm1/messages/m1'), { id: 'm1', senderId: 'alice', type: 'TEXT', text: 'hi', createdAt: 1 });
    await setDoc(doc(ctx.firestore(), 'conversations/g1'), { type: 'GROUP', memberIds: ['alice', 'bob'], ownerId: 'alice' });
    await setDoc(doc(ctx.firestore(), 'conversations/g1/messages/m2'), { id: 'm2', senderId: 'carol', type: 'TEXT', text: 'before removal', createdAt: 1 });
    await setDoc(doc(ctx.firestore(), 'chat_memberships/dm1_alice'), { conversationId: 'dm1', userId: 'alice', unreadCount: 0 });
    await setDoc(doc(ctx.firestore(), 'chat_memberships/dm1_bob'), { conversationId: 'dm1', userId: 'bob', unreadCount: 1 });
    await setDoc(doc(ctx.firestore(), 'chat_blocks/bob_carol'), { blockerId: 'bob', blockedId: 'carol', createdAt: 1 });
    // Wallet: alice pays bob 5,000; her top-up; a platform account; bob's withdrawal.
    await setDoc(doc(ctx.firestore(), 'ledger_accounts/wallet_alice'), { type: 'WALLET', ownerId: 'alice', balance: 95_000, reserved: 0 });
    await setDoc(doc(ctx.firestore(), 'ledger_accounts/wallet_bob'), { type: 'WALLET', ownerId: 'bob', balance: 5_000, reserved: 0 });
    await setDoc(doc(ctx.firestore(), 'ledger_accounts/payouts_transit'), { type: 'SYSTEM', ownerId: null, balance: 0, reserved: 0 });
    await setDoc(doc(ctx.firestore(), 'ledger_accounts/platform_revenue/ledger_shards/0'), { balance: 100 });
    await setDoc(doc(ctx.firestore(), 'ledger_transfers/t1-0'), {
      kind: 'P2P',
      debit: 'wallet_alice',
      credit: 'wallet_bob',
      amount: 5_000,
      owners: ['alice', 'bob'],
      at: 1,
    });
    await setDoc(doc(ctx.firestore(), 'ledger_transfers/t2-0'), {
      kind: 'TOPUP',
      debit: 'clearing_MOCK',
      credit: 'wallet_alice',
      amount: 100_000,
      owners: ['alice'],
      at: 0,
    });
    await setDoc(doc(ctx.firestore(), 'payments/p1'), { payerId: 'alice', status: 'SUCCEEDED', amount: 100_000 });
    await setDoc(doc(ctx.firestore(), 'wallet_withdrawals/w1'), { userId: 'bob', status: 'PENDING', amount: 50_000 });
    // Staff ids live only where staff read: the owner's records say STAFF (review finding 4).
    await setDoc(doc(ctx.firestore(), 'wallet_withdrawals/w2'), { userId: 'bob', status: 'APPROVED', amount: 50_000, decidedBy: 'STAFF' });
    await setDoc(doc(ctx.firestore(), 'wallet_withdrawals/w2/events/e1'), { action: 'approve', by: 'admin-1', at: 1 });
    await setDoc(doc(ctx.firestore(), 'wallet_adjustments/a1'), { userId: 'bob', requestedBy: 'admin-1', status: 'APPLIED' });
    await setDoc(doc(ctx.firestore(), 'wallet_staff_totals/user_bob_2026-01-01'), { moved: 1 });
    await setDoc(doc(ctx.firestore(), 'payment_staff_refunds/R1'), { payerId: 'bob', requestedBy: 'admin-1', status: 'PENDING' });
    // Rides: alice rides with driver bob; carol is a driver with no ride.
    await setDoc(doc(ctx.firestore(), 'rides/r1'), { riderId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'CONFIRMED' });
    await setDoc(doc(ctx.firestore(), 'driver_locations/bob'), { userId: 'bob', lat: 10.77, lng: 106.7, currentRideId: 'r1', riderId: 'alice' });
    await setDoc(doc(ctx.firestore(), 'driver_locations/carol'), { userId: 'carol', lat: 10.78, lng: 106.71, currentRideId: null, riderId: null });
    await setDoc(doc(ctx.firestore(), 'ride_rider_ratings/r1'), { rideId: 'r1', riderId: 'alice', driverId: 'bob', stars: 2, comment: 'late' });
    await setDoc(doc(ctx.firestore(), 'rider_ratings/alice'), { count: 1, sum: 2, average: 2 });
    await setDoc(doc(ctx.firestore(), 'ride_driver_ratings/r1'), { rideId: 'r1', riderId: 'alice', driverId: 'bob', stars: 1, comment: 'rude', ratedAt: 1 });
    await setDoc(doc(ctx.firestore(), 'driver_ratings/bob'), { count: 1, sum: 1, average: 1 });
    // Orders: alice ordered, courier bob delivers it; carol (say, the store's staff) reads it through the API only.
    await setDoc(doc(ctx.firestore(), 'orders/o1'), { consumerId: 'alice', driverId: 'bob', participants: ['alice', 'bob'], status: 'PICKED_UP' });
    await setDoc(doc(ctx.firestore(), 'order_handovers/o1'), { code: '1234', attempts: 0 });
    await setDoc(doc(ctx.firestore(), 'order_ratings/o1'), { orderId: 'o1', consumerId: 'alice', driverId: 'bob', store: { stars: 5 } });
  });
});

afterAll(async () => {
  await env.cleanup();
});

describe('firestore.rules', () => {
  it('a signed-in user reads platform metadata', async () => {
    await assertSucceeds(getDoc(doc(env.authenticatedContext('alice').firestore(), 'meta/seed')));
  });

  it('an anonymous client cannot read platform metadata', async () => {
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), 'meta/seed')));
  });

  it('nobody writes platform metadata from a client', async () => {
    await assertFails(setDoc(doc(env.authenticatedContext('alice', { roles: ['ADMIN'] }).firestore(), 'meta/seed'), { version: 2 }));
  });

  it('default deny: any other path is closed to reads and writes', async () => {
    const alice = env.authenticatedContext('alice').firestore();
    await assertFails(getDoc(doc(alice, 'private/thing')));
    await assertFails(setDoc(doc(alice, 'users/alice'), { roles: ['ADMIN'] }));
    await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), 'private/thing')));
  });

  // Accounts hold password hashes; sessions, codes and identities are the API's alone (firebase-admin).
  it.each([
    'users/alice',
    'auth_sessions/s1',
    'auth_otps/LOGIN:abc',
    'user_emails/alice@example.com',
    'user_identities/google:1',
    'auth_locks/alice',
    'rate_limits/x',
    'applications/a1',
    'kyc_papers/p1',
    'driver_profiles/alice',
    'partners/p1',
    'partner_members/p1_alice',
    // The map tab is API only: catalogs (their moderation state and managers), a user's addresses, favorites and
    // reviews, and vouchers with their use counters.
    'places/p1',
    'pharmacy_products/s1_SKU',
    'parking_lots/l1',
    'addresses/a1',
    'favorites/alice_PLACE_p1',
    'reviews/PLACE_p1_alice',
    'promotions/v1',
    'promotions/v1/shards/0',
    'promotion_usage/v1_alice',
    'promotion_redemptions/r1',
  ])('even the owner cannot read or write %s from a client', async (p) => {
    const alice = env.authenticatedContext('alice').firestore();
    await assertFails(getDoc(doc(alice, p)));
    await assertFails(setDoc(doc(alice, p), { userId: 'alice', roles: ['ADMIN'] }));
  });

  describe('notification hub documents', () => {
    it('a user reads and lists only their own inbox items, realtime events and preferences', async () => {
      const alice = client('alice');
      await assertSucceeds(getDoc(doc(alice, 'app_notifications/n-alice')));
      await assertFails(getDoc(doc(alice, 'app_notifications/n-bob')));
      await assertSucceeds(getDocs(query(collection(alice, 'app_notifications'), where('recipientId', '==', 'alice'))));
      await assertFails(getDocs(collection(alice, 'app_notifications')));
      await assertSucceeds(getDocs(query(collection(alice, 'realtime_events'), where('recipientId', '==', 'alice'))));
      await assertFails(getDoc(doc(alice, 'realtime_events/e-bob')));
      await assertSucceeds(getDoc(doc(alice, 'notification_prefs/alice')));
      await assertFails(getDoc(doc(alice, 'notification_prefs/bob')));
      await assertFails(getDoc(doc(env.unauthenticatedContext().firestore(), 'app_notifications/n-alice')));
    });

    it('clients never write them (marking read goes through the API)', async () => {
      const alice = client('alice');
      await assertFails(updateDoc(doc(alice, 'app_notifications/n-alice'), { read: true }));
      await assertFails(setDoc(doc(alice, 'app_notifications/new'), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, 'realtime_events/new'), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, 'notification_prefs/alice'), { push: false }));
    });

    it('presence: only your own member doc, with a fresh expiry at most 2 minutes ahead', async () => {
      const alice = client('alice');
      const soon = () => Timestamp.fromMillis(Date.now() + 60_000);
      await assertSucceeds(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon(), updatedAt: Timestamp.now() }));
      await assertSucceeds(getDoc(doc(alice, 'presence/chat_c1/members/alice')));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/bob'), { expiresAt: soon() }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: Timestamp.fromMillis(Date.now() + 3_600_000) }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: Timestamp.fromMillis(Date.now() - 1000) }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon(), roles: ['ADMIN'] }));
      // Times in listened documents are Timestamps: an epoch-ms heartbeat is refused.
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon(), updatedAt: Date.now() }));
      await assertSucceeds(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon() }));
      await assertFails(getDoc(doc(client('bob'), 'presence/chat_c1/members/alice')));
      await assertSucceeds(deleteDoc(doc(alice, 'presence/chat_c1/members/alice')));
    });

    it('presence: a heartbeat to a legacy document (epoch-ms updatedAt) passes unless it writes updatedAt as a number', async () => {
      const alice = client('alice');
      const soon = () => Timestamp.fromMillis(Date.now() + 60_000);
      const ref = doc(alice, 'presence/ride_r1/members/alice');
      await env.withSecurityRulesDisabled((ctx) =>
        setDoc(doc(ctx.firestore(), 'presence/ride_r1/members/alice'), { expiresAt: soon(), updatedAt: Date.now() - 30_000 }),
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
      await assertSucceeds(getDoc(doc(client('alice'), 'calls/c1')));
      await assertSucceeds(getDoc(doc(client('bob'), 'calls/c1')));
      await assertFails(getDoc(doc(client('carol'), 'calls/c1')));
      await assertFails(updateDoc(doc(client('alice'), 'calls/c1'), { status: 'ACTIVE' }));
    });

    describe('chat', () => {
      it('members read the conversation and its messages, listing them live', async () => {
        for (const uid of ['alice', 'bob']) {
          await assertSucceeds(getDoc(doc(client(uid), 'conversations/dm1')));
          await assertSucceeds(getDocs(collection(client(uid), 'conversations/dm1/messages')));
        }
      });
      it('a non-member reads neither the conversation nor its messages', async () => {
        await assertFails(getDoc(doc(client('carol'), 'conversations/dm1')));
        await assertFails(getDoc(doc(client('carol'), 'conversations/dm1/messages/m1')));
        await assertFails(getDocs(collection(client('carol'), 'conversations/dm1/messages')));
      });
      it('a removed member no longer reads the group, not even their own old message', async () => {
        await assertFails(getDoc(doc(client('carol'), 'conversations/g1')));
        await assertFails(getDoc(doc(client('carol'), 'conversations/g1/messages/m2')));
        await assertSucceeds(getDoc(doc(client('alice'), 'conversations/g1/messages/m2')));
      });
      it('a member reads only their own membership (unread count, markers); a locked member nothing', async () => {
        await assertSucceeds(getDoc(doc(client('bob'), 'chat_memberships/dm1_bob')));
        await assertSucceeds(getDocs(query(collection(client('bob'), 'chat_memberships'), where('userId', '==', 'bob'))));
        await assertFails(getDoc(doc(client('bob'), 'chat_memberships/dm1_alice')));
        await assertFails(getDocs(collection(client('bob'), 'chat_memberships')));
        await assertFails(getDoc(doc(client('bob', 's-alice-revoked'), 'chat_memberships/dm1_bob')));
      });
      it('a blocked user cannot see who blocks them; the blocker sees their own block', async () => {
        await assertFails(getDoc(doc(client('carol'), 'chat_blocks/bob_carol')));
        await assertFails(getDocs(query(collection(client('carol'), 'chat_blocks'), where('blockedId', '==', 'carol'))));
        await assertSucceeds(getDoc(doc(client('bob'), 'chat_blocks/bob_carol')));
      });
      it('nobody writes chat documents from a client (sending goes through the API)', async () => {
        const alice = client('alice');
        await assertFails(setDoc(doc(alice, 'conversations/dm1/messages/forged'), { senderId: 'alice', type: 'TEXT', text: 'x', createdAt: 2 }));
        await assertFails(updateDoc(doc(alice, 'conversations/dm1'), { memberIds: ['alice', 'bob', 'carol'] }));
        await assertFails(setDoc(doc(client('carol'), 'conversations/dm2'), { memberIds: ['carol'] }));
        await assertFails(updateDoc(doc(client('bob'), 'chat_memberships/dm1_bob'), { unreadCount: 0 }));
        await assertFails(deleteDoc(doc(client('bob'), 'chat_blocks/bob_carol')));
        await assertFails(getDoc(doc(alice, 'chat_reports/r1')));
      });
    });

    describe('wallet and payments', () => {
      it('each user reads their own wallet, transfers, payments and withdrawals, live', async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, 'ledger_accounts/wallet_alice')));
        await assertSucceeds(getDocs(query(collection(alice, 'ledger_transfers'), where('owners', 'array-contains', 'alice'))));
        await assertSucceeds(getDoc(doc(bob, 'ledger_transfers/t1-0')));
        await assertSucceeds(getDocs(query(collection(alice, 'payments'), where('payerId', '==', 'alice'))));
        await assertSucceeds(getDoc(doc(bob, 'wallet_withdrawals/w1')));
        await assertFails(getDoc(doc(carol, 'ledger_accounts/wallet_alice')));
        await assertFails(getDoc(doc(carol, 'ledger_transfers/t1-0')));
        await assertFails(getDoc(doc(bob, 'ledger_transfers/t2-0')));
        await assertFails(getDocs(collection(bob, 'ledger_transfers')));
        await assertFails(getDoc(doc(bob, 'payments/p1')));
        await assertFails(getDoc(doc(alice, 'wallet_withdrawals/w1')));
        await assertFails(getDoc(doc(alice, 'ledger_accounts/payouts_transit')));
        await assertFails(getDoc(doc(alice, 'ledger_accounts/platform_revenue/ledger_shards/0')));
        await assertFails(getDoc(doc(client('dave'), 'ledger_accounts/wallet_dave')));
      });

      it('staff ids stay where only staff read: the owner reads STAFF on a withdrawal, never its events, adjustments, staff totals or staff refund requests', async () => {
        const bob = client('bob');
        expect((await assertSucceeds(getDoc(doc(bob, 'wallet_withdrawals/w2')))).get('decidedBy')).toBe('STAFF');
        await assertFails(getDoc(doc(bob, 'wallet_withdrawals/w2/events/e1')));
        await assertFails(getDocs(collection(bob, 'wallet_withdrawals/w2/events')));
        await assertFails(getDoc(doc(bob, 'wallet_adjustments/a1')));
        await assertFails(getDocs(query(collection(bob, 'wallet_adjustments'), where('userId', '==', 'bob'))));
        await assertFails(getDoc(doc(bob, 'wallet_staff_totals/user_bob_2026-01-01')));
        await assertFails(getDocs(query(collection(bob, 'payment_staff_refunds'), where('payerId', '==', 'bob'))));
      });

      it('nobody writes money from a client', async () => {
        const alice = client('alice');
        await assertFails(updateDoc(doc(alice, 'ledger_accounts/wallet_alice'), { balance: 10_000_000 }));
        await assertFails(setDoc(doc(alice, 'ledger_accounts/wallet_alice2'), { type: 'WALLET', ownerId: 'alice', balance: 1 }));
        await assertFails(
          setDoc(doc(alice, 'ledger_transfers/forged-0'), {
            kind: 'P2P',
            debit: 'wallet_bob',
            credit: 'wallet_alice',
            amount: 5_000,
            owners: ['alice', 'bob'],
            at: 2,
          }),
        );
        await assertFails(updateDoc(doc(alice, 'payments/p1'), { status: 'REFUNDED' }));
        await assertFails(updateDoc(doc(client('bob'), 'wallet_withdrawals/w1'), { status: 'APPROVED' }));
        await assertFails(setDoc(doc(alice, 'ledger_accounts/platform_revenue/ledger_shards/1'), { balance: -1 }));
      });
    });

    describe('rides', () => {
      it("the rider and the driver read the ride; the rider reads the driver's position while it is theirs", async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, 'rides/r1')));
        await assertSucceeds(getDoc(doc(bob, 'rides/r1')));
        await assertSucceeds(getDocs(query(collection(alice, 'rides'), where('participants', 'array-contains', 'alice'))));
        await assertFails(getDoc(doc(carol, 'rides/r1')));
        await assertSucceeds(getDoc(doc(alice, 'driver_locations/bob')));
        await assertSucceeds(getDoc(doc(bob, 'driver_locations/bob')));
        await assertFails(getDoc(doc(alice, 'driver_locations/carol')));
        await assertFails(getDocs(collection(alice, 'driver_locations')));
        await assertFails(getDoc(doc(client('dave'), 'rides/r1')));
      });

      it('nobody writes a ride or a position from a client', async () => {
        await assertFails(updateDoc(doc(client('bob'), 'rides/r1'), { status: 'COMPLETED', fare: 1 }));
        await assertFails(updateDoc(doc(client('bob'), 'driver_locations/bob'), { lat: 0 }));
        await assertFails(setDoc(doc(client('alice'), 'rides/r2'), { riderId: 'alice', participants: ['alice'], status: 'CONFIRMED' }));
      });

      it("the driver's rating of a rider is read through the API only, not even by the ride's parties", async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), 'ride_rider_ratings/r1')));
          await assertFails(getDoc(doc(client(uid), 'rider_ratings/alice')));
        }
        await assertFails(setDoc(doc(client('alice'), 'rider_ratings/alice'), { count: 1, sum: 5, average: 5 }));
      });

      it("the rider's rating of the driver is read through the API only: the rated driver never reads it by ride", async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), 'ride_driver_ratings/r1')));
          await assertFails(getDocs(query(collection(client(uid), 'ride_driver_ratings'), where('driverId', '==', 'bob'))));
          await assertFails(getDoc(doc(client(uid), 'driver_ratings/bob')));
        }
      });
    });

    describe('orders', () => {
      it('the consumer and the courier listen to the order; nobody else, and nobody writes it', async () => {
        const [alice, bob, carol] = [client('alice'), client('bob'), client('carol')];
        await assertSucceeds(getDoc(doc(alice, 'orders/o1')));
        await assertSucceeds(getDoc(doc(bob, 'orders/o1')));
        await assertSucceeds(getDocs(query(collection(alice, 'orders'), where('participants', 'array-contains', 'alice'))));
        await assertFails(getDoc(doc(carol, 'orders/o1')));
        await assertFails(getDocs(collection(carol, 'orders')));
        await assertFails(getDoc(doc(client('dave'), 'orders/o1')));
        await assertFails(updateDoc(doc(bob, 'orders/o1'), { status: 'DELIVERED' }));
        await assertFails(setDoc(doc(alice, 'orders/o2'), { consumerId: 'alice', participants: ['alice'], status: 'PLACED' }));
      });

      it('the delivery code and the ratings are read through the API only (the courier never reads the code)', async () => {
        for (const uid of ['alice', 'bob']) {
          await assertFails(getDoc(doc(client(uid), 'order_handovers/o1')));
          await assertFails(getDoc(doc(client(uid), 'order_ratings/o1')));
          await assertFails(getDoc(doc(client(uid), 'orders/o1/events/e1')));
        }
      });
    });

    describe('a client whose API session has ended is denied', () => {
      const reads = (db: ReturnType<typeof client>, uid: string): Array<Promise<unknown>> => [
        getDoc(doc(db, `app_notifications/n-${uid}`)),
        getDocs(query(collection(db, 'app_notifications'), where('recipientId', '==', uid))),
        getDocs(query(collection(db, 'realtime_events'), where('recipientId', '==', uid))),
      ];

      it('a live session reads its inbox, realtime events and calls', async () => {
        for (const read of reads(client('alice'), 'alice')) await assertSucceeds(read);
        await assertSucceeds(getDoc(doc(client('alice'), 'calls/c1')));
        await assertSucceeds(getDoc(doc(client('erin', 's-erin-new'), 'calls/c-erin')));
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
        if (callId) await assertFails(getDoc(doc(db, `calls/${callId}`)));
        await assertFails(setDoc(doc(db, `presence/chat_c1/members/${uid}`), { expiresAt: Timestamp.fromMillis(Date.now() + 60_000) }));
      });

      it('a token without a session id (not minted by the API) is denied', async () => {
        const noSid = env.authenticatedContext('alice').firestore();
        await assertFails(getDoc(doc(noSid, 'app_notifications/n-alice')));
        await assertFails(getDoc(doc(noSid, 'calls/c1')));
      });
    });

    it.each(['push_tokens/t1', 'push_devices/u1', 'push_outbox/o1', 'call_lines/u1'])('%s stays closed to clients', async (p) => {
      const alice = client('alice');
      await assertFails(getDoc(doc(alice, p)));
      await assertFails(setDoc(doc(alice, p), { userId: 'alice' }));
    });
  });
});
