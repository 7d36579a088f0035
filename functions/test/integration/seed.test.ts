import { initializeApp, getApps } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { requireEmulators } from '../helpers/emulators';

beforeAll(requireEmulators);

describe('emulator-data import', () => {
  it('the seed written by scripts/seed.mjs is present', async () => {
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    const snap = await getFirestore(app).collection('meta').doc('seed').get();
    expect(snap.exists).toBe(true);
    expect(snap.get('version')).toBe(1);
  });
});
