import { initializeApp, getApps } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { requireEmulators } from '../helpers/emulators';
import { call } from '../helpers/api';
import { contractProblems } from '../helpers/contract';
import { DRIVER_LOCATIONS } from '../../src/modules/driver/driver.collections';
import { CHAT_MEMBERSHIPS } from '../../src/modules/chat/chat.collections';
import { META } from '../../src/platform/kits/firestore/collections';
import { USER_EMAILS } from '../../src/modules/users/users.model';
import { MERCHANTS } from '../../src/modules/merchants/merchants.collections';
import { HOTELS } from '../../src/modules/hotels/hotels.collections';
import { RENTAL_LISTINGS } from '../../src/modules/rentals/rentals.collections';
import { MEDICAL_CLINICS, MEDICAL_DOCTORS } from '../../src/modules/medical/medical.collections';
import { SCHOOLS } from '../../src/modules/schools/schools.collections';
import { HOME_SERVICE_PROVIDERS } from '../../src/modules/homeservices/homeservices.collections';

beforeAll(requireEmulators);

describe('emulator-data import', () => {
  it('the seed written by scripts/seed.mjs is present', async () => {
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    const snap = await getFirestore(app).collection(META).doc('seed').get();
    expect(snap.exists).toBe(true);
    expect(snap.get('version')).toBe(14);
    // Version 9 added the demo merchants (the commerce walkthrough in the README orders from them), 10 the hotels,
    // 11 the rental listings, clinics with their doctors, schools and home-service providers, 12 the social tab's
    // posts and the operators' content, 13 the help desk's canned replies and a ticket of Minh's (tested below), 14
    // the posts' rolled-up counts and the demo consumers' follower sets.
    const merchants = await getFirestore(app).getAll(
      ...Array.from({ length: 20 }, (_, i) => getFirestore(app).doc(`${MERCHANTS}/seed-merchant-${String(i + 1).padStart(2, '0')}`)),
    );
    expect(merchants.filter((m) => m.exists)).toHaveLength(20);
    const hotels = await getFirestore(app).getAll(...Array.from({ length: 8 }, (_, i) => getFirestore(app).doc(`${HOTELS}/seed-hotel-0${i + 1}`)));
    expect(hotels.filter((h) => h.exists)).toHaveLength(8);
    const firestore = getFirestore(app);
    const count = async (collection: string, prefix: string, n: number) =>
      (await firestore.getAll(...Array.from({ length: n }, (_, i) => firestore.doc(`${collection}/${prefix}-${String(i + 1).padStart(2, '0')}`)))).filter(
        (d) => d.exists,
      ).length;
    expect(await count(RENTAL_LISTINGS, 'seed-rental', 5)).toBe(5);
    expect(await count(MEDICAL_CLINICS, 'seed-clinic', 4)).toBe(4);
    expect(await count(SCHOOLS, 'seed-school', 4)).toBe(4);
    expect(await count(HOME_SERVICE_PROVIDERS, 'seed-homeservice', 4)).toBe(4);
    expect((await firestore.doc(`${MEDICAL_DOCTORS}/seed-clinic-01_bs_1`).get()).get('name')).toBe('BS. Nguyễn Văn An');
  });

  it("the demo consumers' social feeds and the published banners, pages and app configs are there", async () => {
    const login = async (email: string) => (await call('POST', '/auth/login/password', { body: { email, password: 'superapp-demo-user' } })).body;
    const lan = await login('lan@superapp.local');
    const feed = (await call('GET', '/social/posts/feed', { token: lan.accessToken })).body.items as Array<{
      id: string;
      text: string;
      counts: { likes: number; comments: number };
    }>;
    expect(feed.map((p) => p.id).sort()).toEqual(['seed-post-1', 'seed-post-2', 'seed-post-3', 'seed-post-4', 'seed-reel-1', 'seed-reel-2']);
    // The feed reads the counts rolled up into the posts: the seed's like and comment.
    expect(Object.fromEntries(feed.map((p) => [p.id, [p.counts.likes, p.counts.comments]]))).toMatchObject({ 'seed-post-1': [1, 0], 'seed-post-3': [0, 1] });
    const reels = (await call('GET', '/social/reels/feed', { token: lan.accessToken })).body.items as Array<{ id: string; reel: { durationSec: number } }>;
    // Her follows' reels first (popular public reels of others may follow them).
    expect(reels.slice(0, 2).map((r) => [r.id, r.reel.durationSec])).toEqual([
      ['seed-reel-2', 4],
      ['seed-reel-1', 4],
    ]);
    expect((await call('GET', '/social/posts/seed-post-1', { token: lan.accessToken })).body).toMatchObject({ counts: { likes: 1 }, likedByMe: true });
    const home = (await call('GET', '/cms/home?surface=CON&city=HO_CHI_MINH')).body;
    // The seed's (the integration tests, run before, publish their own too).
    const seeded = (items: Array<{ id?: string; slug?: string }>) =>
      items.map((i) => i.id ?? i.slug!).filter((id) => id.startsWith('seed-') || ['faq', 'privacy', 'terms'].includes(id));
    expect(seeded(home.banners)).toEqual(['seed-banner-ride-hcm', 'seed-banner-wallet']);
    expect(seeded(home.sections)).toEqual(['seed-section-services', 'seed-section-deals']);
    expect(seeded((await call('GET', '/cms/pages')).body.items)).toEqual(['faq', 'privacy', 'terms']);
    expect((await call('GET', '/cms/pages/faq')).body.faq[0].question.vi).toBe('Hoàn tiền mất bao lâu?');
    expect((await call('GET', '/cms/config/DRV?appVersion=1.0.0')).body).toMatchObject({ version: 1, flags: { cashPayouts: true }, update: 'REQUIRED' });
  });

  it("the help desk's canned replies and Minh's answered ticket are there; the assistant answers from the seeded FAQ", async () => {
    const admin = (await call('POST', '/auth/login/password', { body: { email: 'admin@superapp.local', password: 'superapp-dev-admin' } })).body;
    const canned = (await call('GET', '/support/admin/canned-replies?limit=100', { token: admin.accessToken })).body.items as Array<{ id: string }>;
    expect(canned.map((c) => c.id).filter((id) => id.startsWith('seed-'))).toEqual(['seed-canned-receipt', 'seed-canned-driver', 'seed-canned-refund']);
    const minh = (await call('POST', '/auth/login/password', { body: { email: 'minh@superapp.local', password: 'superapp-demo-user' } })).body;
    const thread = (await call('GET', '/support/tickets/seed-ticket-minh-late-driver/messages', { token: minh.accessToken })).body.items;
    expect(thread.map((m: { from: string }) => m.from)).toEqual(['USER', 'STAFF']);
    const queue = (await call('GET', '/support/admin/tickets?status=WAITING_USER&category=RIDE&limit=100', { token: admin.accessToken })).body.items;
    expect(queue.map((t: { id: string }) => t.id)).toContain('seed-ticket-minh-late-driver');
    const answer = (await call('POST', '/assistant/messages', { token: minh.accessToken, body: { text: 'hoan tien mat bao lau?' } })).body.answer;
    expect(answer.references.map((r: { type: string; id: string }) => [r.type, r.id])).toContainEqual(['PAGE', 'faq']);
  });

  it('the local administrator signs in with its documented password', async () => {
    const res = await call('POST', '/auth/login/password', { body: { email: 'admin@superapp.local', password: 'superapp-dev-admin' } });
    expect(res.status).toBe(200);
    expect(res.body.user.roles).toEqual(['USER', 'ADMIN']);
    // Every permission, explicitly (an empty list would grant none).
    expect(res.body.user.permissions).toEqual(['*']);
    expect((await call('GET', '/users/admin?limit=1', { token: res.body.accessToken })).status).toBe(200);
  });

  it('two demo consumers share a conversation with unread counts as the trigger keeps them', async () => {
    const login = async (email: string) => (await call('POST', '/auth/login/password', { body: { email, password: 'superapp-demo-user' } })).body;
    const [lan, minh] = [await login('lan@superapp.local'), await login('minh@superapp.local')];
    const list = (await call('GET', '/chat/conversations', { token: minh.accessToken })).body.items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'DIRECT',
      title: 'Nguyễn Thị Lan',
      unreadCount: 1,
      lastMessage: { senderId: lan.user.id, preview: 'Tuyệt quá, em đặt xe đón anh nhé.' },
    });
    const messages = (await call('GET', `/chat/conversations/${list[0].id}/messages`, { token: lan.accessToken })).body.items;
    expect(messages.map((m: { senderId: string }) => m.senderId)).toEqual([lan.user.id, minh.user.id, lan.user.id]);
    expect((await call('GET', '/chat/unread', { token: lan.accessToken })).body).toEqual({ unreadCount: 0, conversations: 0 });
  });

  it("Lan's wallet shows the seeded top-up and her transfer to Minh", async () => {
    const login = async (email: string) => (await call('POST', '/auth/login/password', { body: { email, password: 'superapp-demo-user' } })).body;
    const [lan, minh] = [await login('lan@superapp.local'), await login('minh@superapp.local')];
    expect((await call('GET', '/wallet', { token: lan.accessToken })).body).toMatchObject({ balance: 450_000, held: 0 });
    expect((await call('GET', '/wallet', { token: minh.accessToken })).body).toMatchObject({ balance: 50_000 });
    const history = (await call('GET', '/wallet/transactions', { token: lan.accessToken })).body.items;
    expect(history.map((e: { kind: string; direction: string; amount: number }) => [e.kind, e.direction, e.amount])).toEqual([
      ['P2P', 'OUT', 50_000],
      ['TOPUP', 'IN', 500_000],
    ]);
    expect((await call('GET', '/payments', { token: lan.accessToken })).body.items).toEqual([
      expect.objectContaining({ purpose: 'TOPUP', provider: 'MOCK', status: 'SUCCEEDED' }),
    ]);
  });

  it('thirty demo drivers sign in, each with a profile and a position in Ho Chi Minh City or Hanoi', async () => {
    const login = await call('POST', '/auth/login/password', { body: { email: 'driver01@superapp.local', password: 'superapp-demo-driver' } });
    expect(login.status).toBe(200);
    expect(login.body.user.roles).toEqual(['DRIVER']);
    const me = (await call('GET', '/driver/me', { token: login.body.accessToken })).body;
    expect(me).toMatchObject({ status: 'ONLINE', capabilities: expect.arrayContaining(['RIDE']), lastLocation: { lat: expect.closeTo(10.78, 1) } });
    const app = getApps()[0] ?? initializeApp({ projectId: 'demo-superapp' });
    const located = await getFirestore(app).collection(DRIVER_LOCATIONS).where('status', '==', 'ONLINE').get();
    expect(located.docs.filter((d) => d.id.startsWith('seed-driver-'))).toHaveLength(30);
    // Seeded as the API stores them: the published Firestore contract (times as Timestamps).
    for (const d of located.docs.filter((doc) => doc.id.startsWith('seed-driver-')))
      expect({ [d.id]: contractProblems('DriverLocationDocument', d.data()) }).toEqual({ [d.id]: [] });
    const members = await getFirestore(app)
      .collection(CHAT_MEMBERSHIPS)
      .where('userId', '==', (await getFirestore(app).doc(`${USER_EMAILS}/lan@superapp.local`).get()).get('userId'))
      .get();
    expect(members.size).toBe(1);
    for (const d of members.docs) expect({ [d.id]: contractProblems('ChatMembershipDocument', d.data()) }).toEqual({ [d.id]: [] });
  });

  it('the map tab: places, pharmacies with stock, parking, fuel and ATMs around both cities; vouchers; the demo partner manages its records', async () => {
    const lan = (await call('POST', '/auth/login/password', { body: { email: 'lan@superapp.local', password: 'superapp-demo-user' } })).body;
    const get = async (path: string) => (await call('GET', path, { token: lan.accessToken })).body;
    const benThanh = '&lat=10.7725&lng=106.698';
    expect((await get(`/places/nearby?radiusM=500${benThanh}`)).items[0]).toMatchObject({ name: 'Chợ Bến Thành', category: 'MARKET', distanceM: 0 });
    expect((await get('/places/search?q=pho')).items.map((p: { name: string }) => p.name)).toContain('Phở Hòa Pasteur');
    expect((await get(`/places/nearby?lat=21.0288&lng=105.8525&radiusM=2000&limit=100`)).items.length).toBeGreaterThan(10);
    const medicine = await get(`/pharmacy/products/search?q=panadol${benThanh}&radiusM=5000`);
    expect(medicine.items.length).toBeGreaterThan(0);
    expect(medicine.items[0].products[0]).toMatchObject({ sku: 'PANADOL-EXTRA', inStock: true });
    // 5 km: the smallest radius bound of these verticals (parking, ATMs).
    for (const path of ['/pharmacy/stores', '/parking/lots', '/fuel/stations', '/atm'])
      expect((await get(`${path}/nearby?radiusM=5000${benThanh}`)).items.length).toBeGreaterThan(2);
    expect((await get('/promotions')).items.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(['CHAOBAN', 'TET2027']));
    const partner = (await call('POST', '/auth/login/password', { body: { email: 'partner@superapp.local', password: 'superapp-demo-partner' } })).body;
    const mine = await call('GET', '/parking/lots/mine?partnerId=seed-partner&limit=100', { token: partner.accessToken });
    expect(mine.body.items).toHaveLength(15);
  });
});
