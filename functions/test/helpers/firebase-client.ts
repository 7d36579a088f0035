import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, signInWithCustomToken, type UserCredential } from 'firebase/auth';
import { connectFirestoreEmulator, getFirestore, onSnapshot, type DocumentData, type Firestore, type Query, type QuerySnapshot } from 'firebase/firestore';

// An app instance signed in with a custom token from POST /auth/firebase-token, on the emulators, as a
// client app would be. `close()` when done.
export async function signedInClient(
  customToken: string,
  name: string,
): Promise<{ app: FirebaseApp; firestore: Firestore; signedIn: UserCredential; close: () => Promise<void> }> {
  const app = initializeApp({ projectId: 'demo-superapp', apiKey: 'demo-key' }, `${name}-${Date.now()}-${Math.random()}`);
  try {
    const auth = getAuth(app);
    connectAuthEmulator(auth, `http://${process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099'}`, { disableWarnings: true });
    const firestore = getFirestore(app);
    const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? '127.0.0.1:8080').split(':');
    connectFirestoreEmulator(firestore, host, Number(port));
    const signedIn = await signInWithCustomToken(auth, customToken);
    return { app, firestore, signedIn, close: () => deleteApp(app) };
  } catch (err) {
    await deleteApp(app);
    throw err;
  }
}

export interface Listening<T> {
  /** The first value `pick` finds in a snapshot from the server; rejects after `timeoutMs` with what was seen. */
  heard: Promise<T>;
  stop: () => void;
}

/**
 * Listens to `query` as an app does and resolves once the listener is in sync with the server (a snapshot not from
 * the cache), so what the test does next is heard over a live stream. A loaded machine can leave the SDK's first
 * connection offline for a while (it then answers from the empty cache and backs off): waiting for the sync, rather
 * than for the awaited document, keeps that apart from a document that never comes.
 */
export async function listenInSync<T>(
  q: Query<DocumentData>,
  pick: (snap: QuerySnapshot<DocumentData>) => T | undefined,
  { syncMs = 60_000, timeoutMs = 60_000 } = {},
): Promise<Listening<T>> {
  let synced!: () => void;
  let failed!: (err: Error) => void;
  const inSync = new Promise<void>((resolve, reject) => ((synced = resolve), (failed = reject)));
  let found: ((value: T) => void) | undefined;
  let lost: ((err: Error) => void) | undefined;
  let first: T | undefined;
  let snapshots = 0;
  const stop = onSnapshot(
    q,
    { includeMetadataChanges: true },
    (snap) => {
      if (snap.metadata.fromCache) return;
      snapshots += 1;
      synced();
      const value = pick(snap);
      if (value === undefined) return;
      if (found) found(value);
      else first ??= value;
    },
    (err) => {
      failed(err);
      lost?.(err);
    },
  );
  const syncTimer = setTimeout(() => failed(new Error(`the listener had no snapshot from the server within ${syncMs} ms`)), syncMs);
  try {
    await inSync;
  } catch (err) {
    stop();
    throw err;
  } finally {
    clearTimeout(syncTimer);
  }
  const heard = new Promise<T>((resolve, reject) => {
    if (first !== undefined) return resolve(first);
    const timer = setTimeout(() => reject(new Error(`nothing awaited arrived within ${timeoutMs} ms (${snapshots} server snapshots)`)), timeoutMs);
    found = (value) => (clearTimeout(timer), resolve(value));
    lost = (err) => (clearTimeout(timer), reject(err));
  });
  heard.then(stop, stop);
  return { heard, stop };
}
