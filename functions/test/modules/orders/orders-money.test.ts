import { checkLedger } from '../../../src/modules/wallet/ledger.check';
import { onOrderPayment } from '../../../src/modules/orders/orders.payments';
import type { PaymentOutcome } from '../../../src/modules/payments';
import { deliverVnpayIpn, vnpayNotice } from '../../helpers/gateways';
import { advance, draftOf, freeCourier, gatewayOrder, place, useOrdersApp, walletOrder } from '../../helpers/orders';
import { earnings, ledgerCheck, walletOf } from '../../helpers/wallet';

// An order's money: gateway payments moving the order, the confirmation timer's refund, and a day of orders of
// every kind leaving the ledger balanced.

const { doubles, app, cast } = useOrdersApp();

const get = (id: string) => app.call('GET', `/orders/${id}`, { token: cast.consumer });
const outcome = (p: { id: string; amount: number }, orderId: string, status: PaymentOutcome['status']): PaymentOutcome => ({
  paymentId: p.id,
  ref: { type: 'ORDER', id: orderId },
  status,
  previous: 'PENDING',
  method: 'GATEWAY',
  amount: p.amount,
  payerId: cast.consumer.user.id,
});

describe('gateway payments move the order awaiting them', () => {
  it('paid at once (MOCK): AWAITING_PAYMENT until the outcome is read, then PLACED with its confirmation time', async () => {
    const { draft } = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    const seen = await get(draft.id);
    expect(seen.body).toMatchObject({ status: 'PLACED', placedAt: expect.any(String), confirmBy: expect.any(String) });
    expect((await app.call('GET', `/orders/${draft.id}/events`, { token: cast.consumer })).body.items.map((e: { action: string }) => e.action)).toEqual([
      'place',
      'pay',
    ]);
  });

  it('pending (VNPay): not in the store’s queue; paid by the notice → PLACED; failed → CANCELLED with the stock back', async () => {
    const paid = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'VNPAY');
    expect((await get(paid.draft.id)).body.status).toBe('AWAITING_PAYMENT');
    const queue = await app.call('GET', `/merchants/${cast.store.id}/orders?limit=100`, { token: cast.staff });
    expect(queue.body.items.some((o: { id: string }) => o.id === paid.draft.id)).toBe(false);
    expect((await app.call('POST', `/orders/${paid.draft.id}/confirm`, { token: cast.staff, body: {} })).body.code).toBe('ORDER_TRANSITION');
    expect((await deliverVnpayIpn(vnpayNotice(paid.payment.paymentUrl!))).body.RspCode).toBe('00');
    expect((await get(paid.draft.id)).body.status).toBe('PLACED');

    const store = doubles.store(cast.owner.partnerId);
    const failed = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, store, 'VNPAY');
    // The outcome is handed over directly: a failure notice would also start the deployed trigger in the Functions
    // emulator, whose real sellers port (not this file's doubles) could give the stock back first.
    expect(await onOrderPayment(outcome(failed.payment, failed.draft.id, 'FAILED'), app.config, app.service)).toBe('CANCELLED');
    // At least once: the same outcome again changes nothing.
    expect(await onOrderPayment(outcome(failed.payment, failed.draft.id, 'FAILED'), app.config, app.service)).toBe('CANCELLED');
    expect((await get(failed.draft.id)).body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'SYSTEM', cancelReasonCode: 'PAYMENT_FAILED' });
    expect(await doubles.returned(store, 'pho-bo')).toBe(2);
  });

  it('paid after the consumer cancelled the order: the money is refunded', async () => {
    const late = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'VNPAY');
    expect((await app.call('POST', `/orders/${late.draft.id}/cancel`, { token: cast.consumer, body: {} })).body).toMatchObject({
      status: 'CANCELLED',
      payment: { settled: null },
    });
    await deliverVnpayIpn(vnpayNotice(late.payment.paymentUrl!));
    expect(await onOrderPayment(outcome(late.payment, late.draft.id, 'SUCCEEDED'), app.config, app.service)).toBe('CANCELLED');
    expect((await app.payments.get(late.payment.id)).status).toBe('REFUNDED');
    expect((await get(late.draft.id)).body.payment.settled).toBe('REFUNDED');
    expect(await onOrderPayment({ ...outcome(late.payment, late.draft.id, 'SUCCEEDED'), method: 'WALLET' }, app.config, app.service)).toBe(
      'not a gateway payment',
    );
  });
});

