import { randomUUID } from 'node:crypto';
import { CART_CHECKOUTS } from '../../../src/modules/cart/cart.collections';
import { ORDERS } from '../../../src/modules/orders';
import { paymentCommands } from '../../../src/modules/payments';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { storeArea } from '../../helpers/orders';
import { postTopUp, walletOf } from '../../helpers/wallet';
import { apiConfig, cartApp, openStore, realOrders, send } from '../cart/doubles';

// The guards of the transaction that places an order (orders.place's txCheckPlacing), through checkout over the store
// double and the real orders module: at most ORDERS_MAX_PENDING_PER_CONSUMER (5) unconfirmed orders per consumer,
// counted in the transaction (two checkouts at the edge: one passes), and the store read again (paused between the
// quote and the placing: 409, and whatever the checkout took given back).
beforeAll(requireEmulators);
jest.setTimeout(60_000);

const realPayments = paymentCommands(apiConfig());
/** Runs once a wallet hold is made (the store pauses while the consumer's money is being held). */
const afterHold: { run: (() => Promise<unknown>) | null } = { run: null };
const owner = { userId: `owner-${randomUUID().slice(0, 8)}` };
const orders = realOrders(owner);

let app: Awaited<ReturnType<typeof cartApp>>;
let admin: Tokens;
beforeAll(async () => {
  app = await cartApp({
    ports: {
      orders: orders.port,
      payments: {
        ...realPayments,
        hold: async (input) => {
          const made = await realPayments.hold(input);
          const run = afterHold.run;
          afterHold.run = null;
          if (run) await run();
          return made;
        },
      },
    },
  });
  admin = await adminTokens();
});
afterAll(() => app.close());

const menu = { com: { name: 'Cơm tấm sườn', priceVnd: 45_000, stock: 50 } };
const add = (who: Tokens, seller: { kind: string; id: string }) =>
  send(app.url, 'POST', '/cart/items', { token: who.accessToken, body: { seller, itemKey: 'com', quantity: 1 } });
const checkout = (
  who: Tokens,
  store: { ref: { kind: string; id: string } },
  here: ReturnType<typeof storeArea>,
  payment: Record<string, unknown> = { method: 'CASH' },
  extra = {},
) =>
  send(app.url, 'POST', '/cart/checkout', {
    token: who.accessToken,
    key: randomUUID(),
    body: { seller: store.ref, address: { location: here.near(800), address: '7 Trần Đăng Ninh, Sơn La' }, payment, ...extra },
  });
const ordersOf = async (userId: string) =>
  (await db().collection(ORDERS).where('consumerId', '==', userId).get()).docs.map((d) => ({ id: d.id, status: d.get('status') as string }));
const checkoutsOf = async (userId: string) => (await db().collection(CART_CHECKOUTS).where('userId', '==', userId).get()).size;

describe('the placing transaction’s guards', () => {
  it('five unconfirmed orders per consumer: two checkouts at the edge, exactly one passes; a confirmed order frees a slot', async () => {
    const user = await registerVerified();
    const here = storeArea();
    const stores = await Promise.all([0, 1, 2, 3, 4, 5].map(() => openStore(here, menu)));
    for (const store of stores.slice(0, 4)) {
      await add(user, store.ref);
      expect((await checkout(user, store, here)).status).toBe(201);
    }
    // Two carts at two stores checked out at once with four orders open: one order, the other refused in its transaction.
    await Promise.all(stores.slice(4).map((s) => add(user, s.ref)));
    const edge = await Promise.all(stores.slice(4).map((s) => checkout(user, s, here)));
    expect(edge.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = edge.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'ORDER_TOO_MANY_PENDING', details: { maxPending: 5 } });
    const placed = await ordersOf(user.user.id);
    expect(placed.map((o) => o.status)).toEqual(['PLACED', 'PLACED', 'PLACED', 'PLACED', 'PLACED']);

    // At the limit, refused before anything is held; the cart stays as it was.
    await postTopUp(user, 200_000);
    const loser = stores[4 + edge.findIndex((r) => r.status === 409)];
    const again = await checkout(user, loser, here, { method: 'WALLET' });
    expect([again.status, again.body.code]).toEqual([409, 'ORDER_TOO_MANY_PENDING']);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 200_000, held: 0 }));
    expect((await send(app.url, 'GET', '/cart', { token: user.accessToken })).body.items).toHaveLength(1);

    // The store confirms one: a slot is free.
    const confirmed = await orders.service.storeMove({ userId: owner.userId, admin: false }, placed[0].id, 'confirm');
    expect(confirmed.status).toBe('CONFIRMED');
    const next = await checkout(user, loser, here, { method: 'WALLET' });
    expect([next.status, next.body.order?.status]).toEqual([201, 'PLACED']);
    await add(user, stores[0].ref);
    expect((await checkout(user, stores[0], here)).body.code).toBe('ORDER_TOO_MANY_PENDING');
  });

  it('a store paused between the quote and the placing: 409 CART_SELLER_CLOSED, no order, stock, hold and voucher use given back', async () => {
    const user = await registerVerified();
    await postTopUp(user, 300_000);
    const here = storeArea();
    const store = await openStore(here, menu);
    const day = 86_400_000;
    const voucher = (
      await call('POST', '/promotions/manage', {
        token: admin.accessToken,
        body: {
          code: `P${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase(),
          title: 'Giảm 10%',
          kind: 'PERCENT',
          value: 10,
          maxDiscount: 20_000,
          minSpend: 0,
          startsAt: new Date(Date.now() - day).toISOString(),
          endsAt: new Date(Date.now() + day).toISOString(),
          perUserLimit: 1,
          totalLimit: 5,
          verticals: ['ORDER'],
        },
      })
    ).body as { id: string; code: string };
    await add(user, store.ref);
    const quote = await send(app.url, 'POST', '/cart/quote', { token: user.accessToken, body: { seller: store.ref, voucherCode: voucher.code } });
    expect(quote.body.problems).toEqual([]);

    afterHold.run = () => store.update({ accepting: false, paused: true });
    const res = await checkout(user, store, here, { method: 'WALLET' }, { voucherCode: voucher.code });
    expect([res.status, res.body.code]).toEqual([409, 'CART_SELLER_CLOSED']);
    expect(res.body.details).toEqual({ openNow: true, paused: true, active: true });
    expect(await ordersOf(user.user.id)).toEqual([]);
    expect(await checkoutsOf(user.user.id)).toBe(0);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000, held: 0 }));
    expect((await store.read()).items.com.stock).toBe(50);
    const stats = (await call('GET', `/promotions/manage/${voucher.id}`, { token: admin.accessToken })).body.stats;
    expect(stats.redeemed).toBe(0);
    expect((await send(app.url, 'GET', '/cart', { token: user.accessToken })).body.items[0].lines).toHaveLength(1);

    // Open again, the same cart is placed.
    await store.update({ accepting: true, paused: false });
    expect((await checkout(user, store, here, { method: 'WALLET' }, { voucherCode: voucher.code })).status).toBe(201);
  });
});
