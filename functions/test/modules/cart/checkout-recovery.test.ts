import { randomUUID } from 'node:crypto';
import { CART_CHECKOUTS } from '../../../src/modules/cart/cart.collections';
import { paymentCommands } from '../../../src/modules/payments';
import { promotionCommands } from '../../../src/modules/promotions';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { postTopUp, walletOf } from '../../helpers/wallet';
import { apiConfig, cartApp, clock, openStore, ordersDouble, scheduled, send } from './doubles';

// A checkout that dies between its steps (the process gone before it could give anything back) and one whose payment
// answer was lost: the checkout check, due CART_CHECKOUT_CHECK_SEC after the attempt, gives back the hold and the
// voucher use no order took, and the key finds a payment whose answer never arrived.
beforeAll(requireEmulators);

const config = apiConfig();
const realPayments = paymentCommands(config);
const realPromotions = promotionCommands(config);
/** Faults switched on by the tests: the order's transaction fails, giving back fails (the process died), a payment's answer is lost. */
const faults = { place: false, giveBack: false, loseAnswer: false, duringPayment: null as (() => Promise<unknown>) | null };
const dead = () => Promise.reject(new Error('the process died'));

let app: Awaited<ReturnType<typeof cartApp>>;
let admin: Tokens;
beforeAll(async () => {
  app = await cartApp({
    ports: {
      orders: {
        ...ordersDouble,
        txPlace: (tx, draft) => {
          if (faults.place) throw new Error('the order could not be written');
          ordersDouble.txPlace(tx, draft);
        },
      },
      payments: {
        ...realPayments,
        hold: async (input) => {
          const made = await realPayments.hold(input);
          await faults.duringPayment?.();
          if (faults.loseAnswer) {
            faults.loseAnswer = false;
            throw new Error('connection reset');
          }
          return made;
        },
        release: (id, reason) => (faults.giveBack ? dead() : realPayments.release(id, reason)),
      },
      promotions: { ...realPromotions, releaseFor: (ref, reason) => (faults.giveBack ? dead() : realPromotions.releaseFor(ref, reason)) },
    },
  });
  admin = await adminTokens();
});
afterAll(() => app.close());
afterEach(() => {
  Object.assign(faults, { place: false, giveBack: false, loseAnswer: false, duringPayment: null });
  clock.shift = 0;
});

