import { initializeApp, getApps } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { requireEmulators } from '../helpers/emulators';
import { call } from '../helpers/api';

beforeAll(requireEmulators);

describe('emulator-data import', () => {
  it('the seed written by scripts/seed.mjs is present', async () => {
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    const snap = await getFirestore(app).collection('meta').doc('seed').get();
    expect(snap.exists).toBe(true);
    expect(snap.get('version')).toBe(3);
  });

  it('the local administrator signs in with its documented password', async () => {
    const res = await call('POST', '/auth/login/password', { body: { email: 'admin@superapp.local', password: 'superapp-dev-admin' } });
    expect(res.status).toBe(200);
    expect(res.body.user.roles).toEqual(['USER', 'ADMIN']);
    // Every permission, explicitly (an empty list would grant none).
    expect(res.body.user.permissions).toEqual(['*']);
    expect((await call('GET', '/users/admin?limit=1', { token: res.body.accessToken })).status).toBe(200);
  });
});
