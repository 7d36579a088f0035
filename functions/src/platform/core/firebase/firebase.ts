// Firebase handles, initialised once and only when first used: firebase-admin/firestore pulls in
// gRPC, which must not weigh on the cold start of routes that never touch Firestore.
import type { App } from 'firebase-admin/app';
import type { Firestore } from 'firebase-admin/firestore';
import type { Auth } from 'firebase-admin/auth';
import type { Storage } from 'firebase-admin/storage';
import type { Messaging } from 'firebase-admin/messaging';
import { readsTogether } from './reads-together';

export const DEFAULT_PROJECT_ID = 'demo-superapp';

let app: App | undefined;
let firestore: Firestore | undefined;
let firestoreModule: typeof import('firebase-admin/firestore') | undefined;

/**
 * firebase-admin/firestore (FieldValue, Timestamp, FieldPath…), loaded on first use and kept: a require() per call
 * resolves the package path again each time, which showed in hot loops (~8 µs per call; 5,000 per broadcast).
 */
export function firestoreApi(): typeof import('firebase-admin/firestore') {
  return (firestoreModule ??= require('firebase-admin/firestore') as typeof import('firebase-admin/firestore'));
}

export function firebaseApp(): App {
  if (!app) {
    const admin = require('firebase-admin/app') as typeof import('firebase-admin/app');
    // Under Cloud Functions and the emulator FIREBASE_CONFIG is set; a plain node server falls back to the demo id.
    const hasPlatformConfig = Boolean(process.env.FIREBASE_CONFIG);
    const projectId = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? DEFAULT_PROJECT_ID;
    app = admin.getApps()[0] ?? (hasPlatformConfig ? admin.initializeApp() : admin.initializeApp({ projectId }));
  }
  return app;
}

export function db(): Firestore {
  if (!firestore) {
    firestore = firestoreApi().getFirestore(firebaseApp());
    firestore.settings({ ignoreUndefinedProperties: true });
  }
  return firestore;
}

/**
 * gRPC INVALID_ARGUMENT "Transaction is invalid or closed": the transaction waited on locks past its lifetime (the
 * Firestore emulator cuts it at seconds under heavy contention); nothing of it was written. Contention, not bad input.
 */
export function isTransactionExpired(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === 3 && /transaction is invalid or closed|transaction .*expired/i.test(err.message);
}

/** gRPC ALREADY_EXISTS: a `create` found the document there. */
export const isAlreadyExists = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 6;

/** gRPC FAILED_PRECONDITION: a write's precondition (`lastUpdateTime`, `exists`) did not hold; nothing was written. */
export const isFailedPrecondition = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 9;

/** gRPC NOT_FOUND: an update found no document. */
export const isNotFound = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 5;

// Every module's transactions: retried on contention (parallel refreshes, OTP attempts, call races). A transaction
// that outlived its lock waits ("invalid or closed", not retried by the SDK) is run again twice, with a jittered pause.
// `readsTogether`: the document reads of one turn go out as one getAll (see reads-together.ts), for transactions that
// start with several reads side by side.
export async function inTransaction<T>(
  fn: (tx: import('firebase-admin/firestore').Transaction) => Promise<T>,
  options: { readsTogether?: boolean } = {},
): Promise<T> {
  const run = options.readsTogether
    ? async (tx: import('firebase-admin/firestore').Transaction) => {
        const together = readsTogether(tx);
        try {
          return await fn(together.view);
        } finally {
          together.close();
        }
      }
    : fn;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db().runTransaction(run, { maxAttempts: 25 });
    } catch (err) {
      if (!isTransactionExpired(err) || attempt === 2) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 400));
    }
  }
}

export function authAdmin(): Auth {
  return (require('firebase-admin/auth') as typeof import('firebase-admin/auth')).getAuth(firebaseApp());
}

export function storageAdmin(): Storage {
  return (require('firebase-admin/storage') as typeof import('firebase-admin/storage')).getStorage(firebaseApp());
}

export function messagingAdmin(): Messaging {
  return (require('firebase-admin/messaging') as typeof import('firebase-admin/messaging')).getMessaging(firebaseApp());
}

export function emulatorHosts(): { firestore?: string; auth?: string; storage?: string } {
  return {
    firestore: process.env.FIRESTORE_EMULATOR_HOST,
    auth: process.env.FIREBASE_AUTH_EMULATOR_HOST,
    storage: process.env.FIREBASE_STORAGE_EMULATOR_HOST,
  };
}
