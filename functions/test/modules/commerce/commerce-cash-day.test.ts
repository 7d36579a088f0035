import { checkLedger } from '../../../src/modules/wallet/ledger.check';
import { SYSTEM_ACCOUNTS, userAccountId } from '../../../src/modules/wallet/ledger.model';
import { registerVerified } from '../../helpers/accounts';
import { area, onlineCourier } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { deliverVnpayIpn, vnpayNotice } from '../../helpers/gateways';
import { earnings, ledgerCheck, topUp, walletOf } from '../../helpers/wallet';
import { confirmTimerFires, deliverThrough, getOrder, location, orderUntil, payoutOf, placeOrder, stockOf, storeAt, storeMove, type Json } from './setup';

// Cash on delivery through the real modules, then a day of orders of one store and one courier (delivered by wallet,
// cash and gateway; cancelled, rejected, timed out) after which the whole ledger agrees with its transfers, as
// `npm run ledger:check` reads it.
beforeAll(requireEmulators);
jest.setTimeout(120_000);

it('CASH: the courier collects the total and owes it less their earnings; the store is paid out; the platform keeps its part', async () => {
  const here = area();
  const { owner, seller } = await storeAt(here, 'Bún chả Hương Liên');
  const [consumer, courier] = await Promise.all([registerVerified({ name: 'Minh' }), onlineCourier(here.near(250))]);
  const placed = await placeOrder(consumer, seller, here, { method: 'CASH' }, { 'pho-tai': 2, 'pho-dac-biet': 1 });
  expect(placed.payment).toBeNull();
  expect(placed.order).toMatchObject({ status: 'PLACED', payment: { method: 'CASH', paymentId: null } });
  const pricing = placed.order.pricing as Json;
  expect(pricing.itemsVnd).toBe(55_000 * 2 + 85_000);
  expect(pricing.totalVnd).toBe(pricing.itemsVnd + pricing.deliveryFeeVnd + pricing.serviceFeeVnd - pricing.discountVnd);
  expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(2);

  const delivered = await deliverThrough(consumer, owner, courier, placed.order.id);
  expect(delivered).toMatchObject({ status: 'DELIVERED', payment: { settled: 'COLLECTED' }, split: { collectVnd: pricing.totalVnd } });
  const courierSplit = delivered.split as Json;
  const storeSplit = (await getOrder(owner, placed.order.id)).body.split as Json;
  expect(storeSplit.storeVnd + storeSplit.commissionVnd).toBe(pricing.itemsVnd);
  expect(courierSplit.courierVnd).toBeGreaterThan(0);
  expect(courierSplit.courierVnd).toBeLessThanOrEqual(pricing.deliveryFeeVnd);

  // The ledger: the cash first, from the courier's earnings (below zero), then the store's and the courier's parts.
  const revenue = SYSTEM_ACCOUNTS.platformRevenue;
  const courierAccount = userAccountId('EARNINGS', courier.user.id);
  expect((await payoutOf(placed.order.id)).map(({ debit, credit, amount }) => ({ debit, credit, amount }))).toEqual([
    { debit: courierAccount, credit: revenue, amount: pricing.totalVnd },
    { debit: revenue, credit: userAccountId('EARNINGS', owner.user.id), amount: storeSplit.storeVnd },
    { debit: revenue, credit: courierAccount, amount: courierSplit.courierVnd },
  ]);
  expect(await earnings(courier)).toBe(courierSplit.courierVnd - pricing.totalVnd);
  expect(await earnings(owner)).toBe(storeSplit.storeVnd);
  // What the platform keeps of the cash: the service fee and both commissions, less the discount.
  const kept = pricing.totalVnd - storeSplit.storeVnd - courierSplit.courierVnd;
  expect(kept).toBe(pricing.serviceFeeVnd + storeSplit.commissionVnd + (pricing.deliveryFeeVnd - courierSplit.courierVnd) - pricing.discountVnd);
  // The consumer's wallet was never touched; the courier is free again.
  expect(await walletOf(consumer)).toMatchObject({ balance: 0, held: 0 });
  expect((await location(courier.user.id)).currentJobId ?? null).toBeNull();
  for (const who of [consumer.user.id, owner.user.id, courier.user.id]) expect((await ledgerCheck(who)).ok).toBe(true);
});

it('a day of orders (wallet, cash, gateway delivered; cancelled, rejected, timed out): every account agrees with its transfers', async () => {
  const here = area();
  const { owner, seller } = await storeAt(here, 'Cơm tấm Ba Ghiền');
  // Two consumers: neither holds more than a few pending orders at once.
  const [early, late, courier] = await Promise.all([registerVerified(), registerVerified(), onlineCourier(here.near(300))]);
  await Promise.all([topUp(early, 400_000), topUp(late, 400_000)]);

  const wallet = await placeOrder(early, seller, here, { method: 'WALLET' });
  const cash = await placeOrder(early, seller, here, { method: 'CASH' });
  const gateway = await placeOrder(late, seller, here, { method: 'GATEWAY', provider: 'VNPAY' });
  expect(gateway.order.status).toBe('AWAITING_PAYMENT');
  expect((await deliverVnpayIpn(vnpayNotice(gateway.payment!.paymentUrl))).body.RspCode).toBe('00');
  await orderUntil(late, gateway.order.id, (o) => o.status === 'PLACED', 'the paid order');
  for (const [who, placed] of [
    [early, wallet],
    [early, cash],
    [late, gateway],
  ] as const) {
    const done = await deliverThrough(who, owner, courier, placed.order.id);
    expect(done.payment.settled).toBe({ WALLET: 'CAPTURED', CASH: 'COLLECTED', GATEWAY: 'PAID' }[placed.order.payment.method as string]);
  }

  const cancelled = await placeOrder(early, seller, here, { method: 'WALLET' }, { 'pho-dac-biet': 1 });
  const rejected = await placeOrder(late, seller, here, { method: 'CASH' }, { 'pho-dac-biet': 1 });
  const expired = await placeOrder(late, seller, here, { method: 'WALLET' }, { 'pho-dac-biet': 1 });
  expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(0);
  expect((await storeMove(early, cancelled.order.id, 'cancel', { reason: 'Đặt nhầm' })).status).toBe('CANCELLED');
  expect((await storeMove(owner, rejected.order.id, 'reject', { reason: 'Hết nguyên liệu' })).status).toBe('REJECTED');
  await confirmTimerFires(expired.order.id);
  expect((await getOrder(late, expired.order.id)).body).toMatchObject({
    status: 'CANCELLED',
    cancelReasonCode: 'CONFIRM_TIMEOUT',
    payment: { settled: 'RELEASED' },
  });
  expect(await stockOf(owner, seller, 'pho-dac-biet')).toBe(3);

  // Each consumer paid exactly for what was delivered to them; nothing is held.
  const paid = (o: { order: Json }) => o.order.pricing.totalVnd as number;
  expect(await walletOf(early)).toEqual(expect.objectContaining({ balance: 400_000 - paid(wallet), held: 0 }));
  expect(await walletOf(late)).toEqual(expect.objectContaining({ balance: 400_000, held: 0 }));
  for (const who of [early.user.id, late.user.id, owner.user.id, courier.user.id]) expect((await ledgerCheck(who)).ok).toBe(true);
  const report = await checkLedger();
  expect(report.mismatches).toEqual([]);
  expect([report.ok, report.total]).toEqual([true, 0]);
});
