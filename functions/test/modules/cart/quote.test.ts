import { randomUUID } from 'node:crypto';
import { CART_CHECKOUTS } from '../../../src/modules/cart/cart.collections';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { cartApp, openStore, send } from './doubles';

// POST /cart/quote: what checkout would charge now and every problem it would refuse with, nothing written or reserved.
beforeAll(requireEmulators);

let app: Awaited<ReturnType<typeof cartApp>>;
let admin: Tokens;
beforeAll(async () => {
  [app, admin] = await Promise.all([cartApp(), adminTokens()]);
});
afterAll(() => app.close());

type Quote = {
  pricing: { itemsVnd: number; deliveryFeeVnd: number | null; serviceFeeVnd: number; discountVnd: number; totalVnd: number };
  distanceM: number | null;
  problems: Array<{ code: string; lineId: string | null; details: unknown }>;
  voucher: { code: string; discountVnd: number } | null;
  canCheckout: boolean;
  lines: Array<{ id: string; itemKey: string }>;
};
const quote = async (who: Tokens, body: Record<string, unknown>) => {
  const res = await send(app.url, 'POST', '/cart/quote', { token: who.accessToken, body });
  if (res.status !== 200) throw new Error(`quote ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Quote;
};
const codes = (q: Quote) => q.problems.map((p) => p.code);

describe('POST /cart/quote', () => {
  it('prices lines, the delivery fee by distance, the service fee and the voucher; lists what checkout would refuse; reserves nothing', async () => {
    const user = await registerVerified();
    const here = area();
    const store = await openStore(here, { pho: { priceVnd: 60_000, stock: 3 }, tra: { priceVnd: 5_000 } }, { minOrderVnd: 100_000, deliveryRadiusM: 6_000 });
    const add = (itemKey: string, quantity: number) =>
      send(app.url, 'POST', '/cart/items', { token: user.accessToken, body: { seller: store.ref, itemKey, quantity } });
    expect(codes(await quote(user, { seller: store.ref }))).toEqual(['CART_EMPTY']);
    await add('pho', 1);
    const at = (m: number) => ({ location: here.near(m), address: '3 Nhà Thờ, Hoàn Kiếm' });

    const small = await quote(user, { seller: store.ref, address: at(4_200) });
    expect(codes(small)).toEqual(['CART_BELOW_MINIMUM']);
    expect(small.distanceM! > 4_150 && small.distanceM! < 4_250).toBe(true);
    const fee = Math.ceil((15_000 + (small.distanceM! - 2_000) * 5) / 1_000) * 1_000;
    expect(small.pricing).toEqual({ itemsVnd: 60_000, deliveryFeeVnd: fee, serviceFeeVnd: 3_000, discountVnd: 0, totalVnd: 63_000 + fee });
    expect(small.canCheckout).toBe(false);

    await add('pho', 1);
    const promo = await call('POST', '/promotions/manage', {
      token: admin.accessToken,
      body: {
        code: `Q${randomUUID().replace(/-/g, '').slice(0, 10)}`,
        title: 'Giảm 15%',
        kind: 'PERCENT',
        value: 15,
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        verticals: ['ORDER'],
        totalLimit: 1,
      },
    });
    const good = await quote(user, { seller: store.ref, address: at(1_500), voucherCode: promo.body.code });
    expect(good).toMatchObject({ problems: [], canCheckout: true, voucher: { code: promo.body.code, discountVnd: 18_000 } });
    expect(good.pricing).toEqual({ itemsVnd: 120_000, deliveryFeeVnd: 15_000, serviceFeeVnd: 3_000, discountVnd: 18_000, totalVnd: 120_000 });
    expect((await call('GET', `/promotions/manage/${promo.body.id}`, { token: admin.accessToken })).body.stats).toEqual({ redeemed: 0, remaining: 1 });

    // Without an address: no delivery fee, and not ready to check out.
    const noAddress = await quote(user, { seller: store.ref });
    expect([noAddress.pricing.deliveryFeeVnd, noAddress.pricing.totalVnd, noAddress.canCheckout]).toEqual([null, 123_000, false]);
    // Every problem at once: too far, sold out, closed, an unknown voucher.
    await store.update({ 'items.pho.stock': 1, accepting: false, openNow: false });
    const bad = await quote(user, { seller: store.ref, address: at(7_000), voucherCode: 'NOSUCHCODE' });
    expect(codes(bad)).toEqual(['OUT_OF_STOCK', 'CART_SELLER_CLOSED', 'CART_OUT_OF_RANGE', 'PROMOTION_NOT_FOUND']);
    expect(bad.problems[0].lineId).toBe(bad.lines[0].id);
    expect(bad.problems[1].details).toEqual({ openNow: false, paused: false });
    expect((await db().collection(CART_CHECKOUTS).where('userId', '==', user.user.id).get()).size).toBe(0);
  });

  it('a prescription line needs the buyer’s own image; saved addresses are the buyer’s own; bad input is 400', async () => {
    const [user, stranger] = await Promise.all([registerVerified(), registerVerified()]);
    const here = area();
    const pharmacy = await openStore(here, { amox: { priceVnd: 45_000, requiresPrescription: true } }, { kind: 'PHARMACY' });
    await send(app.url, 'POST', '/cart/items', { token: user.accessToken, body: { seller: pharmacy.ref, itemKey: 'amox', quantity: 1 } });
    const needs = await quote(user, { seller: pharmacy.ref });
    expect(needs.problems).toEqual([expect.objectContaining({ code: 'CART_PRESCRIPTION_REQUIRED', details: { lineIds: [needs.lines[0].id] } })]);
    expect(codes(await quote(user, { seller: pharmacy.ref, prescriptionMediaId: randomUUID() }))).toEqual(['CART_PRESCRIPTION_INVALID']);

    const theirs = await call('POST', '/addresses', {
      token: stranger.accessToken,
      body: { label: 'WORK', address: '8 Lý Thường Kiệt', location: here.near(900) },
    });
    const res = await send(app.url, 'POST', '/cart/quote', { token: user.accessToken, body: { seller: pharmacy.ref, address: { addressId: theirs.body.id } } });
    expect([res.status, res.body.code]).toEqual([404, 'CART_ADDRESS_NOT_FOUND']);
    for (const body of [
      { seller: pharmacy.ref, totalVnd: 1 },
      { seller: pharmacy.ref, address: { addressId: theirs.body.id, location: here.near(1) } },
      { seller: pharmacy.ref, address: { location: { lat: 91, lng: 0 }, address: 'x y z' } },
      { seller: pharmacy.ref, voucherCode: 'a!' },
      {},
    ]) {
      expect((await send(app.url, 'POST', '/cart/quote', { token: user.accessToken, body })).status).toBe(400);
    }
    const gone = await send(app.url, 'POST', '/cart/quote', { token: user.accessToken, body: { seller: { kind: 'PHARMACY', id: `gone-${randomUUID()}` } } });
    expect([gone.status, gone.body.code]).toEqual([404, 'CART_SELLER_NOT_FOUND']);
  });
});
