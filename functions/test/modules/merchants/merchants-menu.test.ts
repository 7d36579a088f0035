import type { Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { png } from '../../helpers/images';
import { BOWL_OPTIONS, openMerchant, putItem } from '../../helpers/merchants';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

beforeAll(requireEmulators);

// Menus: items as the catalog kit's child items (option groups, availability, counted stock, photos), the menu
// screen, its sections and bulk availability.

let owner: PartnerOwner, rival: PartnerOwner, user: Tokens, staff: Tokens, admin: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Quán Bún Chả', 'Quán Bên Cạnh'));
  staff = await staffOf(owner);
});

const menuOf = (id: string, who: Tokens = user) => call('GET', `/merchants/${id}/menu`, { token: who.accessToken });
const fields = (res: { body: { details?: Array<{ field: string }> } }) => (res.body.details ?? []).map((d) => d.field);

describe('menu items', () => {
  it('option groups are checked: min ≤ max ≤ choices, unique keys, a required group asks for one', async () => {
    const merchant = await openMerchant(owner, area(), {}, false);
    const put = (body: Record<string, unknown>) =>
      putItem(owner, merchant.id, 'pho-tai', { name: 'Phở bò tái', priceVnd: 55_000, categoryKey: 'pho', ...body });
    const group = (extra: Record<string, unknown>) => ({ key: 'size', name: 'Cỡ tô', max: 1, choices: [{ key: 'nho', name: 'Nhỏ' }], ...extra });
    expect(fields(await put({ optionGroups: [group({ max: 2 })] }))).toEqual(['body.optionGroups.0.max']);
    expect(fields(await put({ optionGroups: [group({ min: 2, max: 1 })] }))).toEqual(['body.optionGroups.0.min']);
    expect(fields(await put({ optionGroups: [group({ required: true, min: 0 })] }))).toEqual(['body.optionGroups.0.min']);
    expect(fields(await put({ optionGroups: [group({}), group({})] }))).toEqual(['body.optionGroups.1.key']);
    expect(
      fields(
        await put({
          optionGroups: [
            group({
              choices: [
                { key: 'a', name: 'A' },
                { key: 'a', name: 'B' },
              ],
            }),
          ],
        }),
      ),
    ).toEqual(['body.optionGroups.0.choices.1.key']);
    expect(fields(await put({ optionGroups: [group({ choices: [{ key: 'x', name: 'X', priceDeltaVnd: -1 }] })] }))).toEqual([
      'body.optionGroups.0.choices.0.priceDeltaVnd',
    ]);
    expect(fields(await put({ priceVnd: 1_000.5 }))).toEqual(['body.priceVnd']);
    expect(fields(await put({ stock: -1 }))).toEqual(['body.stock']);
    expect(fields(await put({ categoryKey: 'lau' }))).toEqual(['body.categoryKey']);
    expect((await putItem(owner, merchant.id, 'bad key!', { name: 'X', priceVnd: 1, categoryKey: 'pho' })).status).toBe(404);

    // min follows required: a required group without min asks for one choice; an optional one for none.
    const ok = await put({ optionGroups: BOWL_OPTIONS });
    expect(ok.status).toBe(200);
    expect(ok.body.optionGroups.map((g: { key: string; required: boolean; min: number; max: number }) => [g.key, g.required, g.min, g.max])).toEqual([
      ['size', true, 1, 1],
      ['them', false, 0, 2],
    ]);
    expect(ok.body).toMatchObject({ merchantId: merchant.id, itemKey: 'pho-tai', available: true, stock: null, inStock: true, photos: [] });
  });

  it('partners manage only their own menus; consumers see no stock counts', async () => {
    const merchant = await openMerchant(owner, area());
    const body = { name: 'Phở chua', priceVnd: 40_000, categoryKey: 'pho' };
    expect((await putItem(rival, merchant.id, 'pho-chua', body)).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await putItem(user, merchant.id, 'pho-chua', body)).body.code).toBe('ROLE_REQUIRED');
    expect((await putItem(staff, merchant.id, 'pho-chua', body)).status).toBe(200);
    expect((await call('DELETE', `/merchants/${merchant.id}/items/pho-chua`, { token: rival.accessToken })).status).toBe(403);
    expect((await call('DELETE', `/merchants/${merchant.id}/items/pho-chua`, { token: staff.accessToken })).status).toBe(200);

    const stockOf = async (who: Tokens) =>
      Object.fromEntries(
        (await call('GET', `/merchants/${merchant.id}/items`, { token: who.accessToken })).body.items.map((i: { itemKey: string; stock?: number | null }) => [
          i.itemKey,
          'stock' in i ? i.stock : 'hidden',
        ]),
      );
    expect(await stockOf(owner)).toEqual({ 'nuoc-sam': 0, 'pho-dac-biet': 3, 'pho-tai': null, 'tra-da': null });
    expect(await stockOf(admin)).toEqual({ 'nuoc-sam': 0, 'pho-dac-biet': 3, 'pho-tai': null, 'tra-da': null });
    expect(await stockOf(user)).toEqual({ 'nuoc-sam': 'hidden', 'pho-dac-biet': 'hidden', 'pho-tai': 'hidden', 'tra-da': 'hidden' });
    expect(await stockOf(rival)).toEqual({ 'nuoc-sam': 'hidden', 'pho-dac-biet': 'hidden', 'pho-tai': 'hidden', 'tra-da': 'hidden' });
    const orderable = await call('GET', `/merchants/${merchant.id}/items?inStock=true`, { token: user.accessToken });
    expect(orderable.body.items.map((i: { itemKey: string }) => i.itemKey)).toEqual(['pho-tai', 'pho-dac-biet']); // by name: "phở bò tái" < "phở đặc biệt"
  });

  it('photos are the manager’s READY uploads and stay when another staff member saves the item', async () => {
    const merchant = await openMerchant(owner, area(), {}, false);
    const upload = async (who: Tokens) => {
      const form = new FormData();
      form.append('file', new Blob([png()], { type: 'image/png' }), 'pho.png');
      return (await call('POST', '/upload/image', { token: who.accessToken, form })).body;
    };
    const [mine, theirs] = await Promise.all([upload(owner), upload(rival)]);
    const body = { name: 'Phở bò tái', priceVnd: 55_000, categoryKey: 'pho' };
    const withPhoto = await putItem(owner, merchant.id, 'pho-tai', { ...body, photoIds: [mine.id] });
    expect(withPhoto.body.photos).toEqual([{ id: mine.id, url: mine.publicUrl }]);
    expect((await putItem(owner, merchant.id, 'pho-tai', { ...body, photoIds: [mine.id, theirs.id] })).body).toMatchObject({
      code: 'CATALOG_PHOTO_INVALID',
      details: { photoIds: [theirs.id] },
    });
    // The owner's photo is already on the item: staff keep it when they change the price.
    expect((await putItem(staff, merchant.id, 'pho-tai', { ...body, priceVnd: 60_000, photoIds: [mine.id] })).body.photos).toEqual([
      { id: mine.id, url: mine.publicUrl },
    ]);
    expect((await menuOf(merchant.id)).body.sections[0].items[0].photos).toEqual([{ id: mine.id, url: mine.publicUrl }]);
  });
});