describe('the confirmation timer', () => {
  const overdue = () => ({ at: Date.now() - 11 * 60_000 });

  it('a PLACED order the store did not confirm in 10 minutes is cancelled by the next read: hold released, stock and voucher back', async () => {
    const store = doubles.store(cast.owner.partnerId);
    const voucher = { code: 'FREESHIP', redemptionId: 'r-2', promotionId: 'p-2' };
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, store, { ...overdue(), voucher, discount: 10_000 });
    const read = await get(order.id);
    expect(read.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'SYSTEM', cancelReasonCode: 'CONFIRM_TIMEOUT', payment: { settled: 'RELEASED' } });
    expect((await app.payments.get(order.payment.paymentId!)).status).toBe('CANCELLED');
    expect([await doubles.returned(store, 'pho-bo'), doubles.released.includes(`ORDER:${order.id}`)]).toEqual([2, true]);
    expect((await app.call('POST', `/orders/${order.id}/confirm`, { token: cast.staff, body: {} })).body).toMatchObject({
      code: 'ORDER_TRANSITION',
      details: { status: 'CANCELLED' },
    });
  });

  it('its task cancels an overdue order once, waits (asks for a retry) before, and leaves a confirmed one alone', async () => {
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store, overdue());
    expect(await app.service.runConfirmTimeout(order.id)).toBe('expired');
    expect(await app.service.runConfirmTimeout(order.id)).toBe('settled');
    expect((await get(order.id)).body).toMatchObject({ status: 'CANCELLED', payment: { settled: 'RELEASED' } });
    const actions = (await app.call('GET', `/orders/${order.id}/events`, { token: cast.consumer })).body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['place', 'expire']);

    const fresh = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await expect(app.service.runConfirmTimeout(fresh.id)).rejects.toThrow(/not due yet/);
    await app.call('POST', `/orders/${fresh.id}/confirm`, { token: cast.staff, body: {} });
    expect(await app.service.runConfirmTimeout(fresh.id)).toBe('settled');
  });

  it('a gateway order paid and not confirmed in time is refunded', async () => {
    const { draft, payment } = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    expect((await get(draft.id)).body.status).toBe('PLACED');
    const later = app.shifted(11 * 60_000);
    expect(await later.runConfirmTimeout(draft.id)).toBe('expired');
    expect((await app.payments.get(payment.id)).status).toBe('REFUNDED');
    expect((await get(draft.id)).body).toMatchObject({ status: 'CANCELLED', payment: { settled: 'REFUNDED' } });
  });
});

describe('a day of orders', () => {
  it('delivered, cancelled, rejected and timed out, by wallet, cash and gateway: every account agrees with its transfers', async () => {
    const courier = await freeCourier(doubles);
    const [ownerBefore, courierBefore] = await Promise.all([earnings(cast.owner), earnings(courier)]);
    const wallet = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    await advance(app, cast, wallet.id, 'DELIVERED', courier);
    const cash = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await advance(app, cast, cash.id, 'DELIVERED', courier);
    const gateway = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    await get(gateway.draft.id);
    await advance(app, cast, gateway.draft.id, 'DELIVERED', courier);
    const cancelled = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    await app.call('POST', `/orders/${cancelled.id}/cancel`, { token: cast.consumer, body: {} });
    const rejected = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    await get(rejected.draft.id);
    await app.call('POST', `/orders/${rejected.draft.id}/reject`, { token: cast.staff, body: { reason: 'Hết món' } });
    const timedOut = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store, { at: Date.now() - 11 * 60_000 });
    await get(timedOut.id);

    // Three deliveries: the store gets 76,000 each; the courier 31,500 each, less the 135,000 of cash collected.
    expect((await earnings(cast.owner)) - ownerBefore).toBe(3 * 76_000);
    expect((await earnings(courier)) - courierBefore).toBe(3 * 31_500 - 135_000);
    expect((await app.payments.get(rejected.payment.id)).status).toBe('REFUNDED');
    expect((await walletOf(cast.consumer)).held).toBe(0);
    for (const who of [cast.owner, courier, cast.consumer]) expect((await ledgerCheck(who.user.id)).ok).toBe(true);
    const report = await checkLedger();
    expect({ ok: report.ok, total: report.total, mismatches: report.mismatches }).toEqual({ ok: true, total: 0, mismatches: [] });
  });
});
