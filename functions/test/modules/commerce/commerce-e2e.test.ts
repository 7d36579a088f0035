import { randomUUID } from 'node:crypto';
import { ORDERS } from '../../../src/modules/orders/orders.collections';
import { db } from '../../../src/platform/core/firebase/firebase';
import { IDEMPOTENCY_COLLECTION, recordId } from '../../../src/platform/kits/idempotency/idempotency';
import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineCourier } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { earnings, ledgerCheck, topUp, walletOf } from '../../helpers/wallet';
import { addressNear, location, orders, storeAt } from './setup';

// The whole commerce flow through the real modules (the module tests use doubles of their neighbours): a consumer
// browses a store, fills a cart, checks out from the wallet; the store confirms, prepares and hands over to the
// courier the job pool found; the courier delivers with the consumer's code; the ledger pays store and courier.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

it('browse → cart → checkout → store confirms → courier delivers, with the money through the ledger', async () => {
  const here = area();
  const { owner, seller } = await storeAt(here);
  const [consumer, stranger, courier] = await Promise.all([registerVerified({ name: 'Lan' }), registerVerified(), onlineCourier(here.near(300))]);
  await topUp(consumer, 500_000);

  const menu = await call('GET', `/merchants/${seller.id}/menu`, { token: consumer.accessToken });
  expect(menu.status).toBe(200);
  const added = await call('POST', '/cart/items', {
    token: consumer.accessToken,
    body: { seller, itemKey: 'pho-tai', quantity: 2, options: [{ group: 'size', choices: ['lon'] }], note: 'không hành' },
  });
  expect(added.status).toBe(201);
  // A price the client sends is refused, never used.
  const tampered = await call('POST', '/cart/items', { token: consumer.accessToken, body: { seller, itemKey: 'pho-tai', quantity: 1, priceVnd: 1 } });
  expect(tampered.status).toBe(400);

  const address = addressNear(here);
  const quote = await call('POST', '/cart/quote', { token: consumer.accessToken, body: { seller, address } });
  expect(quote.status).toBe(200);
  expect(quote.body).toMatchObject({ canCheckout: true, problems: [] });
  // Two large bowls: (55,000 + 10,000) × 2 from the stored menu.
  expect(quote.body.pricing.itemsVnd).toBe(130_000);
  const key = randomUUID();
  const checkout = await call('POST', '/cart/checkout', {
    token: consumer.accessToken,
    headers: { 'idempotency-key': key },
    body: { seller, address, payment: { method: 'WALLET' } },
  });
  expect(checkout.status).toBe(201);
  const order = checkout.body.order;
  // Placed at once, its answer was stored with the order, in its commit (the same write time): nothing written after.
  const [entry, placed] = await Promise.all([
    db()
      .collection(IDEMPOTENCY_COLLECTION)
      .doc(recordId(consumer.user.id, 'post /cart/checkout', key))
      .get(),
    db().collection(ORDERS).doc(order.id).get(),
  ]);
  expect([entry.get('state'), entry.updateTime!.isEqual(placed.createTime!)]).toEqual(['DONE', true]);
  expect(JSON.parse(entry.get('answer').body)).toEqual(checkout.body);
  expect(order).toMatchObject({ status: 'PLACED' });
  const total = checkout.body.payment.amount as number;
  expect(total).toBe(quote.body.pricing.totalVnd);
  expect(await walletOf(consumer)).toMatchObject({ balance: 500_000 - total, held: total });
  expect((await call('GET', '/cart', { token: consumer.accessToken })).body.items).toEqual([]);

  // Strangers see nothing; the store's owner sees it in its queue.
  expect((await call('GET', `/orders/${order.id}`, { token: stranger.accessToken })).status).toBe(404);
  const queue = await call('GET', `/merchants/${seller.id}/orders`, { token: owner.accessToken });
  expect(queue.body.items.map((o: { id: string }) => o.id)).toContain(order.id);

  for (const step of ['confirm', 'preparing', 'ready'])
    expect((await call('POST', `/orders/${order.id}/${step}`, { token: owner.accessToken, body: {} })).status).toBe(200);
  // The courier search task's work (run here rather than waiting for the queue).
  await orders().searchCourier(order.id);
  const assigned = await call('GET', `/orders/${order.id}`, { token: consumer.accessToken });
  expect(assigned.body).toMatchObject({ status: 'COURIER_ASSIGNED', driverId: courier.user.id });
  expect(await location(courier.user.id)).toMatchObject({ currentJobId: order.id, currentJobKind: 'ORDER' });
  // A driver on an order is offered no ride.
  expect((await location(courier.user.id)).dispatchKey).toBeNull();

  const picked = await call('POST', `/orders/${order.id}/pickup`, { token: courier.accessToken, body: {} });
  expect(picked.status).toBe(200);
  expect((await location(courier.user.id)).sharedWithId).toBe(consumer.user.id);
  // The courier never sees the consumer's code.
  expect((await call('GET', `/orders/${order.id}`, { token: courier.accessToken })).body.handoverCode ?? null).toBeNull();
  const code = assigned.body.handoverCode as string;
  const delivered = await call('POST', `/orders/${order.id}/deliver`, { token: courier.accessToken, body: { code } });
  expect(delivered.status).toBe(200);
  expect(delivered.body.status).toBe('DELIVERED');
  expect((await location(courier.user.id)).currentJobId ?? null).toBeNull();

  expect(await walletOf(consumer)).toMatchObject({ balance: 500_000 - total, held: 0 });
  expect(await earnings(owner)).toBeGreaterThan(0);
  expect(await earnings(courier)).toBeGreaterThan(0);
  for (const who of [consumer.user.id, owner.user.id, courier.user.id]) expect((await ledgerCheck(who)).ok).toBe(true);
});
