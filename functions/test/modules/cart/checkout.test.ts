import { randomUUID } from 'node:crypto';
import { CART_CHECKOUTS } from '../../../src/modules/cart/cart.collections';
import { promotionCommands } from '../../../src/modules/promotions';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { png } from '../../helpers/images';
import { postTopUp, walletOf } from '../../helpers/wallet';
import { apiConfig, cartApp, openStore, send, storedOrder, TEST_ORDERS } from './doubles';

// Checkout through HTTP over the store and order doubles (Firestore documents, so the stock race is real) with the real
// payments, promotions, media and addresses: each payment method, retries, the last unit, and every refusal leaving
// nothing written or reserved.
beforeAll(requireEmulators);

let app: Awaited<ReturnType<typeof cartApp>>;
let admin: Tokens;
beforeAll(async () => {
  [app, admin] = await Promise.all([cartApp(), adminTokens()]);
});
afterAll(() => app.close());

const day = 86_400_000;
async function voucher(extra: Record<string, unknown> = {}) {
  const body = {
    code: `C${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase(),
    title: 'Giảm 10%',
    kind: 'PERCENT',
    value: 10,
    maxDiscount: 20_000,
    minSpend: 0,
    startsAt: new Date(Date.now() - day).toISOString(),
    endsAt: new Date(Date.now() + day).toISOString(),
    perUserLimit: 1,
    verticals: ['ORDER'],
    ...extra,
  };
  return (await call('POST', '/promotions/manage', { token: admin.accessToken, body })).body as { id: string; code: string };
}
const redeemed = async (v: { id: string }) => (await call('GET', `/promotions/manage/${v.id}`, { token: admin.accessToken })).body.stats.redeemed as number;

const add = (who: Tokens, body: Record<string, unknown>) => send(app.url, 'POST', '/cart/items', { token: who.accessToken, body });
/** `key` null: sent without an Idempotency-Key. */
const checkout = (who: Tokens, body: Record<string, unknown>, key: string | null = randomUUID()) =>
  send(app.url, 'POST', '/cart/checkout', { token: who.accessToken, body, key: key ?? undefined });
const address = (p: { lat: number; lng: number }) => ({ location: p, address: '12 Tràng Tiền, Hoàn Kiếm, Hà Nội', recipientName: 'Lan', phone: '0912345678' });
/** What is left behind for a user: checkout records and orders (the doubles'). */
const leftBehind = async (userId: string) => ({
  checkouts: (await db().collection(CART_CHECKOUTS).where('userId', '==', userId).get()).size,
  orders: (await db().collection(TEST_ORDERS).where('consumerId', '==', userId).get()).size,
});
const feeFor = (distanceM: number) => Math.ceil((15_000 + Math.max(0, distanceM - 2_000) * 5) / 1_000) * 1_000;
const menu = { pho: { name: 'Phở bò', priceVnd: 65_000, stock: 10 }, tra: { name: 'Trà đá', priceVnd: 5_000 } };

describe('POST /cart/checkout', () => {
  it('CASH: the order carries the server’s prices and fees, the stock is taken and the cart emptied; a retry is the same order', async () => {
    const user = await registerVerified();
    const here = area();
    const store = await openStore(here, menu);
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 2 });
    await add(user, { seller: store.ref, itemKey: 'tra', quantity: 1, note: 'ít đá' });
    const body = { seller: store.ref, address: address(here.near(3_000)), payment: { method: 'CASH' }, note: 'Gọi trước khi tới' };
    expect((await checkout(user, body, null)).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    for (const tampered of [
      { totalVnd: 1_000 },
      { pricing: { totalVnd: 1_000 } },
      { payment: { method: 'CASH', amount: 1 } },
      { payment: { method: 'GATEWAY' } },
    ]) {
      expect((await checkout(user, { ...body, ...tampered })).status).toBe(400);
    }
    const key = randomUUID();
    const placed = await checkout(user, body, key);
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ order: { status: 'PLACED' }, payment: null });
    const order = (await storedOrder(placed.body.order.id))!;
    const distanceM = order.distanceM;
    expect(distanceM).toBeGreaterThan(2_950);
    expect(distanceM).toBeLessThan(3_050);
    expect(order.pricing).toEqual({
      itemsVnd: 135_000,
      deliveryFeeVnd: feeFor(distanceM),
      serviceFeeVnd: 3_000,
      discountVnd: 0,
      totalVnd: 135_000 + feeFor(distanceM) + 3_000,
    });
    expect(order).toMatchObject({
      consumerId: user.user.id,
      seller: store.ref,
      partnerId: store.store.partnerId,
      sellerName: store.store.name,
      pickup: { address: store.store.address },
      dropoff: { address: body.address.address, recipientName: 'Lan', phone: '+84912345678', addressId: null },
      payment: { method: 'CASH', provider: null, paymentId: null, status: null },
      note: 'Gọi trước khi tới',
      prepTimeMin: 15,
      voucher: null,
      prescriptionMediaId: null,
    });
    expect(order.lines.map((l) => [l.itemKey, l.quantity, l.lineTotalVnd])).toEqual([
      ['pho', 2, 130_000],
      ['tra', 1, 5_000],
    ]);
    expect((await store.read()).items.pho.stock).toBe(8);
    expect((await send(app.url, 'GET', '/cart', { token: user.accessToken })).body.items).toEqual([]);

    // The same key: the first answer again; past the idempotency answer's life, the same order still.
    const again = await checkout(user, body, key);
    expect([again.status, again.body.order.id, again.headers.get('idempotent-replayed')]).toEqual([201, placed.body.order.id, 'true']);
    // The stored answer is the one the first request got, whole (commerce-e2e: stored in the order's commit).
    expect(again.body).toEqual(placed.body);
    const late = await app.services.checkout.checkout(user.user.id, key, body as never, '127.0.0.1', { claimed: async () => undefined });
    expect(late.order.id).toBe(placed.body.order.id);
    expect((await store.read()).items.pho.stock).toBe(8);
    expect((await checkout(user, body)).body.code).toBe('CART_EMPTY');
  });

  it('WALLET: the total is held, the voucher’s discount is the server’s; a retry with the key holds once and uses the voucher once', async () => {
    const user = await registerVerified();
    await postTopUp(user, 500_000);
    const v = await voucher({ totalLimit: 5 });
    const here = area();
    const store = await openStore(here, menu);
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 3 });
    const key = randomUUID();
    const body = { seller: store.ref, address: address(here.near(1_000)), payment: { method: 'WALLET' }, voucherCode: v.code.toLowerCase() };
    const placed = await checkout(user, body, key);
    expect(placed.status).toBe(201);
    const total = 195_000 + 15_000 + 3_000 - 19_500;
    expect(placed.body.payment).toMatchObject({ method: 'WALLET', status: 'AUTHORIZED', amount: total, paymentUrl: null });
    const order = (await storedOrder(placed.body.order.id))!;
    expect(order.pricing).toEqual({ itemsVnd: 195_000, deliveryFeeVnd: 15_000, serviceFeeVnd: 3_000, discountVnd: 19_500, totalVnd: total });
    expect(order.voucher).toMatchObject({ code: v.code, promotionId: v.id });
    expect(order.payment).toMatchObject({ method: 'WALLET', paymentId: placed.body.payment.id, status: 'AUTHORIZED' });
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 500_000 - total, held: total }));

    const retries = await Promise.all([checkout(user, body, key), checkout(user, body, key)]);
    for (const r of retries.filter((res) => res.status === 201)) expect(r.body.order.id).toBe(placed.body.order.id);
    const late = await app.services.checkout.checkout(user.user.id, key, body as never, '127.0.0.1', { claimed: async () => undefined });
    expect(late.payment).toMatchObject({ id: placed.body.payment.id });
    expect(await walletOf(user)).toEqual(expect.objectContaining({ held: total }));
    expect(await redeemed(v)).toBe(1);
  });

  it('GATEWAY: VNPay answers a PENDING payment with its paymentUrl and the order waits for it; MOCK pays at once', async () => {
    const here = area();
    for (const [provider, status, orderStatus] of [
      ['VNPAY', 'PENDING', 'AWAITING_PAYMENT'],
      ['MOCK', 'SUCCEEDED', 'PLACED'],
    ] as const) {
      const user = await registerVerified();
      const store = await openStore(here, menu);
      await add(user, { seller: store.ref, itemKey: 'tra', quantity: 4 });
      const res = await checkout(user, { seller: store.ref, address: address(here.near(500)), payment: { method: 'GATEWAY', provider } });
      expect(res.status).toBe(201);
      expect(res.body.order.status).toBe(orderStatus);
      expect(res.body.payment).toMatchObject({ method: 'GATEWAY', provider, status, amount: 20_000 + 15_000 + 3_000 });
      if (status === 'PENDING') expect(res.body.payment.paymentUrl).toMatch(/vpcpay\.html\?.*vnp_TxnRef=/);
      else expect(res.body.payment.paymentUrl).toBeNull();
      expect((await storedOrder(res.body.order.id))!.payment).toMatchObject({ method: 'GATEWAY', provider, paymentId: res.body.payment.id, status });
    }
  });

  it('two buyers of the last unit at once: one order, the other 409 OUT_OF_STOCK with its hold and voucher use given back', async () => {
    const here = area();
    const store = await openStore(here, { banh: { name: 'Bánh mì', priceVnd: 30_000, stock: 1 } });
    const v = await voucher({ totalLimit: 10 });
    const buyers = await Promise.all([registerVerified(), registerVerified()]);
    await Promise.all(buyers.map((b) => postTopUp(b, 200_000)));
    await Promise.all(buyers.map((b) => add(b, { seller: store.ref, itemKey: 'banh', quantity: 1 })));
    const body = { seller: store.ref, address: address(here.near(800)), payment: { method: 'WALLET' }, voucherCode: v.code };
    const results = await Promise.all(buyers.map((b) => checkout(b, body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = buyers[results.findIndex((r) => r.status === 409)];
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ code: 'OUT_OF_STOCK' });
    expect(await walletOf(loser)).toEqual(expect.objectContaining({ balance: 200_000, held: 0 }));
    expect(await leftBehind(loser.user.id)).toEqual({ checkouts: 0, orders: 0 });
    expect((await send(app.url, 'GET', '/cart', { token: loser.accessToken })).body.items[0].lines).toHaveLength(1);
    expect(await redeemed(v)).toBe(1);
    expect((await store.read()).items.banh.stock).toBe(0);
  });

  it('WALLET with too little money: 409, nothing held, no voucher use left reserved; topped up, the same key places it', async () => {
    const user = await registerVerified();
    await postTopUp(user, 50_000);
    const v = await voucher({ totalLimit: 1 });
    const here = area();
    const store = await openStore(here, menu);
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 2 });
    const key = randomUUID();
    const body = { seller: store.ref, address: address(here.near(300)), payment: { method: 'WALLET' }, voucherCode: v.code };
    const refused = await checkout(user, body, key);
    expect([refused.status, refused.body.code]).toEqual([409, 'WALLET_INSUFFICIENT_FUNDS']);
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 50_000, held: 0 }));
    expect(await redeemed(v)).toBe(0);
    expect(await leftBehind(user.user.id)).toEqual({ checkouts: 0, orders: 0 });
    await postTopUp(user, 200_000);
    const placed = await checkout(user, body, key);
    expect(placed.status).toBe(201);
    expect(await redeemed(v)).toBe(1);
  });

  it('refused with nothing written or reserved: voucher over its limit, outside the radius, store closed, below its minimum, empty cart', async () => {
    const user = await registerVerified();
    await postTopUp(user, 300_000);
    const here = area();
    const store = await openStore(here, menu, { deliveryRadiusM: 3_000, minOrderVnd: 100_000 });
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1 });
    const body = { seller: store.ref, address: address(here.near(1_000)), payment: { method: 'WALLET' } };
    const expectRefused = async (extra: Record<string, unknown>, status: number, code: string) => {
      const res = await checkout(user, { ...body, ...extra });
      expect([res.status, res.body.code]).toEqual([status, code]);
      return res.body;
    };
    expect((await expectRefused({}, 422, 'CART_BELOW_MINIMUM')).details).toEqual({ minOrderVnd: 100_000, itemsVnd: 65_000 });
    await add(user, { seller: store.ref, itemKey: 'pho', quantity: 1 });
    const far = await expectRefused({ address: address(here.near(3_500)) }, 422, 'CART_OUT_OF_RANGE');
    expect(far.details).toMatchObject({ deliveryRadiusM: 3_000 });
    const used = await voucher({ totalLimit: 1 });
    await promotionCommands(apiConfig()).reserve({
      userId: `someone-${randomUUID()}`,
      code: used.code,
      vertical: 'ORDER',
      partnerId: null,
      amount: 1,
      reference: `ORDER:${randomUUID()}`,
    });
    await expectRefused({ voucherCode: used.code }, 409, 'PROMOTION_EXHAUSTED');
    await expectRefused({ voucherCode: 'NOSUCHCODE' }, 404, 'PROMOTION_NOT_FOUND');
    await store.update({ accepting: false, paused: true });
    expect((await expectRefused({}, 409, 'CART_SELLER_CLOSED')).details).toEqual({ openNow: true, paused: true });
    const other = await openStore(here, menu);
    await expectRefused({ seller: other.ref }, 409, 'CART_EMPTY');
    await expectRefused({ seller: { kind: 'MERCHANT', id: `gone-${randomUUID()}` } }, 404, 'CART_SELLER_NOT_FOUND');
    await expectRefused({ address: { addressId: randomUUID() } }, 404, 'CART_ADDRESS_NOT_FOUND');
    expect(await walletOf(user)).toEqual(expect.objectContaining({ balance: 300_000, held: 0 }));
    expect(await redeemed(used)).toBe(1);
    expect(await leftBehind(user.user.id)).toEqual({ checkouts: 0, orders: 0 });
    expect((await store.read()).items.pho.stock).toBe(10);
  });

  it('a line needing a prescription takes the buyer’s own uploaded image; a saved address is the buyer’s own', async () => {
    const [user, stranger] = await Promise.all([registerVerified(), registerVerified()]);
    const here = area();
    const pharmacy = await openStore(here, { amox: { name: 'Amoxicillin 500mg', priceVnd: 45_000, requiresPrescription: true } }, { kind: 'PHARMACY' });
    await add(user, { seller: pharmacy.ref, itemKey: 'amox', quantity: 2 });
    const upload = async (who: Tokens) => {
      const form = new FormData();
      form.append('file', new Blob([png()], { type: 'image/png' }), 'don-thuoc.png');
      return (await call('POST', '/upload/image', { token: who.accessToken, form })).body.id as string;
    };
    const saved = async (who: Tokens) =>
      (
        await call('POST', '/addresses', {
          token: who.accessToken,
          body: { label: 'HOME', address: '5 Hàng Bài, Hoàn Kiếm', location: here.near(600), contactName: 'Minh' },
          headers: { 'idempotency-key': randomUUID() },
        })
      ).body.id as string;
    const [mine, theirs, home, theirHome] = await Promise.all([upload(user), upload(stranger), saved(user), saved(stranger)]);
    const body = { seller: pharmacy.ref, address: { addressId: home }, payment: { method: 'CASH' } };
    const needs = await checkout(user, body);
    expect([needs.status, needs.body.code]).toEqual([422, 'CART_PRESCRIPTION_REQUIRED']);
    expect(needs.body.details.lineIds).toHaveLength(1);
    expect((await checkout(user, { ...body, prescriptionMediaId: theirs })).body.code).toBe('CART_PRESCRIPTION_INVALID');
    expect((await checkout(user, { ...body, prescriptionMediaId: mine, address: { addressId: theirHome } })).body.code).toBe('CART_ADDRESS_NOT_FOUND');
    expect(await leftBehind(user.user.id)).toEqual({ checkouts: 0, orders: 0 });
    const placed = await checkout(user, { ...body, prescriptionMediaId: mine });
    expect(placed.status).toBe(201);
    expect(await storedOrder(placed.body.order.id)).toMatchObject({
      prescriptionMediaId: mine,
      seller: { kind: 'PHARMACY', id: pharmacy.ref.id },
      dropoff: { addressId: home, address: '5 Hàng Bài, Hoàn Kiếm', recipientName: 'Minh' },
    });
  });
});
