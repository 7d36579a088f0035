import { orderSettings } from '../../../src/modules/orders/orders.config';
import { ORDER_ACTIONS, ORDER_STATUSES, orderMachine, type OrderAction, type OrderActor, type OrderStatus } from '../../../src/modules/orders/orders.machine';
import type { OrderRecord } from '../../../src/modules/orders/orders.model';
import { payoutLegs, splitOf } from '../../../src/modules/orders/orders.money';
import { orderNotices } from '../../../src/modules/orders/orders.notices';
import { orderOf, type OrderDraft } from '../../../src/modules/orders/orders.place';
import { allowedOf } from '../../../src/modules/orders/orders.views';
import { outcomeOf } from '../../../src/modules/payments/payments.subscriptions';
import type { PaymentRecord } from '../../../src/modules/payments/payments.model';
import { testConfig } from '../../helpers/config';

// The orders module's pure parts: the transition table (every move from every status), the money split and its
// ledger legs, the delivery code, the notices of each status, and the payment outcome a subscriber hears.

const settings = orderSettings(testConfig());
const draft: OrderDraft = {
  id: 'o1',
  consumerId: 'con',
  seller: { kind: 'MERCHANT', id: 's1' },
  partnerId: 'p1',
  sellerName: 'Phở Hòa',
  pickup: { lat: 10.78, lng: 106.69, address: 'Pasteur' },
  dropoff: { lat: 10.77, lng: 106.7, address: 'Lê Duẩn', recipientName: null, phone: null, note: null, addressId: null },
  distanceM: 1_400,
  lines: [{ itemKey: 'pho', name: 'Phở', quantity: 2, unitPriceVnd: 40_000, lineTotalVnd: 80_000, options: [], requiresPrescription: false }],
  pricing: { itemsVnd: 80_000, deliveryFeeVnd: 25_000, serviceFeeVnd: 3_000, discountVnd: 10_000, totalVnd: 98_000 },
  voucher: null,
  payment: { method: 'CASH', provider: null, paymentId: null },
  prescriptionMediaId: null,
  note: null,
  prepTimeMin: 10,
  at: 1_000_000,
};

