import { authAdmin, db } from '../../platform/core/firebase/firebase';

// Firestore access of the health module: one document read that touches no user data.
export async function pingFirestore(): Promise<void> {
  await db().collection('_health').doc('ping').get();
}

// "user not found" proves the Auth backend answered.
export async function pingAuth(): Promise<void> {
  try {
    await authAdmin().getUser('health-probe-nonexistent-user');
  } catch (err) {
    if ((err as { code?: string }).code === 'auth/user-not-found') return;
    throw err;
  }
}
