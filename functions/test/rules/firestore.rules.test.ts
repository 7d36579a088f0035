import fs from 'node:fs';
import path from 'node:path';
import {
  assertFails,
  assertSucceeds,
  initializeTestEnvironment,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing';
import { doc, getDoc, setDoc, setLogLevel } from 'firebase/firestore';

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
});