// The table as the issue states it: [action, from, actor] → to; everything else is refused.
const LEGAL: Array<[OrderAction, OrderStatus, OrderActor, OrderStatus]> = [
  ['pay', 'AWAITING_PAYMENT', 'SYSTEM', 'PLACED'],
  ['payFail', 'AWAITING_PAYMENT', 'SYSTEM', 'CANCELLED'],
  ['confirm', 'PLACED', 'STORE', 'CONFIRMED'],
  ['reject', 'PLACED', 'STORE', 'REJECTED'],
  ['preparing', 'CONFIRMED', 'STORE', 'PREPARING'],
  ['ready', 'PREPARING', 'STORE', 'READY_FOR_PICKUP'],
  ['assign', 'PREPARING', 'SYSTEM', 'COURIER_ASSIGNED'],
  ['assign', 'READY_FOR_PICKUP', 'SYSTEM', 'COURIER_ASSIGNED'],
  ['pickup', 'COURIER_ASSIGNED', 'COURIER', 'PICKED_UP'],
  // The store says it handed the order to the courier: picked up.
  ['handOver', 'COURIER_ASSIGNED', 'STORE', 'PICKED_UP'],
  // The courier gives it up before pickup (the pickup timer releases them as SYSTEM): back to ready, or to preparing.
  ['giveUp', 'COURIER_ASSIGNED', 'COURIER', 'READY_FOR_PICKUP'],
  ['giveUp', 'COURIER_ASSIGNED', 'SYSTEM', 'READY_FOR_PICKUP'],
  ['giveUpBeforeReady', 'COURIER_ASSIGNED', 'COURIER', 'PREPARING'],
  ['deliver', 'PICKED_UP', 'COURIER', 'DELIVERED'],
  ['cancel', 'AWAITING_PAYMENT', 'CONSUMER', 'CANCELLED'],
  ['cancel', 'PLACED', 'CONSUMER', 'CANCELLED'],
  ...(['CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'COURIER_ASSIGNED'] as const).map((s): [OrderAction, OrderStatus, OrderActor, OrderStatus] => [
    'storeCancel',
    s,
    'STORE',
    'CANCELLED',
  ]),
  ...(['AWAITING_PAYMENT', 'PLACED', 'CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'COURIER_ASSIGNED', 'PICKED_UP'] as const).map(
    (s): [OrderAction, OrderStatus, OrderActor, OrderStatus] => ['adminCancel', s, 'ADMIN', 'CANCELLED'],
  ),
  ['expire', 'PLACED', 'SYSTEM', 'CANCELLED'],
];
const ACTORS: OrderActor[] = ['CONSUMER', 'STORE', 'COURIER', 'ADMIN', 'SYSTEM'];

describe('the order’s transition table', () => {
  it('allows exactly the issue’s moves, each by its actor', () => {
    for (const action of ORDER_ACTIONS)
      for (const status of ORDER_STATUSES)
        for (const actor of ACTORS) {
          const legal = LEGAL.find(([a, s, r]) => a === action && s === status && r === actor);
          expect([action, status, actor, orderMachine.can(action, status, [actor])]).toEqual([action, status, actor, legal !== undefined]);
          if (legal) expect(orderMachine.check(action, status, [actor])).toBe(legal[3]);
        }
  });

  it('refuses every other move with 409 and a code: the actor’s first (ORDER_NOT_ALLOWED), then the status’s (ORDER_TRANSITION)', () => {
    let refused = 0;
    for (const action of ORDER_ACTIONS)
      for (const status of ORDER_STATUSES)
        for (const actor of ACTORS) {
          if (orderMachine.can(action, status, [actor])) continue;
          const byActor = LEGAL.some(([a, , r]) => a === action && r === actor);
          expect(() => orderMachine.check(action, status, [actor])).toThrow(
            expect.objectContaining({ statusCode: 409, code: byActor ? 'ORDER_TRANSITION' : 'ORDER_NOT_ALLOWED' }),
          );
          refused++;
        }
    expect(refused).toBe(ORDER_ACTIONS.length * ORDER_STATUSES.length * ACTORS.length - LEGAL.length);
  });

  it('shows each party its buttons: the store’s and the administrator’s cancel as `cancel`, never the service’s moves', () => {
    expect(allowedOf('PLACED', ['STORE'])).toEqual(['confirm', 'reject']);
    expect(allowedOf('PREPARING', ['STORE'])).toEqual(['ready', 'cancel']);
    expect(allowedOf('PLACED', ['CONSUMER'])).toEqual(['cancel']);
    expect(allowedOf('AWAITING_PAYMENT', ['SYSTEM'])).toEqual([]);
    expect(allowedOf('PICKED_UP', ['ADMIN'])).toEqual(['cancel']);
    expect(allowedOf('COURIER_ASSIGNED', ['COURIER'])).toEqual(['pickup', 'giveUp']);
    expect(allowedOf('DELIVERED', ['CONSUMER', 'STORE', 'COURIER', 'ADMIN'])).toEqual([]);
  });
});

describe('placing', () => {
  it('a cash or wallet order is PLACED with its confirmation time; a gateway one awaits its payment', () => {
    expect(orderOf(draft, settings)).toMatchObject({
      status: 'PLACED',
      placedAt: 1_000_000,
      confirmBy: 1_600_000,
      participants: ['con'],
      sellerKey: 'MERCHANT:s1',
    });
    const gateway = orderOf({ ...draft, payment: { method: 'GATEWAY', provider: 'VNPAY', paymentId: 'P1' } }, settings);
    expect(gateway).toMatchObject({ status: 'AWAITING_PAYMENT', placedAt: null, confirmBy: null });
    expect(gateway.settlement).toEqual({ stockReturned: false, payment: null, paymentId: null, voucherReleased: false, paidOut: false });
  });
});

describe('the money of a delivered order', () => {
  const delivered = (method: 'CASH' | 'WALLET'): OrderRecord => ({
    ...orderOf({ ...draft, payment: { method, provider: null, paymentId: null } }, settings),
    driverId: 'drv',
  });

  it('the store gets the items less 20%, the courier the delivery fee less 10%; a cash courier collects the total', () => {
    expect(splitOf(delivered('CASH'), settings)).toEqual({
      storeVnd: 64_000,
      courierVnd: 22_500,
      commissionVnd: 16_000,
      deliveryCommissionVnd: 2_500,
      collectVnd: 98_000,
    });
    expect(splitOf(delivered('WALLET'), settings).collectVnd).toBe(0);
  });

  it('pays out of platform revenue; cash first from the courier’s earnings (which may go below zero); the legs balance', () => {
    const cash = delivered('CASH');
    const legs = payoutLegs(cash, splitOf(cash, settings), 'owner');
    expect(legs.map((l) => [l.kind, l.debit.id, l.credit.id, l.amount, l.allowOverdraft ?? false])).toEqual([
      ['FEE', 'earnings_drv', 'platform_revenue', 98_000, true],
      ['PAYMENT', 'platform_revenue', 'earnings_owner', 64_000, false],
      ['PAYMENT', 'platform_revenue', 'earnings_drv', 22_500, false],
    ]);
    const platform = legs.reduce((sum, l) => sum + (l.credit.id === 'platform_revenue' ? l.amount : 0) - (l.debit.id === 'platform_revenue' ? l.amount : 0), 0);
    // The service fee and both commissions, less the discount the platform pays.
    expect(platform).toBe(3_000 + 16_000 + 2_500 - 10_000);
    expect(payoutLegs(delivered('WALLET'), splitOf(delivered('WALLET'), settings), 'owner').map((l) => l.kind)).toEqual(['PAYMENT', 'PAYMENT']);
  });
});

describe('the notices of each status', () => {
  const order = (status: OrderStatus, extra: Partial<OrderRecord> = {}): OrderRecord => ({ ...orderOf(draft, settings), status, ...extra });
  const members = [
    { userId: 'owner', role: 'OWNER' as const },
    { userId: 'staff', role: 'STAFF' as const },
  ];
  const who = (before: OrderRecord | undefined, after: OrderRecord) =>
    orderNotices(before, after, members).map((n) => `${n.event}→${n.recipients.map((r) => `${r.userId}@${r.surface}`).join(',')}`);

  it('tell the consumer each step, the store of new, delivered and cancelled orders, the courier of its job', () => {
    expect(who(undefined, order('PLACED'))).toEqual(['order.created→con@CON', 'order.created→owner@PAR,staff@PAR']);
    expect(who(undefined, order('AWAITING_PAYMENT'))).toEqual([]);
    expect(who(order('PLACED'), order('CONFIRMED'))).toEqual(['order.confirmed→con@CON']);
    expect(who(order('CONFIRMED'), order('PREPARING'))).toEqual(['order.preparing→con@CON']);
    expect(who(order('PREPARING'), order('READY_FOR_PICKUP'))).toEqual([]);
    const assigned = order('COURIER_ASSIGNED', { driverId: 'drv', courier: { name: 'Minh' } });
    expect(who(order('READY_FOR_PICKUP'), assigned)).toEqual(['order.assigned→con@CON', 'order.assigned→drv@DRV']);
    expect(who(assigned, { ...assigned, status: 'PICKED_UP' })).toEqual(['order.pickedUp→con@CON']);
    expect(who(assigned, { ...assigned, status: 'DELIVERED' })).toEqual(['order.delivered→con@CON,owner@PAR,staff@PAR']);
    expect(who(assigned, { ...assigned, status: 'CANCELLED', cancelledBy: 'STORE' })).toEqual([
      'order.cancelled→con@CON,owner@PAR,staff@PAR',
      'order.unassigned→drv@DRV',
    ]);
    expect(who(order('AWAITING_PAYMENT'), order('CANCELLED', { cancelReasonCode: 'PAYMENT_FAILED' }))).toEqual(['order.cancelled→con@CON']);
    expect(who(order('PLACED'), order('REJECTED', { cancelReason: 'Hết món' }))).toEqual(['order.rejected→con@CON']);
    expect(who(order('PLACED'), order('PLACED'))).toEqual([]);
  });

  it('a store member who ordered hears it once, as the consumer', () => {
    expect(
      orderNotices(undefined, order('PLACED', { consumerId: 'owner' }), members).flatMap((n) => n.recipients.map((r) => `${r.userId}@${r.surface}`)),
    ).toEqual(['owner@CON', 'staff@PAR']);
  });
});

describe('a payment’s outcome, as a subscriber hears it', () => {
  const payment = (status: PaymentRecord['status'], type = 'ORDER') =>
    ({ id: 'P1', status, ref: { type, id: 'o1' }, method: 'GATEWAY', amount: 98_000, payerId: 'con' }) as PaymentRecord;

  it('only its own payments, only when they reach an outcome', () => {
    expect(outcomeOf(payment('PENDING'), payment('SUCCEEDED'), 'ORDER')).toMatchObject({
      paymentId: 'P1',
      status: 'SUCCEEDED',
      previous: 'PENDING',
      ref: { id: 'o1' },
    });
    expect(outcomeOf(payment('PENDING'), payment('FAILED'), 'ORDER')?.status).toBe('FAILED');
    expect(outcomeOf(payment('EXPIRED'), payment('SUCCEEDED'), 'ORDER')?.previous).toBe('EXPIRED');
    expect(outcomeOf(payment('PENDING'), payment('SUCCEEDED', 'RIDE'), 'ORDER')).toBeUndefined();
    expect(outcomeOf(payment('SUCCEEDED'), payment('SUCCEEDED'), 'ORDER')).toBeUndefined();
    expect(outcomeOf(payment('SUCCEEDED'), payment('REFUNDED'), 'ORDER')).toBeUndefined();
    expect(outcomeOf(payment('PENDING'), undefined, 'ORDER')).toBeUndefined();
  });
});
