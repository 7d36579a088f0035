import { randomUUID } from 'node:crypto';
import { merchantsCatalogService } from '../../../src/modules/merchants';
import type { Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { withStaff } from '../../helpers/admins';
import { area } from '../../helpers/geo';
import { openMerchant, postMerchant } from '../../helpers/merchants';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

beforeAll(requireEmulators);

// The stores: the catalog kit's operations as merchants use them (nearby filters, search, scoping, moderation) and
// the module's own pause and resume.

const staffing = withStaff();
let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens, staff: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Quán Phở Thìn', 'Quán Đối Thủ'));
  staff = await staffOf(owner);
});

const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);
const nearby = (at: { lat: number; lng: number }, extra = '') =>
  call('GET', `/merchants/nearby?lat=${at.lat}&lng=${at.lng}&radiusM=3000${extra}`, { token: user.accessToken });
const NEVER = { weekly: [], open24h: false };

describe('merchants nearby', () => {
  it('nearest first, with their own fields; category, openNow, minRating and deliversHere filters', async () => {
    const here = area();
    const pho = await openMerchant(owner, here.near(200), { name: 'Phở Gia Truyền', deliveryRadiusM: 1_000 }, false);
    const tea = await openMerchant(owner, here.near(600), { name: 'Trà Sữa Mây', category: 'DRINKS', deliveryRadiusM: 3_000 }, false);
    const closed = await openMerchant(owner, here.near(900), { name: 'Cơm Đêm', openingHours: NEVER, deliveryRadiusM: 500 }, false);
    await openMerchant(owner, here.near(9_000), { name: 'Quán Xa' }, false);

    const all = await nearby(here);
    expect(ids(all)).toEqual([pho.id, tea.id, closed.id]);
    expect(all.body.items[0]).toMatchObject({
      name: 'Phở Gia Truyền',
      category: 'FOOD',
      deliveryRadiusM: 1_000,
      prepTimeMin: 15,
      minOrderVnd: 30_000,
      paused: false,
      openNow: true,
      menuSections: [
        { key: 'pho', name: 'Phở' },
        { key: 'do-uong', name: 'Đồ uống' },
      ],
      rating: { average: 0, count: 0 },
    });
    expect(ids(await nearby(here, '&category=DRINKS'))).toEqual([tea.id]);
    expect(ids(await nearby(here, '&openNow=true'))).toEqual([pho.id, tea.id]);
    // Delivers here: the 1 km radius of the store 200 m away and the 3 km one 600 m away reach; 500 m from 900 m does not.
    expect(ids(await nearby(here, '&deliversHere=true'))).toEqual([pho.id, tea.id]);

    // Ratings come from the reviews trigger; stored here as it stores them.
    await merchantsCatalogService().applyRating(tea.id, { average: 4.6, count: 12, asOf: Date.now() });
    expect(ids(await nearby(here, '&minRating=4.5'))).toEqual([tea.id]);
    expect((await nearby(here)).body.items[1].rating).toEqual({ average: 4.6, count: 12 });

    for (const bad of ['&category=SPA', '&minRating=6', '&minRating=abc', '&deliversHere=yes', '&radiusM=20000'])
      expect([bad, (await nearby(here, bad)).status]).toEqual([bad, 400]);
  });

  it('search folds diacritics: "pho" finds "Phở", "bun cha" finds "Bún Chả"', async () => {
    const tag = `zq${randomUUID().slice(0, 6)}`;
    const here = area();
    const pho = await openMerchant(owner, here, { name: `Phở Bát Đàn ${tag}` }, false);
    const bun = await openMerchant(owner, here.near(50), { name: `Bún Chả Hương Liên ${tag}` }, false);
    const search = (q: string) => call('GET', `/merchants/search?q=${encodeURIComponent(q)}`, { token: user.accessToken });
    expect(ids(await search(`pho ${tag}`))).toEqual([pho.id]);
    expect(ids(await search(`PHỞ ${tag}`))).toEqual([pho.id]);
    expect(ids(await search(`bun cha ${tag}`))).toEqual([bun.id]);
    expect(ids(await search(`huong ${tag}`))).toEqual([bun.id]);
    expect(ids(await search(`pizza ${tag}`))).toEqual([]);
    expect((await search('p')).status).toBe(400);
  });

  it('the category list', async () => {
    const res = await call('GET', '/merchants/categories', { token: user.accessToken });
    expect(res.body.categories).toContainEqual({ id: 'FOOD', en: 'Food', vi: 'Đồ ăn' });
    expect(res.body.categories.map((c: { id: string }) => c.id)).toEqual([
      'FOOD',
      'DRINKS',
      'BAKERY',
      'GROCERY',
      'CONVENIENCE',
      'FRUIT',
      'FLOWERS',
      'PHARMACY',
    ]);
  });
});

