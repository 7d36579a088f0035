import { randomUUID } from 'node:crypto';
import type { Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { advance, draftOf, freeCourier, place, useOrdersApp, walletOrder } from '../../helpers/orders';
import { earnings, walletOf } from '../../helpers/wallet';
import { inTransaction } from '../../../src/platform/core/firebase/firebase';
import { orderSettings } from '../../../src/modules/orders/orders.config';

// The orders module through the API, built in-process with its neighbours' doubles (orders helper): the flow from
// the store's confirmation to the courier's delivery, who sees an order, the store's queue and the consumer's list.

const staff = withStaff();
const { doubles, armed, app, cast } = useOrdersApp();

describe('an order from the store to the door', () => {
  it('a wallet order: confirmed, prepared, ready, given a courier, picked up and delivered with the code; captured and paid out', async () => {
    const courier = await freeCourier(doubles);
    const [ownerBefore, courierBefore] = await Promise.all([earnings(cast.owner), earnings(courier)]);
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    const seen = await app.call('GET', `/orders/${order.id}`, { token: cast.consumer });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'PLACED', allowed: ['cancel'], handoverCode: expect.stringMatching(/^\d{4}$/), driverId: null });
    expect(Date.parse(seen.body.confirmBy) - Date.parse(seen.body.placedAt)).toBe(600_000);
    expect((await walletOf(cast.consumer)).held).toBeGreaterThanOrEqual(135_000);

    const key = randomUUID();
    const confirm = () => app.call('POST', `/orders/${order.id}/confirm`, { token: cast.staff, body: {}, headers: { 'idempotency-key': key } });
    const confirmed = await confirm();
    expect(confirmed.body).toMatchObject({ status: 'CONFIRMED', allowed: ['preparing', 'cancel'], split: { storeVnd: 76_000, commissionVnd: 19_000 } });
    expect((await confirm()).headers.get('idempotent-replayed')).toBe('true');
    // A repeat without the key (a retry after a lost answer) answers the order as it is.
    expect((await app.call('POST', `/orders/${order.id}/confirm`, { token: cast.staff, body: {} })).body.status).toBe('CONFIRMED');

    await advance(app, cast, order.id, 'COURIER_ASSIGNED');
    const assigned = await app.call('GET', `/orders/${order.id}`, { token: courier });
    expect(assigned.body).toMatchObject({
      status: 'COURIER_ASSIGNED',
      driverId: courier.user.id,
      handoverCode: null,
      split: { courierVnd: 31_500, collectVnd: 0 },
    });
    expect((await doubles.courierState(courier.user.id)).jobId).toBe(order.id);
    expect((await app.call('GET', '/orders/courier/current', { token: courier })).body.order.id).toBe(order.id);

    const picked = await app.call('POST', `/orders/${order.id}/pickup`, { token: courier });
    expect(picked.body).toMatchObject({ status: 'PICKED_UP', readyAt: expect.any(String) });
    expect((await doubles.courierState(courier.user.id)).sharedWith).toBe(cast.consumer.user.id);

    const code = (await app.call('GET', `/orders/${order.id}`, { token: cast.consumer })).body.handoverCode;
    const delivered = await app.call('POST', `/orders/${order.id}/deliver`, { token: courier, body: { code } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ status: 'DELIVERED', proof: { kind: 'CODE', mediaId: null }, payment: { settled: 'CAPTURED' } });
    expect(await doubles.courierState(courier.user.id)).toMatchObject({ jobId: null, sharedWith: null });
    expect((await app.call('GET', '/orders/courier/current', { token: courier })).body.order).toBeNull();
    expect(await app.payments.get(order.payment.paymentId!)).toMatchObject({ status: 'SUCCEEDED', capturedAmount: 135_000 });
    expect([(await earnings(cast.owner)) - ownerBefore, (await earnings(courier)) - courierBefore]).toEqual([76_000, 31_500]);

    const history = await app.call('GET', `/orders/${order.id}/events`, { token: cast.consumer });
    expect(history.body.items.map((e: { action: string; by: string }) => `${e.action}:${e.by}`)).toEqual([
      'place:CONSUMER',
      'confirm:STAFF',
      'preparing:STAFF',
      'ready:STAFF',
      'assign:SYSTEM',
      'pickup:COURIER',
      'deliver:COURIER',
    ]);
  });

  it('a courier found while the food is prepared: "ready" is then a note, and the pickup follows', async () => {
    const courier = await freeCourier(doubles);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await advance(app, cast, order.id, 'PREPARING');
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    const ready = await app.call('POST', `/orders/${order.id}/ready`, { token: cast.staff, body: {} });
    expect(ready.body).toMatchObject({ status: 'COURIER_ASSIGNED', readyAt: expect.any(String) });
    expect((await app.call('POST', `/orders/${order.id}/ready`, { token: cast.staff, body: {} })).body.readyAt).toBe(ready.body.readyAt);
    // `ready` started the pickup window of this assignment (one task, asked again by the repeat: the same id).
    const windows = armed.filter((t) => t.id === order.id && t.queue === 'pickup');
    const minutes = orderSettings(app.config).pickupWindowMin;
    expect(windows.map((t) => [t.phase, Math.round(t.delaySec / 60)])).toEqual([
      [`a${Date.parse(ready.body.assignedAt)}`, minutes],
      [`a${Date.parse(ready.body.assignedAt)}`, minutes],
    ]);
    expect((await app.call('POST', `/orders/${order.id}/pickup`, { token: courier })).body.status).toBe('PICKED_UP');
    const actions = (await app.call('GET', `/orders/${order.id}/events`, { token: cast.staff })).body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['place', 'confirm', 'preparing', 'assign', 'ready', 'pickup']);
  });
});