async function buyer() {
  const user = await registerVerified();
  await postTopUp(user, 300_000);
  const here = area();
  const store = await openStore(here, { pho: { name: 'Phở gà', priceVnd: 60_000, stock: 5 } });
  await send(app.url, 'POST', '/cart/items', { token: user.accessToken, body: { seller: store.ref, itemKey: 'pho', quantity: 2 } });
  const code = `K${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase();
  const promo = await call('POST', '/promotions/manage', {
    token: admin.accessToken,
    body: {
      code,
      title: 'Giảm 10.000 ₫',
      kind: 'FIXED',
      value: 10_000,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      verticals: ['ORDER'],
      totalLimit: 3,
    },
  });
  const body = {
    seller: store.ref,
    address: { location: here.near(400), address: '1 Lý Thái Tổ, Hoàn Kiếm' },
    payment: { method: 'WALLET' },
    voucherCode: code,
  };
  const stats = async () => (await call('GET', `/promotions/manage/${promo.body.id}`, { token: admin.accessToken })).body.stats.redeemed as number;
  return { user, store, body, stats };
}
const checkoutsOf = async (userId: string) => (await db().collection(CART_CHECKOUTS).where('userId', '==', userId).get()).docs.map((d) => d.id);

describe('the checkout check', () => {
  it('gives back the hold and the voucher use of a checkout that died before its order, once due, and only then', async () => {
    const { user, body, stats, store } = await buyer();
    Object.assign(faults, { place: true, giveBack: true });
    const res = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() });
    expect(res.status).toBe(500);
    const total = 120_000 + 15_000 + 3_000 - 10_000;
    expect(await walletOf(user)).toEqual(expect.objectContaining({ held: total }));
    expect(await stats()).toBe(1);
    const [orderId] = await checkoutsOf(user.user.id);
    expect(scheduled.filter((s) => s.id === orderId)).toEqual([{ id: orderId, delaySec: 600, phase: expect.any(String) }]);

    Object.assign(faults, { place: false, giveBack: false });
    await expect(app.services.checkout.runCheck(orderId)).rejects.toThrow(/not due yet/);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ held: total }));
    clock.shift = 601_000;
    expect(await app.services.checkout.runCheck(orderId)).toBe('expired');
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000, held: 0 }));
    expect(await stats()).toBe(0);
    expect(await checkoutsOf(user.user.id)).toEqual([]);
    // Delivered twice: nothing left to do.
    expect(await app.services.checkout.runCheck(orderId)).toBe('settled');
    // The cart and the stock were never touched: checking out again works.
    clock.shift = 0;
    expect((await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() })).status).toBe(201);
    expect((await store.read()).items.pho.stock).toBe(3);
  });

  it('a retry after a dead attempt places the order and gives back at once what the dead attempt left', async () => {
    const { user, body, stats } = await buyer();
    const key = randomUUID();
    Object.assign(faults, { place: true, giveBack: true });
    expect((await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key })).status).toBe(500);
    const [orderId] = await checkoutsOf(user.user.id);
    const total = 120_000 + 15_000 + 3_000 - 10_000;
    expect(await walletOf(user)).toEqual(expect.objectContaining({ held: total }));
    // The retry (same key: the failed run freed it) takes the voucher use anew, holds anew and places the order.
    Object.assign(faults, { place: false, giveBack: false });
    const placed = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key });
    expect([placed.status, placed.body.order.id, placed.body.order.voucher.code]).toEqual([201, orderId, body.voucherCode]);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000 - total, held: total }));
    expect(await stats()).toBe(1);
    // Nothing left for the check: the order's hold and voucher use stay the order's.
    clock.shift = 601_000;
    expect(await app.services.checkout.runCheck(orderId)).toBe('settled');
    expect(await walletOf(user)).toEqual(expect.objectContaining({ held: total }));
    expect(await stats()).toBe(1);
    expect(await checkoutsOf(user.user.id)).toEqual([orderId]);
  });

  it('the same key after the checkout record expired (its TTL), with the cart filled again: the order answered, its voucher use and hold kept', async () => {
    const { user, store, body, stats } = await buyer();
    const key = randomUUID();
    const placed = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key });
    expect(placed.status).toBe(201);
    const total = 120_000 + 15_000 + 3_000 - 10_000;
    await db().collection(CART_CHECKOUTS).doc(placed.body.order.id).delete();
    await send(app.url, 'POST', '/cart/items', { token: user.accessToken, body: { seller: store.ref, itemKey: 'pho', quantity: 1 } });
    // The Idempotency-Key's own record is gone by then too: the service is called as the route calls it.
    const again = await app.services.checkout.checkout(user.user.id, key, body as never, '127.0.0.1', { claimed: async () => undefined });
    expect(again.order.id).toBe(placed.body.order.id);
    expect(await stats()).toBe(1);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000 - total, held: total }));
  });

  it('a hold whose answer was lost is found by its key and given back with the voucher use at once', async () => {
    const { user, body, stats } = await buyer();
    faults.loseAnswer = true;
    expect((await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() })).status).toBe(500);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000, held: 0 }));
    expect(await stats()).toBe(0);
    expect(await checkoutsOf(user.user.id)).toEqual([]);
  });

  it('a cart or a price that changes while checking out: 409 CART_CHANGED, the hold and voucher use given back, the cart kept', async () => {
    const { user, body, stats, store } = await buyer();
    faults.duringPayment = () => send(app.url, 'POST', '/cart/items', { token: user.accessToken, body: { seller: store.ref, itemKey: 'pho', quantity: 1 } });
    const grown = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() });
    expect([grown.status, grown.body.code]).toEqual([409, 'CART_CHANGED']);
    faults.duringPayment = () => store.update({ 'items.pho.priceVnd': 61_000 });
    const repriced = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() });
    expect([repriced.status, repriced.body.code]).toEqual([409, 'CART_CHANGED']);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000, held: 0 }));
    expect(await stats()).toBe(0);
    expect(await checkoutsOf(user.user.id)).toEqual([]);
    expect((await store.read()).items.pho.stock).toBe(5);
    faults.duringPayment = null;
    const placed = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key: randomUUID() });
    expect(placed.status).toBe(201);
    expect(placed.body.order.pricing.itemsVnd).toBe(3 * 61_000);
  });

  it('a new attempt while the check gives an earlier one back is 409 CART_CHECKOUT_BUSY with Retry-After', async () => {
    const { user, body } = await buyer();
    const key = randomUUID();
    Object.assign(faults, { place: true, giveBack: true });
    expect((await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key })).status).toBe(500);
    const [orderId] = await checkoutsOf(user.user.id);
    await db().collection(CART_CHECKOUTS).doc(orderId).update({ sweepingAt: Date.now() });
    Object.assign(faults, { place: false, giveBack: false });
    const busy = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key });
    expect([busy.status, busy.body.code, busy.headers.get('retry-after')]).toEqual([409, 'CART_CHECKOUT_BUSY', '5']);
    // The lease lapses (the check died): the retry goes through, and gives back what the first attempt left.
    clock.shift = 61_000;
    const placed = await send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, body, key });
    expect([placed.status, placed.body.order.id]).toEqual([201, orderId]);
    const total = 120_000 + 15_000 + 3_000 - 10_000;
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000 - total, held: total }));
  });
});
