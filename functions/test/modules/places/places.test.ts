import { randomUUID } from 'node:crypto';
import type { Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { png } from '../../helpers/images';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

beforeAll(requireEmulators);

// The catalog kit through its first vertical: nearby, search, owner scoping, moderation, validation. The other
// catalogs (pharmacy, parking, fuel, ATMs) run the same kit; catalogs.test.ts checks their own fields and scoping.

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Quán Ngon', 'Quán Khác'));
});

const ALWAYS = { open24h: true };
const NEVER = { weekly: [] as unknown[], open24h: false };
const add = (who: Tokens, body: Record<string, unknown>) =>
  call('POST', '/places', { token: who.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
const place = (partnerId: string | undefined, at: { lat: number; lng: number }, extra: Record<string, unknown> = {}) => ({
  ...(partnerId ? { partnerId } : {}),
  name: 'Phở Hòa Pasteur',
  category: 'RESTAURANT',
  location: at,
  ...extra,
});

describe('places nearby', () => {
  it('nearest first with distances, filters by category and openNow, pages without gaps or repeats', async () => {
    const here = area();
    const made: string[] = [];
    for (const [i, [d, category, hours]] of (
      [
        [900, 'CAFE', ALWAYS],
        [100, 'RESTAURANT', ALWAYS],
        [500, 'RESTAURANT', NEVER],
        [2_500, 'RESTAURANT', ALWAYS],
        [4_000, 'RESTAURANT', ALWAYS],
      ] as const
    ).entries()) {
      const res = await add(owner, place(owner.partnerId, here.near(d), { name: `Quán số ${i}`, category, openingHours: hours }));
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const near = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=3000`, { token: user.accessToken });
    expect(near.status).toBe(200);
    expect(near.body.items.map((p: { id: string }) => p.id)).toEqual([made[1], made[2], made[0], made[3]]);
    expect(near.body.items.map((p: { distanceM: number }) => p.distanceM)).toEqual([100, 500, 900, 2_500].map((m) => expect.closeTo(m, -1)));
    expect(near.body.items[0]).toMatchObject({ name: 'Quán số 1', category: 'RESTAURANT', openNow: true, status: 'ACTIVE', rating: { average: 0, count: 0 } });

    const cafes = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=3000&category=CAFE`, { token: user.accessToken });
    expect(cafes.body.items.map((p: { id: string }) => p.id)).toEqual([made[0]]);
    const open = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=3000&openNow=true`, { token: user.accessToken });
    expect(open.body.items.map((p: { id: string }) => p.id)).toEqual([made[1], made[0], made[3]]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; nextCursor: string | null } } = await call(
        'GET',
        `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=5000&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: user.accessToken },
      );
      seen.push(...page.body.items.map((p) => p.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    // Other files' places may lie within 5 km of this random area: ours come in order, none twice, none missing.
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => made.includes(id))).toEqual([made[1], made[2], made[0], made[3], made[4]]);
    // A cursor belongs to its list and caller.
    const first = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=5000&limit=2`, { token: user.accessToken });
    expect(
      (await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=4000&limit=2&cursor=${first.body.nextCursor}`, { token: user.accessToken }))
        .body.code,
    ).toBe('INVALID_CURSOR');
    expect(
      (await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=5000&limit=2&cursor=${first.body.nextCursor}`, { token: admin.accessToken }))
        .body.code,
    ).toBe('INVALID_CURSOR');
  });

  it.each([
    ['lat=abc&lng=106.7', 'query.lat'],
    ['lat=10.7&lng=', 'query.lng'],
    ['lat=91&lng=106.7', 'query.lat'],
    ['lat=10.7', 'query.lng'],
    ['lat=10.7&lng=106.7&radiusM=0', 'query.radiusM'],
    ['lat=10.7&lng=106.7&category=SPA', 'query.category'],
    ['lat=10.7&lng=106.7&openNow=yes', 'query.openNow'],
  ])('bad query %s → 400 naming %s', async (qs, field) => {
    const res = await call('GET', `/places/nearby?${qs}`, { token: user.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('needs a signed-in user', async () => {
    expect((await call('GET', '/places/nearby?lat=10.7&lng=106.7')).status).toBe(401);
    expect((await call('GET', '/places/categories', { token: user.accessToken })).body.categories).toContainEqual({
      id: 'CAFE',
      en: 'Cafés',
      vi: 'Quán cà phê',
    });
  });
});

describe('places search', () => {
  it('folds case and Vietnamese diacritics, matches the start of each word, and shows only active places', async () => {
    const tag = `Zq${randomUUID().slice(0, 6)}`; // a word no other test's place has
    const here = area();
    const pho = (await add(owner, place(owner.partnerId, here.near(0), { name: `Phở Đường Phố ${tag}` }))).body;
    const bun = (await add(owner, place(owner.partnerId, here.near(50), { name: `Bún chả Hương Liên ${tag}` }))).body;
    const q = async (text: string) =>
      (await call('GET', `/places/search?q=${encodeURIComponent(text)}&lat=${here.lat}&lng=${here.lng}`, { token: user.accessToken })).body.items.map(
        (p: { id: string }) => p.id,
      );
    expect(await q(`pho ${tag}`)).toEqual([pho.id]);
    expect(await q(`PHỞ duong ${tag.toLowerCase()}`)).toEqual([pho.id]);
    expect(await q(`huong ${tag}`)).toEqual([bun.id]);
    expect((await q(tag)).sort()).toEqual([bun.id, pho.id].sort());
    expect(await q(`ong ${tag}`)).toEqual([]); // inside a word is not a match
    expect(
      (await call('GET', `/places/search?q=${tag}&lat=${here.lat}&lng=${here.lng}`, { token: user.accessToken })).body.items[0].distanceM,
    ).toBeGreaterThanOrEqual(0);
    await call('POST', `/places/admin/${pho.id}/hide`, { token: admin.accessToken, body: { reason: 'Sai địa chỉ' } });
    expect(await q(tag)).toEqual([bun.id]);
    expect((await call('GET', '/places/search?q=a', { token: user.accessToken })).status).toBe(400);
    expect((await call('GET', `/places/search?q=${tag}&lat=10`, { token: user.accessToken })).status).toBe(400);
  });
});

describe('places management', () => {
  it('the partner’s owner and staff manage their places; another partner, a consumer and a stranger cannot', async () => {
    const here = area();
    const created = await add(
      owner,
      place(owner.partnerId, here.near(0), {
        description: 'Phở bò tái',
        phone: '028 3829 7943',
        openingHours: { weekly: [{ day: 'MON', open: '06:00', close: '22:00' }] },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ partnerId: owner.partnerId, openingHours: { timeZone: 'Asia/Ho_Chi_Minh', open24h: false }, photos: [] });
    const id = created.body.id;

    expect((await add(rival, place(owner.partnerId, here.near(0)))).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await add(owner, place(undefined, here.near(0)))).body.code).toBe('CATALOG_NOT_MANAGER'); // curated places are the admins'
    expect((await add(user, place(owner.partnerId, here.near(0)))).body.code).toBe('ROLE_REQUIRED');
    const patchBy = (who: Tokens, body: Record<string, unknown>) => call('PATCH', `/places/${id}`, { token: who.accessToken, body });
    expect((await patchBy(rival, { name: 'Của tôi' })).status).toBe(403);
    expect((await call('DELETE', `/places/${id}`, { token: rival.accessToken })).status).toBe(403);
    expect((await call('GET', `/places/mine?partnerId=${owner.partnerId}`, { token: rival.accessToken })).status).toBe(403);
    expect((await call('GET', `/places/${id}/events`, { token: rival.accessToken })).status).toBe(403);

    const staff = await staffOf(owner);
    const moved = await patchBy(staff, { name: 'Phở Hòa', location: here.near(300), description: null, priceLevel: 2 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ name: 'Phở Hòa', description: null, phone: '+842838297943', priceLevel: 2, category: 'RESTAURANT' });
    const near = await call('GET', `/places/nearby?lat=${here.near(300).lat}&lng=${here.near(300).lng}&radiusM=50`, { token: user.accessToken });
    expect(near.body.items.map((p: { id: string }) => p.id)).toEqual([id]);
    const mine = await call('GET', `/places/mine?partnerId=${owner.partnerId}`, { token: staff.accessToken });
    expect(mine.body.items.map((p: { id: string }) => p.id)).toContain(id);

    expect((await patchBy(owner, {})).status).toBe(400);
    expect((await patchBy(owner, { openingHours: { weekly: [{ day: 'MON', open: '25:00', close: '22:00' }] } })).status).toBe(400);
    expect((await patchBy(owner, { openingHours: { timeZone: 'Mars/Olympus' } })).status).toBe(400);
    expect((await patchBy(owner, { category: 'SPA' })).status).toBe(400);
    expect((await call('PATCH', `/places/${randomUUID()}`, { token: owner.accessToken, body: { name: 'Không có' } })).status).toBe(404);
  });

  it('photos are the manager’s own READY image uploads', async () => {
    const here = area();
    const form = new FormData();
    form.append('file', new Blob([png()], { type: 'image/png' }), 'front.png');
    const photo = (await call('POST', '/upload/image', { token: owner.accessToken, form })).body;
    const othersForm = new FormData();
    othersForm.append('file', new Blob([png()], { type: 'image/png' }), 'x.png');
    const others = (await call('POST', '/upload/image', { token: rival.accessToken, form: othersForm })).body;
    const withPhoto = await add(owner, place(owner.partnerId, here.near(0), { photoIds: [photo.id] }));
    expect(withPhoto.body.photos).toEqual([{ id: photo.id, url: photo.publicUrl }]);
    const refused = await add(owner, place(owner.partnerId, here.near(0), { photoIds: [photo.id, others.id] }));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'CATALOG_PHOTO_INVALID', details: { photoIds: [others.id] } });
  });

  it('administrators curate places without a partner, hide with a reason, restore; the owner archives; each move is recorded', async () => {
    const here = area();
    const curated = await add(admin, place(undefined, here.near(0), { name: 'Nhà thờ Đức Bà', category: 'ATTRACTION' }));
    expect(curated.status).toBe(201);
    expect(curated.body.partnerId).toBeNull();
    expect((await call('PATCH', `/places/${curated.body.id}`, { token: owner.accessToken, body: { name: 'Mine' } })).status).toBe(403);

    const id = (await add(owner, place(owner.partnerId, here.near(10)))).body.id;
    const hidden = await call('POST', `/places/admin/${id}/hide`, { token: admin.accessToken, body: { reason: 'Ảnh không phù hợp' } });
    expect(hidden.body).toMatchObject({ status: 'HIDDEN', statusReason: 'Ảnh không phù hợp' });
    expect((await call('POST', `/places/admin/${id}/hide`, { token: admin.accessToken, body: { reason: 'again' } })).body.code).toBe('CATALOG_TRANSITION');
    expect((await call('POST', `/places/admin/${id}/hide`, { token: owner.accessToken, body: { reason: 'self' } })).body.code).toBe('ROLE_REQUIRED');
    expect((await call('GET', `/places/${id}`, { token: user.accessToken })).status).toBe(404);
    expect((await call('GET', `/places/${id}`, { token: rival.accessToken })).status).toBe(404);
    expect((await call('GET', `/places/${id}`, { token: owner.accessToken })).body.status).toBe('HIDDEN');
    const nearby = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=100`, { token: user.accessToken });
    expect(nearby.body.items.map((p: { id: string }) => p.id)).toEqual([curated.body.id]);
    const queue = await call('GET', `/places/admin?status=HIDDEN&partnerId=${owner.partnerId}`, { token: admin.accessToken });
    expect(queue.body.items.map((p: { id: string }) => p.id)).toContain(id);

    expect((await call('POST', `/places/admin/${id}/restore`, { token: admin.accessToken })).body).toMatchObject({ status: 'ACTIVE', statusReason: null });
    expect((await call('GET', `/places/${id}`, { token: user.accessToken })).status).toBe(200);
    expect((await call('DELETE', `/places/${id}`, { token: owner.accessToken })).body.status).toBe('ARCHIVED');
    expect((await call('PATCH', `/places/${id}`, { token: owner.accessToken, body: { name: 'Mở lại' } })).body.code).toBe('CATALOG_TRANSITION');
    expect((await call('DELETE', `/places/${id}`, { token: owner.accessToken })).body.code).toBe('CATALOG_TRANSITION');
    const events = await call('GET', `/places/${id}/events`, { token: owner.accessToken });
    expect(events.body.events.map((e: { action: string; to: string }) => `${e.action}:${e.to}`)).toEqual(['archive:ARCHIVED', 'restore:ACTIVE', 'hide:HIDDEN']);
    // The owner sees that an administrator hid it, not which one; an administrator with catalog.manage sees who.
    expect(events.body.events[2]).toMatchObject({ by: 'ADMIN', reason: 'Ảnh không phù hợp' });
    const staffView = await call('GET', `/places/${id}/events`, { token: admin.accessToken });
    expect(staffView.body.events[2]).toMatchObject({ by: admin.user.id, reason: 'Ảnh không phù hợp' });
  });
});
