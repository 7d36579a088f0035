import { randomUUID } from 'node:crypto';
import { db as platformDb } from '../../../src/platform/core/firebase/firebase';
import { backfillDriverCapabilities } from '../../../src/modules/driver/driver.backfill';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { API, requireEmulators } from '../../helpers/emulators';
import { FIXTURES, uploadPaper } from '../../helpers/papers';
import { DRIVER_PROFILES } from '../../../src/modules/driver/driver.collections';

beforeAll(requireEmulators);

let owner: Tokens & { email: string };
let applicationId: string;
beforeAll(async () => {
  owner = await registerVerified();
  const applied = await call('POST', '/partners/register', { token: owner.accessToken, body: { businessName: 'Papers Co', businessType: 'FNB' } });
  applicationId = applied.body.id;
});

const download = (id: string, token: string) => fetch(`${API}/kyc/papers/${id}/file`, { headers: { authorization: `Bearer ${token}` } });

describe('KYC papers', () => {
  it.each([
    ['JPEG', FIXTURES.jpeg, 'image/jpeg'],
    ['PNG', FIXTURES.png, 'image/png'],
    ['WebP', FIXTURES.webp, 'image/webp'],
    ['PDF', FIXTURES.pdf, 'application/pdf'],
  ])('stores a %s and serves the exact bytes back to its owner', async (_label, data, type) => {
    const res = await uploadPaper(owner.accessToken, { applicationId, kind: 'OTHER', file: { data, type, name: 'scan' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ applicationId, kind: 'OTHER', contentType: type, sizeBytes: data.length });
    const file = await download(res.body.id, owner.accessToken);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(type);
    expect(Buffer.from(await file.arrayBuffer()).equals(data)).toBe(true);
  });

  it('reads the type from the bytes: a disguised or unknown file is 415', async () => {
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY', file: { data: FIXTURES.png, type: 'application/pdf' } })).status).toBe(415);
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY', file: { data: FIXTURES.text, type: 'image/png' } })).status).toBe(415);
  });

  it('refuses bad forms: no file, wrong field, unknown kind, not multipart, too large', async () => {
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY' })).status).toBe(400);
    expect(
      (await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY', field: 'papers', file: { data: FIXTURES.png, type: 'image/png' } })).status,
    ).toBe(400);
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'SELFIE', file: { data: FIXTURES.png, type: 'image/png' } })).status).toBe(400);
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'DRIVER_LICENCE', file: { data: FIXTURES.png, type: 'image/png' } })).status).toBe(400);
    expect((await call('POST', '/kyc/papers', { token: owner.accessToken, body: { applicationId } })).status).toBe(415);
    const big = Buffer.concat([FIXTURES.png, Buffer.alloc(10 * 1024 * 1024 + 1 - FIXTURES.png.length)]);
    expect((await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY', file: { data: big, type: 'image/png' } })).status).toBe(413);
  });

  it('is private: 401 anonymous, 404 for another user and for their application; admins may read', async () => {
    const paper = await uploadPaper(owner.accessToken, { applicationId, kind: 'IDENTITY', file: { data: FIXTURES.jpeg, type: 'image/jpeg' } });
    const stranger = await registerVerified();
    expect((await uploadPaper(undefined, { applicationId, kind: 'IDENTITY', file: { data: FIXTURES.jpeg, type: 'image/jpeg' } })).status).toBe(401);
    expect((await download(paper.body.id, stranger.accessToken)).status).toBe(404);
    expect((await uploadPaper(stranger.accessToken, { applicationId, kind: 'IDENTITY', file: { data: FIXTURES.jpeg, type: 'image/jpeg' } })).status).toBe(404);
    expect((await call('DELETE', `/kyc/papers/${paper.body.id}`, { token: stranger.accessToken })).status).toBe(404);
    const admin = await adminTokens();
    expect((await download(paper.body.id, admin.accessToken)).status).toBe(200);
    // The owner lists and deletes it while the application is open.
    const mine = await call('GET', '/kyc/papers', { token: owner.accessToken });
    expect(mine.body.papers.some((p: { id: string }) => p.id === paper.body.id)).toBe(true);
    expect((await call('DELETE', `/kyc/papers/${paper.body.id}`, { token: owner.accessToken })).status).toBe(200);
    expect((await download(paper.body.id, owner.accessToken)).status).toBe(404);
  });
});

describe('driver capability backfill', () => {
  it('gives approved drivers without capabilities the default set, and a second run changes nothing', async () => {
    // The same Firestore handle the backfill uses.
    const db = platformDb();
    const missing = `backfill-${randomUUID()}`;
    const empty = `backfill-${randomUUID()}`;
    const set = `backfill-${randomUUID()}`;
    const notApproved = `backfill-${randomUUID()}`;
    await db.collection(DRIVER_PROFILES).doc(missing).set({ userId: missing, approvedAt: Date.now(), updatedAt: 1 });
    await db.collection(DRIVER_PROFILES).doc(empty).set({ userId: empty, approvedAt: Date.now(), capabilities: [], updatedAt: 1 });
    await db
      .collection(DRIVER_PROFILES)
      .doc(set)
      .set({ userId: set, approvedAt: Date.now(), capabilities: ['SCHOOL_TRIP'], updatedAt: 1 });
    await db.collection(DRIVER_PROFILES).doc(notApproved).set({ userId: notApproved, approvedAt: null, updatedAt: 1 });

    const first = await backfillDriverCapabilities();
    expect(first.updated).toBeGreaterThanOrEqual(2);
    for (const id of [missing, empty])
      expect((await db.collection(DRIVER_PROFILES).doc(id).get()).get('capabilities')).toEqual(['RIDE', 'COURIER', 'DELIVERY']);
    expect((await db.collection(DRIVER_PROFILES).doc(set).get()).get('capabilities')).toEqual(['SCHOOL_TRIP']);
    expect((await db.collection(DRIVER_PROFILES).doc(notApproved).get()).get('capabilities')).toBeUndefined();

    const second = await backfillDriverCapabilities();
    expect(second.updated).toBe(0);
  });
});