describe('checkout’s face', () => {
  it('txExists tells a replay from a new order; view answers the consumer’s view, undefined to anyone else', async () => {
    const draft = draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store);
    expect(await inTransaction((tx) => app.commands.txExists(tx, draft.id))).toBe(false);
    await place(app, draft);
    expect(await inTransaction((tx) => app.commands.txExists(tx, draft.id))).toBe(true);
    const shown = (await app.commands.view(draft.id, cast.consumer.user.id)) as { id: string; status: string; handoverCode: string; pricing: unknown };
    expect(shown).toMatchObject({ id: draft.id, status: 'PLACED', handoverCode: expect.stringMatching(/^\d{4}$/), pricing: draft.pricing });
    expect(shown).toEqual((await app.call('GET', `/orders/${draft.id}`, { token: cast.consumer })).body);
    expect(await app.commands.view(draft.id, cast.other.user.id)).toBeUndefined();
    expect(await app.commands.view('no-such-order', cast.consumer.user.id)).toBeUndefined();
  });
});

describe('who sees an order', () => {
  it('its consumer, the store’s staff, its courier and administrators with orders.manage; anyone else 404', async () => {
    const courier = await freeCourier(doubles);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    const get = (token: Tokens | undefined) => app.call('GET', `/orders/${order.id}`, { token });
    const [none, manager] = await Promise.all([staff.limitedAdmin([]), staff.limitedAdmin(['orders.manage'])]);
    for (const who of [cast.other, cast.rival, cast.stranger, courier, none]) {
      expect((await get(who)).status).toBe(404);
      expect((await app.call('GET', `/orders/${order.id}/events`, { token: who })).status).toBe(404);
    }
    expect((await app.call('POST', `/orders/${order.id}/confirm`, { token: cast.rival, body: {} })).status).toBe(404);
    const store = await get(cast.staff);
    expect(store.body).toMatchObject({ handoverCode: null, split: { storeVnd: 76_000, courierVnd: null }, allowed: ['confirm', 'reject'] });
    expect((await get(cast.owner)).status).toBe(200);
    expect((await get(manager)).body).toMatchObject({ handoverCode: null, allowed: ['cancel'], split: { storeVnd: 76_000, courierVnd: 31_500 } });
    expect((await get(staff.admin())).status).toBe(200);

    await advance(app, cast, order.id, 'COURIER_ASSIGNED');
    expect((await get(courier)).body).toMatchObject({ status: 'COURIER_ASSIGNED', prescriptionMediaId: null, split: { storeVnd: null, collectVnd: 135_000 } });
    expect((await get(cast.stranger)).status).toBe(404);
    // The courier's cancel (the consumer's move), or a driver's move of another's order: refused by role, or unseen.
    expect((await app.call('POST', `/orders/${order.id}/cancel`, { token: courier, body: {} })).body.code).toBe('ORDER_NOT_ALLOWED');
    expect((await app.call('POST', `/orders/${order.id}/pickup`, { token: cast.stranger })).status).toBe(404);
  });
});

