import fs from 'node:fs';
import path from 'node:path';
import {
  assertFails,
  assertSucceeds,
  initializeTestEnvironment,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing';
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, setLogLevel, Timestamp, updateDoc, where } from 'firebase/firestore';

// Denied writes are expected here; keep the client SDK's warnings out of the output.
setLogLevel('error');

let env: RulesTestEnvironment;

beforeAll(async () => {
  const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080').split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-superapp-rules',
    firestore: { host, port: Number(port), rules: fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firestore.rules'), 'utf8') },
  });
  await env.withSecurityRulesDisabled(async (ctx) => {
    await setDoc(doc(ctx.firestore(), 'meta/seed'), { version: 1 });
    await setDoc(doc(ctx.firestore(), 'private/thing'), { secret: true });
    await setDoc(doc(ctx.firestore(), 'users/alice'), { email: 'alice@example.com', passwordHash: '$2b$10$x', roles: ['USER'] });
    await setDoc(doc(ctx.firestore(), 'auth_sessions/s1'), { userId: 'alice' });
    await setDoc(doc(ctx.firestore(), 'auth_otps/LOGIN:abc'), { userId: 'alice', codeHmac: 'h' });
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-alice'), { recipientId: 'alice', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'app_notifications/n-bob'), { recipientId: 'bob', kind: 'SYSTEM', read: false });
    await setDoc(doc(ctx.firestore(), 'realtime_events/e-alice'), { recipientId: 'alice', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), 'realtime_events/e-bob'), { recipientId: 'bob', type: 'call:ring' });
    await setDoc(doc(ctx.firestore(), 'notification_prefs/alice'), { push: true });
    await setDoc(doc(ctx.firestore(), 'notification_prefs/bob'), { push: true });
    await setDoc(doc(ctx.firestore(), 'calls/c1'), { participants: ['alice', 'bob'], status: 'RINGING' });
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
  it.each(['users/alice', 'auth_sessions/s1', 'auth_otps/LOGIN:abc', 'user_emails/alice@example.com', 'user_identities/google:1', 'auth_locks/alice', 'rate_limits/x',
    'applications/a1', 'kyc_papers/p1', 'driver_profiles/alice', 'partners/p1', 'partner_members/p1_alice'])(
    'even the owner cannot read or write %s from a client',
    async (p) => {
      const alice = env.authenticatedContext('alice').firestore();
      await assertFails(getDoc(doc(alice, p)));
      await assertFails(setDoc(doc(alice, p), { userId: 'alice', roles: ['ADMIN'] }));
    },
  );

  describe('notification hub documents', () => {
    it('a user reads and lists only their own inbox items, realtime events and preferences', async () => {
      const alice = env.authenticatedContext('alice').firestore();
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
      const alice = env.authenticatedContext('alice').firestore();
      await assertFails(updateDoc(doc(alice, 'app_notifications/n-alice'), { read: true }));
      await assertFails(setDoc(doc(alice, 'app_notifications/new'), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, 'realtime_events/new'), { recipientId: 'alice' }));
      await assertFails(setDoc(doc(alice, 'notification_prefs/alice'), { push: false }));
    });

    it('presence: only your own member doc, with a fresh expiry at most 2 minutes ahead', async () => {
      const alice = env.authenticatedContext('alice').firestore();
      const soon = () => Timestamp.fromMillis(Date.now() + 60_000);
      await assertSucceeds(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon(), updatedAt: Timestamp.now() }));
      await assertSucceeds(getDoc(doc(alice, 'presence/chat_c1/members/alice')));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/bob'), { expiresAt: soon() }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: Timestamp.fromMillis(Date.now() + 3_600_000) }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: Timestamp.fromMillis(Date.now() - 1000) }));
      await assertFails(setDoc(doc(alice, 'presence/chat_c1/members/alice'), { expiresAt: soon(), roles: ['ADMIN'] }));
      await assertFails(getDoc(doc(env.authenticatedContext('bob').firestore(), 'presence/chat_c1/members/alice')));
      await assertSucceeds(deleteDoc(doc(alice, 'presence/chat_c1/members/alice')));
    });

    it('calls: participants read the call, nobody else; no client writes', async () => {
      await assertSucceeds(getDoc(doc(env.authenticatedContext('alice').firestore(), 'calls/c1')));
      await assertSucceeds(getDoc(doc(env.authenticatedContext('bob').firestore(), 'calls/c1')));
      await assertFails(getDoc(doc(env.authenticatedContext('carol').firestore(), 'calls/c1')));
      await assertFails(updateDoc(doc(env.authenticatedContext('alice').firestore(), 'calls/c1'), { status: 'ACTIVE' }));
    });

    it.each(['push_tokens/t1', 'push_devices/u1', 'push_outbox/o1', 'call_lines/u1'])('%s stays closed to clients', async (p) => {
      const alice = env.authenticatedContext('alice').firestore();
      await assertFails(getDoc(doc(alice, p)));
      await assertFails(setDoc(doc(alice, p), { userId: 'alice' }));
    });
  });
});