describe('the menu screen', () => {
  it('sections in order, items by position then name, available and soldOut flags, no stock counts', async () => {
    const merchant = await openMerchant(owner, area());
    await putItem(owner, merchant.id, 'pho-ga', { name: 'Phở gà', priceVnd: 50_000, categoryKey: 'pho', position: 1 });
    await putItem(owner, merchant.id, 'ca-phe', { name: 'Cà phê sữa đá', priceVnd: 25_000, categoryKey: 'do-uong', description: 'Phin truyền thống' });
    const menu = await menuOf(merchant.id);
    expect(menu.status).toBe(200);
    expect(menu.body).toMatchObject({ merchantId: merchant.id, acceptingOrders: true, openNow: true, paused: false });
    expect(
      menu.body.sections.map((s: { key: string; name: string; items: Array<{ itemKey: string }> }) => [s.key, s.name, s.items.map((i) => i.itemKey)]),
    ).toEqual([
      ['pho', 'Phở', ['pho-ga', 'pho-tai', 'pho-dac-biet']],
      ['do-uong', 'Đồ uống', ['ca-phe', 'nuoc-sam', 'tra-da']],
    ]);
    const drinks = menu.body.sections[1].items;
    expect(drinks.map((i: { available: boolean; soldOut: boolean }) => [i.available, i.soldOut])).toEqual([
      [true, false],
      [true, true],
      [false, false],
    ]);
    expect(drinks[0].description).toBe('Phin truyền thống');
    for (const section of menu.body.sections)
      for (const item of section.items) {
        expect(item).not.toHaveProperty('stock');
        expect(item).not.toHaveProperty('updatedBy');
      }
    expect(menu.body.sections[0].items[1].optionGroups[0]).toMatchObject({ key: 'size', required: true, min: 1, max: 1 });
    expect((await call('GET', '/merchants/no-such-merchant/menu', { token: user.accessToken })).status).toBe(404);
  });

  it('sections: renamed and reordered by their managers; one still holding items cannot be removed', async () => {
    const merchant = await openMerchant(owner, area());
    const set = (who: Tokens, sections: unknown) => call('PUT', `/merchants/${merchant.id}/menu/sections`, { token: who.accessToken, body: { sections } });
    const renamed = [
      { key: 'do-uong', name: 'Nước uống' },
      { key: 'pho', name: 'Phở Hà Nội' },
      { key: 'mon-them', name: 'Món thêm' },
    ];
    expect((await set(staff, renamed)).body).toEqual({ sections: renamed });
    expect((await menuOf(merchant.id)).body.sections.map((s: { name: string }) => s.name)).toEqual(['Nước uống', 'Phở Hà Nội']);
    const removed = await set(owner, [{ key: 'pho', name: 'Phở' }]);
    expect(removed.status).toBe(409);
    expect(removed.body).toMatchObject({ code: 'MENU_SECTION_NOT_EMPTY', details: { sections: ['do-uong'] } });
    // An empty section goes freely.
    expect((await set(owner, renamed.slice(0, 2))).status).toBe(200);
    expect(
      fields(
        await set(owner, [
          { key: 'a', name: 'A' },
          { key: 'a', name: 'B' },
        ]),
      ),
    ).toEqual(['body.sections.1.key']);
    expect(fields(await set(owner, [{ key: 'bad key', name: 'A' }]))).toEqual(['body.sections.0.key']);
    expect((await set(rival, renamed)).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await set(user, renamed)).body.code).toBe('ROLE_REQUIRED');
  });
});