describe('managing merchants', () => {
  it('a store belongs to a partner its creator manages; consumers and other partners cannot create or change it', async () => {
    const here = area();
    const body = { name: 'Bánh Mì Phượng', category: 'FOOD', location: here, deliveryRadiusM: 3_000, prepTimeMin: 5, minOrderVnd: 0 };
    const curated = await postMerchant(admin, body);
    expect(curated.status).toBe(400);
    expect(curated.body.details).toContainEqual(expect.objectContaining({ field: 'body.partnerId' }));
    expect((await postMerchant(user, { ...body, partnerId: owner.partnerId })).body.code).toBe('ROLE_REQUIRED');
    expect((await postMerchant(rival, { ...body, partnerId: owner.partnerId })).body.code).toBe('CATALOG_NOT_MANAGER');
    for (const [field, value] of [
      ['deliveryRadiusM', 100],
      ['prepTimeMin', -1],
      ['minOrderVnd', 1.5],
      ['category', 'CASINO'],
    ] as const) {
      const bad = await postMerchant(owner, { ...body, partnerId: owner.partnerId, [field]: value });
      expect([field, bad.status, bad.body.details?.[0]?.field]).toEqual([field, 400, `body.${field}`]);
    }
    const dupSections = await postMerchant(owner, {
      ...body,
      partnerId: owner.partnerId,
      menuSections: [
        { key: 'a', name: 'A' },
        { key: 'a', name: 'B' },
      ],
    });
    expect(dupSections.body.details).toEqual([expect.objectContaining({ field: 'body.menuSections.1.key' })]);

    const made = await postMerchant(staff, { ...body, partnerId: owner.partnerId });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ partnerId: owner.partnerId, paused: false, menuSections: [], openNow: null });
    const patch = (who: Tokens, change: Record<string, unknown>) => call('PATCH', `/merchants/${made.body.id}`, { token: who.accessToken, body: change });
    expect((await patch(owner, { prepTimeMin: 8, minOrderVnd: 20_000 })).body).toMatchObject({ prepTimeMin: 8, minOrderVnd: 20_000 });
    expect((await patch(rival, { prepTimeMin: 1 })).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await patch(user, { prepTimeMin: 1 })).body.code).toBe('ROLE_REQUIRED');
    // Pause and sections have their own operations.
    expect((await patch(owner, { paused: true })).status).toBe(400);
    expect((await patch(owner, { menuSections: [] })).status).toBe(400);
    const mine = await call('GET', `/merchants/mine?partnerId=${owner.partnerId}`, { token: staff.accessToken });
    expect(ids(mine)).toContain(made.body.id);
    expect((await call('GET', `/merchants/mine?partnerId=${owner.partnerId}`, { token: rival.accessToken })).body.code).toBe('CATALOG_NOT_MANAGER');
  });

  it('pause and resume: by the store’s owner and staff, repeatable, shown on the store and its menu', async () => {
    const merchant = await openMerchant(owner, area());
    const move = (who: Tokens, action: 'pause' | 'resume', id = merchant.id) => call('POST', `/merchants/${id}/${action}`, { token: who.accessToken });
    expect((await move(staff, 'pause')).body).toMatchObject({ id: merchant.id, paused: true, openNow: true });
    expect((await move(owner, 'pause')).body.paused).toBe(true);
    const menu = await call('GET', `/merchants/${merchant.id}/menu`, { token: user.accessToken });
    expect(menu.body).toMatchObject({ paused: true, openNow: true, acceptingOrders: false });
    expect((await move(rival, 'pause')).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await move(user, 'resume')).body.code).toBe('ROLE_REQUIRED');
    expect((await move(owner, 'pause', 'no-such-merchant')).status).toBe(404);
    expect((await move(owner, 'resume')).body.paused).toBe(false);
    expect((await call('GET', `/merchants/${merchant.id}/menu`, { token: user.accessToken })).body.acceptingOrders).toBe(true);
  });

  it('administrators hide and restore; a hidden store and its menu are 404 to consumers, an archived one is read-only', async () => {
    const merchant = await openMerchant(owner, area());
    const hide = await call('POST', `/merchants/admin/${merchant.id}/hide`, { token: admin.accessToken, body: { reason: 'Ảnh món ăn sai sự thật' } });
    expect(hide.body).toMatchObject({ status: 'HIDDEN', statusReason: 'Ảnh món ăn sai sự thật' });
    expect((await call('POST', `/merchants/admin/${merchant.id}/hide`, { token: owner.accessToken, body: { reason: 'tự ẩn' } })).body.code).toBe(
      'ROLE_REQUIRED',
    );
    for (const path of [`/merchants/${merchant.id}`, `/merchants/${merchant.id}/menu`, `/merchants/${merchant.id}/items`])
      expect([path, (await call('GET', path, { token: user.accessToken })).status]).toEqual([path, 404]);
    // Its managers still see it, with the reason.
    expect((await call('GET', `/merchants/${merchant.id}/menu`, { token: staff.accessToken })).body.acceptingOrders).toBe(false);
    expect(
      (await call('GET', `/merchants/admin?status=HIDDEN&partnerId=${owner.partnerId}`, { token: admin.accessToken })).body.items.map(
        (m: { id: string }) => m.id,
      ),
    ).toContain(merchant.id);
    expect((await call('POST', `/merchants/admin/${merchant.id}/restore`, { token: admin.accessToken })).body.status).toBe('ACTIVE');
    expect((await call('GET', `/merchants/${merchant.id}/menu`, { token: user.accessToken })).status).toBe(200);

    expect((await call('DELETE', `/merchants/${merchant.id}`, { token: owner.accessToken })).body.status).toBe('ARCHIVED');
    expect((await call('POST', `/merchants/${merchant.id}/pause`, { token: owner.accessToken })).body.code).toBe('CATALOG_TRANSITION');
    const events = await call('GET', `/merchants/${merchant.id}/events`, { token: owner.accessToken });
    expect(events.body.events.map((e: { action: string; by: string }) => [e.action, e.by])).toEqual([
      ['archive', owner.user.id],
      ['restore', 'ADMIN'],
      ['hide', 'ADMIN'],
    ]);
  });
});

