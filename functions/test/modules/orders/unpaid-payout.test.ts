import { vnd } from '../../../src/platform/kits/money/money';
import { ORDERS } from '../../../src/modules/orders';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import { db } from '../../../src/platform/core/firebase/firebase';
import { driverAccount } from '../../helpers/drivers';
import { gatewayOrder, useOrdersApp } from '../../helpers/orders';
import { earnings } from '../../helpers/wallet';

// A delivered gateway order whose payment never came in is not paid out: the settlement marks it NONE and leaves one
// `payoutHeld` line in its history for an operator (the request's settlement and the deployed trigger's may both run:
// the outcome is the same whichever comes first). A paid one is paid out as before.
jest.setTimeout(60_000);

const { app, cast } = useOrdersApp();

/** The order handed over as delivered by the courier (whatever status it was in), then settled. */
async function deliveredAndSettled(orderId: string, courierId: string) {
  await db().collection(ORDERS).doc(orderId).update({ status: 'DELIVERED', driverId: courierId });
  const order = (await ordersRepo.get(orderId))!;
  await app.service.settle(order);
  await app.service.settle((await ordersRepo.get(orderId))!);
  return (await ordersRepo.get(orderId))!;
}

describe('payout of a delivered gateway order', () => {
  it('its payment still PENDING: no payout, settlement NONE, one payoutHeld line an administrator reads', async () => {
    const courier = await driverAccount();
    const { draft, payment } = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'VNPAY');
    expect(payment.status).toBe('PENDING');
    const ownerBefore = await earnings(cast.owner);

    const order = await deliveredAndSettled(draft.id, courier.user.id);
    expect(order.settlement).toMatchObject({ payment: 'NONE', paymentId: payment.id, paidOut: false });
    expect(await earnings(cast.owner)).toBe(ownerBefore);
    expect(await earnings(courier)).toBe(0);

    const events = await app.call('GET', `/orders/${draft.id}/events`, { token: cast.admin });
    expect(events.status).toBe(200);
    const held = events.body.items.filter((e: { action: string }) => e.action === 'payoutHeld');
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ from: 'DELIVERED', to: 'DELIVERED', by: 'system:orders' });
    expect(held[0].reason).toContain(`${payment.id} is PENDING`);
    // The consumer sees the order delivered with nothing taken.
    const seen = await app.call('GET', `/orders/${draft.id}`, { token: cast.consumer });
    expect(seen.body.payment).toMatchObject({ method: 'GATEWAY', settled: 'NONE' });
  });

  it('its payment refunded in part before delivery: no payout, held for an operator', async () => {
    const courier = await driverAccount();
    const { draft, payment } = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    await app.payments.refund(payment.id, { amount: vnd(1_000), reason: 'a line was missing', by: cast.admin.user.id, idempotencyKey: `refund-${draft.id}` });
    const ownerBefore = await earnings(cast.owner);
    const order = await deliveredAndSettled(draft.id, courier.user.id);
    expect(order.settlement).toMatchObject({ payment: 'NONE', paymentId: payment.id, paidOut: false });
    expect([await earnings(cast.owner), await earnings(courier)]).toEqual([ownerBefore, 0]);
  });

  it('its payment SUCCEEDED (MOCK): paid out once', async () => {
    const courier = await driverAccount();
    const { draft, payment } = await gatewayOrder(app, cast.consumer, cast.owner.partnerId, cast.store, 'MOCK');
    expect(payment.status).toBe('SUCCEEDED');
    const ownerBefore = await earnings(cast.owner);
    const order = await deliveredAndSettled(draft.id, courier.user.id);
    expect(order.settlement).toMatchObject({ payment: 'PAID', paymentId: payment.id, paidOut: true });
    expect(await earnings(cast.owner)).toBeGreaterThan(ownerBefore);
    expect(await earnings(courier)).toBeGreaterThan(0);
  });
});