describe('bulk availability', () => {
  const toggle = (who: Tokens, id: string, items: unknown) => call('POST', `/merchants/${id}/items/availability`, { token: who.accessToken, body: { items } });

  it('turns many items off and on at once, all or nothing', async () => {
    const merchant = await openMerchant(owner, area());
    const off = await toggle(staff, merchant.id, [
      { itemKey: 'pho-tai', available: false },
      { itemKey: 'tra-da', available: true },
    ]);
    expect(off.status).toBe(200);
    expect(off.body.items.map((i: { itemKey: string; available: boolean; inStock: boolean }) => [i.itemKey, i.available, i.inStock])).toEqual([
      ['pho-tai', false, false],
      ['tra-da', true, true],
    ]);
    // An unknown key: 400 naming it, and nothing changed.
    const unknown = await toggle(owner, merchant.id, [
      { itemKey: 'pho-tai', available: true },
      { itemKey: 'bun-bo', available: false },
    ]);
    expect([unknown.status, fields(unknown)]).toEqual([400, ['body.items.1.itemKey']]);
    const pho = (await menuOf(merchant.id)).body.sections[0].items.find((i: { itemKey: string }) => i.itemKey === 'pho-tai');
    expect(pho.available).toBe(false);
    // Turning a sold-out item on keeps it sold out.
    expect((await toggle(owner, merchant.id, [{ itemKey: 'nuoc-sam', available: true }])).body.items[0]).toMatchObject({ available: true, inStock: false });

    expect(
      fields(
        await toggle(owner, merchant.id, [
          { itemKey: 'pho-tai', available: true },
          { itemKey: 'pho-tai', available: false },
        ]),
      ),
    ).toEqual(['body.items.1.itemKey']);
    expect(fields(await toggle(owner, merchant.id, []))).toEqual(['body.items']);
    expect(fields(await toggle(owner, merchant.id, [{ itemKey: 'pho-tai', available: 'no' }]))).toEqual(['body.items.0.available']);
    expect((await toggle(rival, merchant.id, [{ itemKey: 'pho-tai', available: true }])).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await toggle(user, merchant.id, [{ itemKey: 'pho-tai', available: true }])).body.code).toBe('ROLE_REQUIRED');
  });

  it('at most 200 keys in one call', async () => {
    const merchant = await openMerchant(owner, area(), {}, false);
    const many = Array.from({ length: 201 }, (_, i) => ({ itemKey: `mon-${i}`, available: false }));
    expect(fields(await toggle(owner, merchant.id, many))).toEqual(['body.items']);
    const keys = Array.from({ length: 200 }, (_, i) => `mon-${i}`);
    for (let i = 0; i < keys.length; i += 25)
      await Promise.all(keys.slice(i, i + 25).map((key) => putItem(owner, merchant.id, key, { name: `Món số ${key}`, priceVnd: 10_000, categoryKey: 'pho' })));
    const all = await toggle(
      owner,
      merchant.id,
      keys.map((itemKey) => ({ itemKey, available: false })),
    );
    expect(all.status).toBe(200);
    expect(all.body.items.every((i: { available: boolean }) => !i.available)).toBe(true);
    const menu = await menuOf(merchant.id);
    expect(menu.body.sections[0].items).toHaveLength(200);
    expect(menu.body.sections[0].items.every((i: { available: boolean }) => !i.available)).toBe(true);
  });
});

