import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, signInWithCustomToken, type UserCredential } from 'firebase/auth';
import { connectFirestoreEmulator, getFirestore, type Firestore } from 'firebase/firestore';

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
