import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { driverAccount, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { cartApp, openStore, send, type MenuItem } from './doubles';

// The cart's operations through HTTP, over a store double whose menu and stock are Firestore documents: lines priced by
// the store on every read, merges, limits (also in parallel), bad input, strangers and drivers.
beforeAll(requireEmulators);

let app: Awaited<ReturnType<typeof cartApp>>;
let me: Tokens, other: Tokens, driver: Driver;
beforeAll(async () => {
  app = await cartApp({ settings: { maxLines: 4, maxCarts: 3 } });
  [me, other, driver] = await Promise.all([registerVerified(), registerVerified(), driverAccount()]);
});
afterAll(() => app.close());

const MENU: Record<string, Partial<MenuItem>> = {
  pho: {
    name: 'Phở bò',
    priceVnd: 55_000,
    groups: {
      size: { name: 'Cỡ', min: 0, max: 1, choices: { M: { name: 'Vừa', priceDeltaVnd: 0 }, L: { name: 'Lớn', priceDeltaVnd: 10_000 } } },
      extra: { name: 'Thêm', min: 0, max: 3, choices: { egg: { name: 'Trứng', priceDeltaVnd: 5_000 }, beef: { name: 'Bò', priceDeltaVnd: 15_000 } } },
    },
  },
  tra: { name: 'Trà đá', priceVnd: 5_000 },
  com: { name: 'Cơm tấm', priceVnd: 45_000 },
  banh: { name: 'Bánh flan', priceVnd: 15_000 },
  che: { name: 'Chè ba màu', priceVnd: 20_000 },
  nuoc: { name: 'Nước cam', priceVnd: 25_000 },
};

const add = (who: Tokens, body: Record<string, unknown>) => send(app.url, 'POST', '/cart/items', { token: who.accessToken, body });
const carts = async (who: Tokens, query = '') => (await send(app.url, 'GET', `/cart${query}`, { token: who.accessToken })).body.items as Cart[];
const patch = (who: Tokens, id: string, body: Record<string, unknown>) => send(app.url, 'PATCH', `/cart/items/${id}`, { token: who.accessToken, body });
const remove = (who: Tokens, id: string) => send(app.url, 'DELETE', `/cart/items/${id}`, { token: who.accessToken });
const quote = (who: Tokens, body: Record<string, unknown>) => send(app.url, 'POST', '/cart/quote', { token: who.accessToken, body });
type Line = {
  id: string;
  itemKey: string;
  quantity: number;
  note: string | null;
  priced: { unitPriceVnd: number; lineTotalVnd: number } | null;
  problem: { code: string } | null;
};
type Cart = {
  id: string;
  lines: Line[];
  itemsVnd: number;
  itemCount: number;
  problems: Array<{ code: string; lineId: string | null }>;
  seller: { id: string };
};
const lineOf = (cart: Cart, itemKey: string, note: string | null = null) => cart.lines.find((l) => l.itemKey === itemKey && l.note === note)!;
const fieldsOf = (body: { details?: Array<{ field: string }> }) => (body.details ?? []).map((d) => d.field);

describe('cart', () => {
  it('adds lines, merges identical ones, prices every line from the store on each read, changes, removes and empties', async () => {
    const user = await registerVerified();
    const here = area();
    const store = await openStore(here, MENU);
    const large = [{ group: 'size', choices: ['L'] }];
    const first = await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1, options: large });
    expect(first.status).toBe(201);
    expect(first.body.lines[0]).toMatchObject({ itemKey: 'pho', quantity: 1, priced: { name: 'Phở bò', unitPriceVnd: 65_000, lineTotalVnd: 65_000 } });
    // The same item with the same options (in any order) is the same line.
    expect((await add(user, { seller: store.ref, itemKey: 'pho', quantity: 2, options: large })).body.lines).toHaveLength(1);
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1, options: [{ group: 'extra', choices: ['beef', 'egg'] }] });
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1, options: [{ group: 'extra', choices: ['egg', 'beef', 'egg'] }] });
    await add(user, { seller: store.ref, itemKey: 'tra', quantity: 2, note: 'ít đá' });
    const cart = (await add(user, { seller: store.ref, itemKey: 'tra', quantity: 1 })).body as Cart;
    expect(cart.lines.map((l) => `${l.itemKey}:${l.quantity}`)).toEqual(['pho:3', 'pho:2', 'tra:2', 'tra:1']);
    expect(cart.itemsVnd).toBe(3 * 65_000 + 2 * 75_000 + 3 * 5_000);
    expect(cart.itemCount).toBe(8);

    // Prices are the store's now, not the ones of when the line was added.
    await store.update({ 'items.pho.priceVnd': 60_000 });
    const [listed] = await carts(user);
    expect(lineOf(listed, 'pho').priced).toMatchObject({ unitPriceVnd: 70_000, lineTotalVnd: 210_000 });

    // A note making a line identical to another merges them; a quantity changes; a removed line is gone.
    const merged = await patch(user, lineOf(listed, 'tra').id, { note: 'ít đá' });
    expect(merged.status).toBe(200);
    expect(merged.body.lines.map((l: Line) => `${l.itemKey}:${l.quantity}:${l.note}`)).toEqual(['pho:3:null', 'pho:2:null', 'tra:3:ít đá']);
    expect((await patch(user, lineOf(listed, 'pho').id, { quantity: 5 })).body.lines[0]).toMatchObject({ quantity: 5, priced: { lineTotalVnd: 350_000 } });
    const removed = await remove(user, merged.body.lines[1].id);
    expect(removed.body.lines.map((l: Line) => l.itemKey)).toEqual(['pho', 'tra']);

    // One cart per store; one store's cart alone; emptied one store, then all.
    const second = await openStore(here, MENU, { name: 'Cơm Tấm Cali' });
    await add(user, { seller: second.ref, itemKey: 'com', quantity: 1 });
    expect((await carts(user)).map((c) => c.seller.id)).toEqual([second.ref.id, store.ref.id]);
    const one = await carts(user, `?sellerKind=MERCHANT&sellerId=${store.ref.id}`);
    expect(one.map((c) => c.lines.length)).toEqual([2]);
    const none = await carts(user, `?sellerKind=PHARMACY&sellerId=${store.ref.id}`);
    expect(none).toEqual([expect.objectContaining({ lines: [], itemsVnd: 0 })]);
    const cleared = await send(app.url, 'DELETE', `/cart?sellerKind=MERCHANT&sellerId=${second.ref.id}`, { token: user.accessToken });
    expect(cleared.body).toEqual({ deleted: true, carts: 1 });
    expect((await send(app.url, 'DELETE', '/cart', { token: user.accessToken })).body).toEqual({ deleted: true, carts: 1 });
    expect(await carts(user)).toEqual([]);
    // The last line removed: the cart is gone.
    const only = (await add(user, { seller: store.ref, itemKey: 'com', quantity: 1 })).body as Cart;
    expect((await remove(user, only.lines[0].id)).body.lines).toEqual([]);
    expect(await carts(user)).toEqual([]);
  });

  it('bad input is a 400 naming the field, a price sent is refused, and the store checks items and options; nothing is written', async () => {
    const user = await registerVerified();
    const store = await openStore(area(), MENU);
    const line = { seller: store.ref, itemKey: 'pho', quantity: 1 };
    for (const quantity of [0, 100, 1.5, '2']) {
      const res = await add(user, { ...line, quantity });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['body.quantity']);
    }
    for (const tampered of [{ unitPriceVnd: 1 }, { lineTotalVnd: 1 }, { priceVnd: 1 }, { discountVnd: 50_000 }]) {
      const res = await add(user, { ...line, ...tampered });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(Object.keys(tampered)[0]);
    }
    const group = await add(user, { ...line, options: [{ group: 'sauce', choices: ['chili'] }] });
    expect([group.status, fieldsOf(group.body)]).toEqual([400, ['body.options.0.group']]);
    const choice = await add(user, { ...line, options: [{ group: 'extra', choices: ['egg', 'gold'] }] });
    expect([choice.status, fieldsOf(choice.body)]).toEqual([400, ['body.options.0.choices.1']]);
    const twice = await add(user, {
      ...line,
      options: [
        { group: 'size', choices: ['L'] },
        { group: 'size', choices: ['M'] },
      ],
    });
    expect([twice.status, fieldsOf(twice.body)]).toEqual([400, ['body.options']]);
    const unknown = await add(user, { ...line, itemKey: 'pizza' });
    expect([unknown.status, fieldsOf(unknown.body)]).toEqual([400, ['body.itemKey']]);
    expect(fieldsOf((await add(user, { ...line, seller: { kind: 'HOTEL', id: store.ref.id } })).body)).toEqual(['body.seller.kind']);
    const gone = await add(user, { ...line, seller: { kind: 'MERCHANT', id: `nope-${randomUUID()}` } });
    expect([gone.status, gone.body.code]).toEqual([404, 'CART_SELLER_NOT_FOUND']);
    const half = await send(app.url, 'GET', '/cart?sellerKind=MERCHANT', { token: user.accessToken });
    expect([half.status, fieldsOf(half.body)]).toEqual([400, ['query.sellerId']]);
    expect(await carts(user)).toEqual([]);

    const made = (await add(user, line)).body as Cart;
    const id = made.lines[0].id;
    for (const body of [{}, { quantity: 0 }, { quantity: 100 }, { unitPriceVnd: 1 }, { options: [{ group: 'size', choices: [] }] }]) {
      expect((await patch(user, id, body)).status).toBe(400);
    }
    expect((await patch(user, id, { options: [{ group: 'size', choices: ['XL'] }] })).status).toBe(400);
    expect((await carts(user))[0].lines).toEqual([expect.objectContaining({ quantity: 1, options: [] })]);
  });

  it('another consumer’s line is 404; drivers are refused (the consumer app’s hat); no token is 401', async () => {
    const store = await openStore(area(), MENU);
    const mine = ((await add(me, { seller: store.ref, itemKey: 'tra', quantity: 2 })).body as Cart).lines[0];
    for (const res of [await patch(other, mine.id, { quantity: 9 }), await remove(other, mine.id), await patch(me, randomUUID(), { quantity: 1 })]) {
      expect(res.status).toBe(404);
    }
    expect((await carts(me, `?sellerKind=MERCHANT&sellerId=${store.ref.id}`))[0].lines).toEqual([expect.objectContaining({ id: mine.id, quantity: 2 })]);
    expect((await send(app.url, 'DELETE', '/cart', { token: other.accessToken })).body.carts).toBe(0);
    expect(await carts(me, `?sellerKind=MERCHANT&sellerId=${store.ref.id}`)).toHaveLength(1);

    const asDriver = [
      await send(app.url, 'GET', '/cart', { token: driver.accessToken }),
      await add(driver, { seller: store.ref, itemKey: 'tra', quantity: 1 }),
      await quote(driver, { seller: store.ref }),
      await send(app.url, 'POST', '/cart/checkout', { token: driver.accessToken, key: randomUUID(), body: {} }),
    ];
    expect(asDriver.map((r) => [r.status, r.body.code])).toEqual(Array(4).fill([403, 'HAT_LOCKED']));
    expect((await send(app.url, 'GET', '/cart')).status).toBe(401);
  });

  it('limits hold under parallel requests: lines per cart, carts per consumer, units per line', async () => {
    const user = await registerVerified();
    const here = area();
    const store = await openStore(here, MENU);
    const keys = ['pho', 'tra', 'com', 'banh', 'che', 'nuoc'];
    const lines = await Promise.all(keys.map((itemKey) => add(user, { seller: store.ref, itemKey, quantity: 1 })));
    expect(lines.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 409, 409]);
    expect(lines.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(['CART_LINES_LIMIT', 'CART_LINES_LIMIT']);
    expect((await carts(user))[0].lines).toHaveLength(4);
    // A line already in the cart still grows when the cart is full.
    const listed = (await carts(user))[0];
    expect((await add(user, { seller: store.ref, itemKey: listed.lines[0].itemKey, quantity: 60 })).status).toBe(201);
    const over = await add(user, { seller: store.ref, itemKey: listed.lines[0].itemKey, quantity: 39 });
    expect([over.status, over.body.code, over.body.details]).toEqual([422, 'CART_QUANTITY_LIMIT', { maxQuantity: 99 }]);
    expect((await patch(user, listed.lines[0].id, { quantity: 99 })).status).toBe(200);

    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(here, MENU)));
    const opened = await Promise.all(stores.map((s) => add(user, { seller: s.ref, itemKey: 'tra', quantity: 1 })));
    expect(opened.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expect(opened.find((r) => r.status === 409)!.body).toMatchObject({ code: 'CART_LIMIT', details: { maxCarts: 3 } });
    expect(await carts(user)).toHaveLength(3);
  });

  it('a line the store no longer sells, or has too few of, reads with its problem; the other lines stay priced', async () => {
    const user = await registerVerified();
    const store = await openStore(area(), { ...MENU, tra: { ...MENU.tra, stock: 5 } });
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 2, options: [{ group: 'size', choices: ['L'] }] });
    await add(user, { seller: store.ref, itemKey: 'tra', quantity: 3 });
    await add(user, { seller: store.ref, itemKey: 'tra', quantity: 2, note: 'không đá' });
    await store.update({ 'items.pho.available': false, 'items.tra.stock': 4 });
    const [cart] = await carts(user);
    expect(lineOf(cart, 'pho')).toMatchObject({ priced: null, problem: { code: 'ITEM_UNAVAILABLE' } });
    // Each tea line fits alone; together they want 5 of the 4 left: the cart's problem.
    expect(lineOf(cart, 'tra')).toMatchObject({ priced: { lineTotalVnd: 15_000 }, problem: null });
    expect(cart.problems.map((p) => `${p.code}:${p.lineId === null ? 'cart' : p.lineId === lineOf(cart, 'pho').id ? 'pho' : '?'}`)).toEqual([
      'ITEM_UNAVAILABLE:pho',
    ]);
    await store.update({ 'items.pho.available': true, 'items.pho.groups.size.choices': {} });
    const [after] = await carts(user);
    expect(lineOf(after, 'pho').problem).toMatchObject({ code: 'VALIDATION_FAILED' });
    await store.update({ 'items.pho.groups.size.choices': MENU.pho.groups!.size.choices });
    expect((await carts(user))[0].problems.map((p) => [p.code, p.lineId])).toEqual([['OUT_OF_STOCK', null]]);
  });
});
