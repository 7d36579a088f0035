import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { topUp, walletOf } from '../../helpers/wallet';
import { addLine, checkout, confirmTimerFires, getOrder, orderVoucher, placeOrder, redeemedOf, stockOf, storeAt, storeMove } from './setup';

// Vouchers of the real promotions module used at checkout (inside its all-or-nothing outcome) and given back when the
// order is called off; the stock of the real merchants module given back by every way an order is called off.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

describe('a voucher at checkout', () => {
  it('is used by the order, given back when the consumer cancels (usable again), and refused over its per-user limit', async () => {
    const here = area();
    const { seller } = await storeAt(here, 'Phở Lý Quốc Sư');
    const [consumer, neighbour] = await Promise.all([registerVerified(), registerVerified()]);
    const voucher = await orderVoucher();
    const withVoucher = { voucherCode: voucher.code.toLowerCase() };

    const first = await placeOrder(consumer, seller, here, { method: 'CASH' }, { 'pho-tai': 2 }, withVoucher);
    expect(first.order).toMatchObject({ voucher: { code: voucher.code } });
    expect(first.order.pricing).toMatchObject({ itemsVnd: 110_000, discountVnd: 11_000 });
    expect(first.order.pricing.totalVnd).toBe(110_000 + first.order.pricing.deliveryFeeVnd + first.order.pricing.serviceFeeVnd - 11_000);
    expect(await redeemedOf(voucher)).toBe(1);

    expect((await storeMove(consumer, first.order.id, 'cancel', { reason: 'Đổi ý' })).status).toBe('CANCELLED');
    expect(await redeemedOf(voucher)).toBe(0);
    const again = await placeOrder(consumer, seller, here, { method: 'CASH' }, { 'pho-tai': 2 }, withVoucher);
    expect(again.order.pricing.discountVnd).toBe(11_000);
    expect(await redeemedOf(voucher)).toBe(1);

    // A second use by the same consumer: refused with nothing written (the cart is kept, no order, no use).
    await addLine(consumer, seller, 'pho-dac-biet', 1);
    const refused = await checkout(consumer, seller, here, { method: 'CASH' }, withVoucher);
    expect([refused.status, refused.body.code]).toEqual([409, 'PROMOTION_USER_LIMIT']);
    const carts = (await call('GET', '/cart', { token: consumer.accessToken })).body.items;
    expect(carts.map((c: { lines: Array<{ itemKey: string }> }) => c.lines.map((l) => l.itemKey))).toEqual([['pho-dac-biet']]);
    expect((await call('GET', '/orders', { token: consumer.accessToken })).body.items.map((o: { id: string }) => o.id).sort()).toEqual(
      [first.order.id, again.order.id].sort(),
    );
    expect(await redeemedOf(voucher)).toBe(1);
    // Without the voucher the same cart goes through; another consumer still has their own use.
    expect((await checkout(consumer, seller, here, { method: 'CASH' })).status).toBe(201);
    expect((await placeOrder(neighbour, seller, here, { method: 'CASH' }, { 'pho-tai': 1 }, withVoucher)).order.pricing.discountVnd).toBe(5_500);
    expect(await redeemedOf(voucher)).toBe(2);
  });

  it('a voucher is given back when the store rejects the order', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Cơm gà Hội An');
    const consumer = await registerVerified();
    const voucher = await orderVoucher({ kind: 'FIXED', value: 20_000, maxDiscount: undefined });
    const placed = await placeOrder(consumer, seller, here, { method: 'CASH' }, { 'pho-tai': 1 }, { voucherCode: voucher.code });
    expect(placed.order.pricing.discountVnd).toBe(20_000);
    expect((await storeMove(owner, placed.order.id, 'reject', { reason: 'Quán sắp đóng cửa' })).status).toBe('REJECTED');
    expect(await redeemedOf(voucher)).toBe(0);
    expect((await placeOrder(consumer, seller, here, { method: 'CASH' }, { 'pho-tai': 1 }, { voucherCode: voucher.code })).order.pricing.discountVnd).toBe(
      20_000,
    );
  });
});

describe('stock given back', () => {
  it('when the store rejects the order', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Bún bò Huế O Xuân');
    const consumer = await registerVerified();
    await topUp(consumer, 300_000);
    const placed = await placeOrder(consumer, seller, here, { method: 'WALLET' }, { 'pho-dac-biet': 2 });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(1);
    const rejected = await storeMove(owner, placed.order.id, 'reject', { reason: 'Hết thịt bò' });
    expect(rejected).toMatchObject({ status: 'REJECTED', cancelReason: 'Hết thịt bò' });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);
    expect(await walletOf(consumer)).toMatchObject({ balance: 300_000, held: 0 });
    // A repeated reject (a retry) answers the order as it is and gives nothing back twice.
    const twice = await call('POST', `/orders/${placed.order.id}/reject`, { token: owner.accessToken, body: { reason: 'Hết thịt bò' } });
    expect([twice.status, twice.body.status]).toEqual([200, 'REJECTED']);
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);
  });

  it('when the store does not confirm in time: the timer’s task cancels the order, releases the hold and gives the stock back once', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Hủ tiếu Nam Vang');
    const consumer = await registerVerified();
    await topUp(consumer, 300_000);
    const placed = await placeOrder(consumer, seller, here, { method: 'WALLET' }, { 'pho-dac-biet': 3 });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(0);
    expect(await walletOf(consumer)).toMatchObject({ held: placed.order.pricing.totalVnd });
    await confirmTimerFires(placed.order.id);
    expect((await getOrder(consumer, placed.order.id)).body).toMatchObject({
      status: 'CANCELLED',
      cancelledBy: 'SYSTEM',
      cancelReasonCode: 'CONFIRM_TIMEOUT',
      payment: { settled: 'RELEASED' },
    });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);
    expect(await walletOf(consumer)).toMatchObject({ balance: 300_000, held: 0 });
    // The task delivered again (at least once) changes nothing; the store can no longer confirm.
    await confirmTimerFires(placed.order.id);
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);
    const late = await call('POST', `/orders/${placed.order.id}/confirm`, { token: owner.accessToken, body: {} });
    expect([late.status, late.body.code]).toEqual([409, 'ORDER_TRANSITION']);
  });
});