describe('administrators', () => {
  it('need catalog.manage for moderation; with it they moderate, but a partner’s menu and pause stay its managers’', async () => {
    const merchant = await openMerchant(owner, area());
    const [narrowed, moderator] = await Promise.all([staffing.limitedAdmin([]), staffing.limitedAdmin(['catalog.manage'])]);
    const send = (who: Tokens, method: string, path: string, body?: unknown) => call(method, path, { token: who.accessToken, ...(body ? { body } : {}) });
    const managerOps: Array<[string, string, unknown?]> = [
      ['POST', `/merchants/${merchant.id}/pause`],
      ['PUT', `/merchants/${merchant.id}/menu/sections`, { sections: [{ key: 'pho', name: 'Phở' }] }],
      ['POST', `/merchants/${merchant.id}/items/availability`, { items: [{ itemKey: 'pho-tai', available: false }] }],
      ['PUT', `/merchants/${merchant.id}/items/pho-tai`, { name: 'Phở', priceVnd: 1_000, categoryKey: 'pho' }],
    ];
    for (const [method, path, body] of [
      ...managerOps,
      ['GET', '/merchants/admin'],
      ['POST', `/merchants/admin/${merchant.id}/hide`, { reason: 'Kiểm tra' }],
    ] as const) {
      const res = await send(narrowed, method, path, body);
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'PERMISSION_REQUIRED']);
    }
    for (const [method, path, body] of managerOps) expect([path, (await send(moderator, method, path, body)).body.code]).toEqual([path, 'CATALOG_NOT_MANAGER']);
    expect((await send(moderator, 'POST', `/merchants/admin/${merchant.id}/hide`, { reason: 'Kiểm tra' })).body.status).toBe('HIDDEN');
    // Nothing of the refused changes went in.
    const menu = await send(owner, 'GET', `/merchants/${merchant.id}/menu`);
    expect([
      menu.body.paused,
      menu.body.sections.length,
      menu.body.sections[0].items.find((i: { itemKey: string }) => i.itemKey === 'pho-tai').available,
    ]).toEqual([false, 2, true]);
  });
});
