import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { deliverMomoIpn, deliverVnpayIpn, momoCreateRequestOf, momoNotice, readVnpayUrl, vnpayNotice } from '../../helpers/gateways';
import { waitFor } from '../../helpers/wait';
import { walletOf } from '../../helpers/wallet';
import { orderUntil, placeOrder, stockOf, storeAt, storeMove } from './setup';

// Checkout paid at a gateway through the real payments module: the order waits (AWAITING_PAYMENT) with its stock
// taken, the gateway's signed notification (IPN) places it or calls it off. The payment's outcome reaches the order
// by the deployed trigger or by the next read, whichever comes first: the tests read until the order has moved.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

describe('GATEWAY checkout', () => {
  it('VNPay: AWAITING_PAYMENT with the stock taken, the paid IPN places the order, the store confirms it', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Bánh mì Huỳnh Hoa');
    const consumer = await registerVerified();
    const placed = await placeOrder(consumer, seller, here, { method: 'GATEWAY', provider: 'VNPAY' }, { 'pho-dac-biet': 2 });
    expect(placed.order).toMatchObject({ status: 'AWAITING_PAYMENT', placedAt: null, confirmBy: null, payment: { method: 'GATEWAY', provider: 'VNPAY' } });
    expect(placed.payment).toMatchObject({ status: 'PENDING', amount: placed.order.pricing.totalVnd, paymentUrl: expect.stringContaining('vnp_') });
    // VNPay is asked for the order's total, in its unit (VND × 100).
    expect(Number(readVnpayUrl(placed.payment!.paymentUrl).vnp_Amount)).toBe(placed.order.pricing.totalVnd * 100);
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(1);
    // The store cannot confirm an order nobody paid for.
    const early = await call('POST', `/orders/${placed.order.id}/confirm`, { token: owner.accessToken, body: {} });
    expect([early.status, early.body.code]).toEqual([409, 'ORDER_TRANSITION']);

    const ipn = await deliverVnpayIpn(vnpayNotice(placed.payment!.paymentUrl));
    expect(ipn.body).toEqual({ RspCode: '00', Message: expect.any(String) });
    const paid = await orderUntil(consumer, placed.order.id, (o) => o.status === 'PLACED', 'the paid order placed');
    expect(paid).toMatchObject({ placedAt: expect.any(String), confirmBy: expect.any(String) });
    expect(Date.parse(paid.confirmBy) - Date.parse(paid.placedAt)).toBe(600_000);
    // The same notification again changes nothing.
    await deliverVnpayIpn(vnpayNotice(placed.payment!.paymentUrl));
    expect((await storeMove(owner, placed.order.id, 'confirm')).status).toBe('CONFIRMED');
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(1);
    expect((await call('GET', `/payments/${placed.payment!.id}`, { token: consumer.accessToken })).body.status).toBe('SUCCEEDED');
    expect(await walletOf(consumer)).toMatchObject({ balance: 0, held: 0 });
  });

  it('VNPay: a failed IPN cancels the order and gives the stock back; the store never gets to confirm it', async () => {
    const here = area();
    const { owner, seller } = await storeAt(here, 'Bánh xèo 46A');
    const consumer = await registerVerified();
    const placed = await placeOrder(consumer, seller, here, { method: 'GATEWAY', provider: 'VNPAY' }, { 'pho-dac-biet': 3 });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(0);
    // The last units are the waiting order's: nobody else can buy them meanwhile.
    const other = await registerVerified();
    await expect(placeOrder(other, seller, here, { method: 'CASH' }, { 'pho-dac-biet': 1 })).rejects.toThrow(/OUT_OF_STOCK/);

    const ipn = await deliverVnpayIpn(vnpayNotice(placed.payment!.paymentUrl, { responseCode: '24' }));
    expect(ipn.body.RspCode).toBe('00');
    const cancelled = await orderUntil(consumer, placed.order.id, (o) => o.status === 'CANCELLED', 'the unpaid order cancelled');
    expect(cancelled).toMatchObject({ cancelledBy: 'SYSTEM', cancelReasonCode: 'PAYMENT_FAILED' });
    expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);
    const late = await call('POST', `/orders/${placed.order.id}/confirm`, { token: owner.accessToken, body: {} });
    expect([late.status, late.body.code]).toEqual([409, 'ORDER_TRANSITION']);
    expect((await call('GET', `/payments/${placed.payment!.id}`, { token: consumer.accessToken })).body.status).toBe('FAILED');
    // The units given back are for sale again.
    expect((await placeOrder(other, seller, here, { method: 'CASH' }, { 'pho-dac-biet': 3 })).order.status).toBe('PLACED');
  });

  it('MoMo: the paid notification places the order; paid after the consumer cancelled, the money goes back', async () => {
    const here = area();
    const { seller } = await storeAt(here, 'Gà rán Popeyes');
    const consumer = await registerVerified();
    const placed = await placeOrder(consumer, seller, here, { method: 'GATEWAY', provider: 'MOMO' });
    const request = await momoCreateRequestOf(placed.payment!.id);
    expect(request.amount).toBe(placed.order.pricing.totalVnd);
    expect((await deliverMomoIpn(momoNotice(request))).status).toBe(204);
    await orderUntil(consumer, placed.order.id, (o) => o.status === 'PLACED', 'the MoMo order placed');

    // The consumer cancels while the payment is open, then pays at MoMo anyway: the payment is refunded.
    const waiting = await placeOrder(consumer, seller, here, { method: 'GATEWAY', provider: 'MOMO' });
    expect((await storeMove(consumer, waiting.order.id, 'cancel')).status).toBe('CANCELLED');
    expect((await deliverMomoIpn(momoNotice(await momoCreateRequestOf(waiting.payment!.id)))).status).toBe(204);
    const payment = () => call('GET', `/payments/${waiting.payment!.id}`, { token: consumer.accessToken });
    await waitFor(async () => ((await payment()).body.status === 'REFUNDED' ? true : undefined), { what: 'the refund' });
    const refunded = await orderUntil(consumer, waiting.order.id, (o) => o.payment.settled === 'REFUNDED', 'the refund on the order');
    expect(refunded).toMatchObject({ status: 'CANCELLED', cancelledBy: 'CONSUMER' });
  });
});
