import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { cartApp, openStore, realOrders, send, type StoreDoc } from './doubles';

// POST /cart/reorder over the store double and the real orders module (orders placed by checkout, read back through
// the orders face's orderLinesFor): lines priced now, lines the store refuses skipped and named, merged without adding
// twice, strangers and bad bodies refused.
beforeAll(requireEmulators);

let app: Awaited<ReturnType<typeof cartApp>>;
beforeAll(async () => {
  app = await cartApp({ ports: { orders: realOrders().port } });
});
afterAll(() => app.close());

const add = (who: Tokens, body: Record<string, unknown>) => send(app.url, 'POST', '/cart/items', { token: who.accessToken, body });
const reorder = (who: Tokens, body: unknown) => send(app.url, 'POST', '/cart/reorder', { token: who.accessToken, body });
const cartAt = async (who: Tokens, seller: { kind: string; id: string }) =>
  (await send(app.url, 'GET', `/cart?sellerKind=${seller.kind}&sellerId=${seller.id}`, { token: who.accessToken })).body.items[0];

const size = { size: { name: 'Cỡ', min: 1, max: 1, choices: { vua: { name: 'Vừa', priceDeltaVnd: 0 }, lon: { name: 'Lớn', priceDeltaVnd: 10_000 } } } };
const menu = {
  pho: { name: 'Phở bò', priceVnd: 65_000, groups: size },
  tra: { name: 'Trà đá', priceVnd: 5_000 },
  banh: { name: 'Bánh cuốn', priceVnd: 40_000 },
  che: { name: 'Chè ba màu', priceVnd: 25_000, stock: 10 },
  nem: { name: 'Nem rán', priceVnd: 30_000, groups: size },
};

/** An order of the user at a new store, placed through checkout (cash): pho ×2 large, tra ×3, banh, che ×2, nem small. */
async function pastOrder(user: Tokens) {
  const here = area();
  const store = await openStore(here, menu);
  const lines = [
    { itemKey: 'pho', quantity: 2, options: [{ group: 'size', choices: ['lon'] }], note: 'không hành' },
    { itemKey: 'tra', quantity: 3 },
    { itemKey: 'banh', quantity: 1 },
    { itemKey: 'che', quantity: 2 },
    { itemKey: 'nem', quantity: 1, options: [{ group: 'size', choices: ['vua'] }] },
  ];
  for (const line of lines) expect((await add(user, { seller: store.ref, ...line })).status).toBe(201);
  const placed = await send(app.url, 'POST', '/cart/checkout', {
    token: user.accessToken,
    key: randomUUID(),
    body: { seller: store.ref, address: { location: here.near(1_000), address: '12 Tràng Tiền, Hoàn Kiếm' }, payment: { method: 'CASH' } },
  });
  expect(placed.status).toBe(201);
  return { store, orderId: placed.body.order.id as string };
}

describe('POST /cart/reorder', () => {
  it('puts the order back at today’s prices, skips what the store refuses now, and reordering twice adds nothing', async () => {
    const user = await registerVerified();
    const { store, orderId } = await pastOrder(user);
    expect(await cartAt(user, store.ref)).toMatchObject({ lines: [] });

    // Since the order: phở costs more, trà đá is turned off, bánh cuốn left the menu, chè sold out, nem lost its sizes.
    const items = (await store.read()).items;
    const { banh: _gone, ...kept } = items;
    const now: StoreDoc['items'] = {
      ...kept,
      pho: { ...items.pho, priceVnd: 70_000 },
      tra: { ...items.tra, available: false },
      che: { ...items.che, stock: 1 },
      nem: { ...items.nem, groups: {} },
    };
    await store.update({ items: now });
    // Something of the user's own already in the cart: one small phở (another line) and the same large phở once.
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1, options: [{ group: 'size', choices: ['vua'] }] });
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1, options: [{ group: 'size', choices: ['lon'] }], note: 'không hành' });

    const res = await reorder(user, { orderId });
    expect(res.status).toBe(200);
    expect(res.body.seller).toMatchObject({ kind: 'MERCHANT', id: store.ref.id, accepting: true });
    expect(res.body.skipped).toEqual(
      expect.arrayContaining([
        { itemKey: 'tra', name: 'Trà đá', reason: 'ITEM_UNAVAILABLE' },
        { itemKey: 'banh', name: 'Bánh cuốn', reason: 'ITEM_GONE' },
        { itemKey: 'che', name: 'Chè ba màu', reason: 'OUT_OF_STOCK' },
        { itemKey: 'nem', name: 'Nem rán', reason: 'OPTIONS_CHANGED' },
      ]),
    );
    expect(res.body.skipped).toHaveLength(4);
    const lines = res.body.lines.map((l: { itemKey: string; quantity: number; options: unknown; priced: { unitPriceVnd: number } }) => [
      l.itemKey,
      l.quantity,
      l.options,
      l.priced.unitPriceVnd,
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['pho', 1, [{ group: 'size', choices: ['vua'] }], 70_000],
        ['pho', 2, [{ group: 'size', choices: ['lon'] }], 80_000],
      ]),
    );
    expect(lines).toHaveLength(2);
    expect(res.body.itemsVnd).toBe(70_000 + 160_000);
    expect(res.body.problems).toEqual([]);
    expect(await cartAt(user, store.ref)).toEqual(expect.objectContaining({ lines: res.body.lines, revision: res.body.revision }));

    // Again: the same cart (the larger quantity kept, nothing added), nothing written.
    const again = await reorder(user, { orderId });
    expect(again.status).toBe(200);
    expect([again.body.lines, again.body.revision, again.body.skipped.length]).toEqual([res.body.lines, res.body.revision, 4]);
  });

  it('another user’s order and an unknown id are 404; a bad body 400 naming the field; a store gone 409 CART_SELLER_GONE', async () => {
    const [user, stranger] = await Promise.all([registerVerified(), registerVerified()]);
    const { store, orderId } = await pastOrder(user);
    for (const [who, id] of [
      [stranger, orderId],
      [user, `o-${randomUUID().slice(0, 12)}`],
    ] as const) {
      const res = await reorder(who, { orderId: id });
      expect([res.status, res.body.code, res.body.message]).toEqual([404, 'NOT_FOUND', 'No such order']);
    }
    expect((await send(app.url, 'GET', '/cart', { token: stranger.accessToken })).body.items).toEqual([]);
    for (const body of [{}, { orderId: 5 }, { orderId: '' }, { orderId, quantity: 2 }, { orderId: 'a/b' }]) {
      const res = await reorder(user, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(JSON.stringify(res.body.details)).toMatch(/body/);
    }
    expect((await send(app.url, 'POST', '/cart/reorder', { body: { orderId } })).status).toBe(401);

    // Paused, the store still gets the cart (its problems say it is closed); gone from the platform, nothing is written.
    await store.update({ accepting: false, paused: true });
    const paused = await reorder(user, { orderId });
    expect(paused.status).toBe(200);
    expect(paused.body.problems.map((p: { code: string }) => p.code)).toEqual([]);
    expect(paused.body.seller).toMatchObject({ accepting: false });
    await send(app.url, 'DELETE', `/cart?sellerKind=MERCHANT&sellerId=${store.ref.id}`, { token: user.accessToken });
    await store.remove();
    const gone = await reorder(user, { orderId });
    expect([gone.status, gone.body.code]).toEqual([409, 'CART_SELLER_GONE']);
    expect((await send(app.url, 'GET', '/cart', { token: user.accessToken })).body.items).toEqual([]);
  });
});
