import fs from 'node:fs';
import path from 'node:path';
import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { collection, doc, getDoc, getDocs, query, setDoc, setLogLevel, Timestamp, updateDoc, where } from 'firebase/firestore';
import { USERS } from '../../src/modules/users/users.model';
import { AUTH_SESSIONS } from '../../src/modules/auth/auth.model';
import { DRIVER_LOCATIONS } from '../../src/modules/driver/driver.collections';

// Who reads a driver's location document: the driver, the rider of the current ride, and the customer of the current
// job only while the job is shared (jobPool.txShareWithCustomer sets `sharedWithId`; a claim leaves it null and a
// release clears it, as driver-jobs.test.ts checks on the stored documents).
setLogLevel('error');

let env: RulesTestEnvironment;
const HOUR_MS = 3600_000;
const client = (uid: string) => env.authenticatedContext(uid, { sid: `s-${uid}` }).firestore();
const ACCOUNTS = ['courier', 'customer', 'stranger', 'rider', 'driver'];

// The document in each phase of a job, as the driver module writes it.
const base = { userId: 'courier', lat: 10.77, lng: 106.7, status: 'ONLINE', currentRideId: null, riderId: null, dispatchKey: null, jobKeys: [] };
const PHASES = {
  // Claimed (courier on the way to the store): the customer is known but not a reader.
  claimed: { ...base, currentJobId: 'O1', currentJobKind: 'ORDER', jobCustomerId: 'customer', sharedWithId: null },
  // Picked up: shared with the customer.
  shared: { ...base, currentJobId: 'O1', currentJobKind: 'ORDER', jobCustomerId: 'customer', sharedWithId: 'customer' },
  // Delivered: released, free again.
  released: { ...base, jobKeys: ['COURIER', 'DELIVERY'], currentJobId: null, currentJobKind: null, jobCustomerId: null, sharedWithId: null },
};

beforeAll(async () => {
  const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080').split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-superapp-rules-jobs',
    firestore: { host, port: Number(port), rules: fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firestore.rules'), 'utf8') },
  });
  await env.withSecurityRulesDisabled(async (ctx) => {
    const store = ctx.firestore();
    for (const uid of ACCOUNTS) {
      await setDoc(doc(store, `${USERS}/${uid}`), { roles: ['USER'], disabled: false });
      const session = { userId: uid, revokedAt: null, createdAt: Date.now() - HOUR_MS, expireAt: Timestamp.fromMillis(Date.now() + 24 * HOUR_MS) };
      await setDoc(doc(store, `${AUTH_SESSIONS}/s-${uid}`), session);
    }
    for (const [phase, data] of Object.entries(PHASES))
      await setDoc(doc(store, `${DRIVER_LOCATIONS}/courier-${phase}`), { ...data, userId: `courier-${phase}` });
    await setDoc(doc(store, `${DRIVER_LOCATIONS}/courier`), PHASES.shared);
    // Written before jobs existed (no job fields): the rider of the ride reads it, nobody else.
    await setDoc(doc(store, `${DRIVER_LOCATIONS}/driver`), { userId: 'driver', lat: 10.78, lng: 106.71, currentRideId: 'r1', riderId: 'rider' });
  });
});

afterAll(async () => {
  await env.cleanup();
});

const read = (uid: string, id: string) => getDoc(doc(client(uid), `${DRIVER_LOCATIONS}/${id}`));

describe("driver_locations: the customer of a job reads the courier's position only while the job is shared", () => {
  it('claimed (before pickup): not the customer', async () => {
    await assertFails(read('customer', 'courier-claimed'));
    await assertFails(read('stranger', 'courier-claimed'));
  });

  it('shared (from pickup): the customer, and nobody else', async () => {
    await assertSucceeds(read('customer', 'courier-shared'));
    await assertFails(read('stranger', 'courier-shared'));
    await assertFails(read('rider', 'courier-shared'));
    // An unfiltered list is denied (it could hold documents not shared with the caller).
    await assertFails(getDocs(collection(client('customer'), DRIVER_LOCATIONS)));
  });

  it('released (delivered or cancelled): no longer the customer', async () => {
    await assertFails(read('customer', 'courier-released'));
  });

  it('a query filtered on the documents shared with me is allowed: it can return nothing else', async () => {
    await assertSucceeds(getDocs(query(collection(client('customer'), DRIVER_LOCATIONS), where('sharedWithId', '==', 'customer'))));
  });

  it('a document without the job fields: the driver and the rider read it, others are denied', async () => {
    await assertSucceeds(read('driver', 'driver'));
    await assertSucceeds(read('rider', 'driver'));
    await assertFails(read('customer', 'driver'));
  });

  it('the courier reads their own; nobody writes a position or shares it from a client', async () => {
    await assertSucceeds(read('courier', 'courier'));
    await assertFails(updateDoc(doc(client('courier'), `${DRIVER_LOCATIONS}/courier`), { sharedWithId: 'stranger' }));
    await assertFails(updateDoc(doc(client('stranger'), `${DRIVER_LOCATIONS}/courier-claimed`), { sharedWithId: 'stranger' }));
    await assertFails(setDoc(doc(client('customer'), `${DRIVER_LOCATIONS}/customer`), { ...PHASES.shared, userId: 'customer' }));
  });
});