describe('lists', () => {
  it('the store’s queue: its staff by status and page; another partner’s staff and unknown stores 404', async () => {
    const store = doubles.store(cast.owner.partnerId);
    const [a, b] = [draftOf(cast.consumer.user.id, cast.owner.partnerId, store), draftOf(cast.other.user.id, cast.owner.partnerId, store)];
    await place(app, { ...a, at: Date.now() - 1_000 });
    await place(app, b);
    await app.call('POST', `/orders/${a.id}/confirm`, { token: cast.staff, body: {} });
    const queue = (query: string, token = cast.staff) => app.call('GET', `/merchants/${store.id}/orders${query}`, { token });
    expect((await queue('')).body.items.map((o: { id: string }) => o.id)).toEqual([b.id, a.id]);
    expect((await queue('?status=PLACED')).body.items.map((o: { id: string }) => o.id)).toEqual([b.id]);
    expect((await queue('?status=PLACED,CONFIRMED')).body.items).toHaveLength(2);
    const first = await queue('?limit=1');
    expect(first.body.items[0].id).toBe(b.id);
    expect((await queue(`?limit=1&cursor=${first.body.nextCursor}`)).body.items[0].id).toBe(a.id);
    expect((await queue(`?limit=1&cursor=${first.body.nextCursor}`, cast.owner)).body.code).toBe('INVALID_CURSOR');
    expect((await queue('?status=LOST')).status).toBe(400);
    expect((await queue('', cast.rival)).status).toBe(404);
    expect((await app.call('GET', `/merchants/store-nope/orders`, { token: cast.staff })).status).toBe(404);
    expect((await queue('', staff.admin())).body.items).toHaveLength(2);
    expect((await queue('', await staff.limitedAdmin([]))).body.code).toBe('PERMISSION_REQUIRED');
    const pharmacy = doubles.store(cast.owner.partnerId, 'PHARMACY');
    const medicine = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, pharmacy));
    expect((await app.call('GET', `/pharmacy/stores/${pharmacy.id}/orders`, { token: cast.owner })).body.items.map((o: { id: string }) => o.id)).toEqual([
      medicine.id,
    ]);
  });

  it('the consumer’s own orders, newest first and by status; drivers have no consumer list', async () => {
    const mine = await place(app, draftOf(cast.other.user.id, cast.owner.partnerId, cast.store));
    const listed = await app.call('GET', '/orders?limit=100', { token: cast.other });
    expect(listed.body.items[0].id).toBe(mine.id);
    expect(listed.body.items.every((o: { consumerId: string }) => o.consumerId === cast.other.user.id)).toBe(true);
    expect((await app.call('GET', '/orders?status=DELIVERED', { token: cast.other })).body.items.some((o: { id: string }) => o.id === mine.id)).toBe(false);
    expect((await app.call('GET', '/orders', { token: cast.stranger })).body.code).toBe('HAT_LOCKED');
    expect((await app.call('GET', '/orders/courier/current', { token: cast.consumer })).status).toBe(403);
  });

  it('administrators list every order by one filter (orders.manage); two filters at once are 400', async () => {
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    const admin = staff.admin();
    const byPartner = await app.call('GET', `/orders/admin?partnerId=${cast.owner.partnerId}&status=PLACED&limit=100`, { token: admin });
    expect(byPartner.body.items.some((o: { id: string }) => o.id === order.id)).toBe(true);
    const byStore = await app.call('GET', `/orders/admin?sellerId=${cast.store.id}&sellerKind=MERCHANT&limit=100`, { token: admin });
    expect(byStore.body.items.every((o: { seller: { id: string } }) => o.seller.id === cast.store.id)).toBe(true);
    expect((await app.call('GET', `/orders/admin?partnerId=x&consumerId=y`, { token: admin })).status).toBe(400);
    expect((await app.call('GET', '/orders/admin', { token: await staff.limitedAdmin(['rides.manage']) })).body.code).toBe('PERMISSION_REQUIRED');
    expect((await app.call('GET', '/orders/admin', { token: cast.consumer })).status).toBe(403);
  });
});