describe('which merchant near me has it', () => {
  it('finds orderable dishes by folded words, nearest store first', async () => {
    const here = area();
    const near = await openMerchant(owner, here.near(300));
    const far = await openMerchant(owner, here.near(1_200));
    await putItem(owner, far.id, 'bun-bo', { name: 'Bún bò Huế', priceVnd: 50_000, categoryKey: 'pho' });
    await putItem(owner, near.id, 'bun-bo', { name: 'Bún bò Huế', priceVnd: 55_000, categoryKey: 'pho', available: false });
    const found = await call('GET', `/merchants/items/search?q=${encodeURIComponent('bun bo hue')}&lat=${here.lat}&lng=${here.lng}&radiusM=3000`, {
      token: user.accessToken,
    });
    expect(found.status).toBe(200);
    // The nearer store has turned it off: only the farther one answers.
    expect(found.body.items.map((i: { merchant: { id: string } }) => i.merchant.id)).toEqual([far.id]);
    expect(found.body.items[0].items).toEqual([expect.objectContaining({ itemKey: 'bun-bo', priceVnd: 50_000 })]);
    expect(found.body.items[0].items[0]).not.toHaveProperty('stock');
    const pho = await call('GET', `/merchants/items/search?q=pho%20tai&lat=${here.lat}&lng=${here.lng}&radiusM=3000`, { token: user.accessToken });
    expect(pho.body.items.map((i: { merchant: { id: string } }) => i.merchant.id)).toEqual([near.id, far.id]);
  });
});
