import { randomUUID } from 'node:crypto';
import { ORDERS } from '../../../src/modules/orders';
import { NoCourierFree } from '../../../src/modules/orders/orders.dispatch';
import { onOrderWritten } from '../../../src/modules/orders/orders.triggers';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { driverAccount } from '../../helpers/drivers';
import { inboxOf } from '../../helpers/notifications';
import { advance, draftOf, freeCourier, nearStore, place, STORE_AT, useOrdersApp, type Armed } from '../../helpers/orders';

// The order's background work: the trigger's notices (delivered at least once, notifying once), the timers it arms,
// and the courier search through the job pool's double (nearest first, a taken courier skipped, races, retries).

const { doubles, app, cast } = useOrdersApp();

const stored = async (id: string) => ({ id, data: (await db().collection(ORDERS).doc(id).get()).data()! });
const change = (before: DocumentEvent['before'], after: DocumentEvent['after']): DocumentEvent => ({
  id: `evt-${randomUUID()}`,
  time: new Date().toISOString(),
  params: {},
  before,
  after,
});
const count = async (userId: string, event: string, entityId: string) => (await inboxOf(userId, { event, entityId })).length;

describe('the trigger, delivered twice, notifies once', () => {
  it('the new order to the consumer and the store’s owner and staff; the courier’s assignment; the cancellation', async () => {
    const courier = await freeCourier(doubles);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    const created = change(undefined, await stored(order.id));
    for (let i = 0; i < 2; i++) await onOrderWritten(created, app.config, undefined, app.service);
    expect(await Promise.all([cast.consumer, cast.owner, cast.staff].map((u) => count(u.user.id, 'order.created', order.id)))).toEqual([1, 1, 1]);
    const [forStore] = await inboxOf(cast.owner.user.id, { event: 'order.created', entityId: order.id });
    expect(forStore).toMatchObject({
      kind: 'ORDER',
      surface: 'PAR',
      title: 'New order',
      data: { sfx: 'notif_order', deepLink: { tab: 'OrdersTab', screen: 'OrderDetail' } },
    });
    expect(forStore.data.deepLink.params).toMatchObject({ appLink: `app://orders/${order.id}` });

    await advance(app, cast, order.id, 'READY_FOR_PICKUP');
    const ready = await stored(order.id);
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    const assigned = change(ready, await stored(order.id));
    for (let i = 0; i < 2; i++) await onOrderWritten(assigned, app.config, undefined, app.service);
    expect([await count(cast.consumer.user.id, 'order.assigned', order.id), await count(courier.user.id, 'order.assigned', order.id)]).toEqual([1, 1]);
    const [job] = await inboxOf(courier.user.id, { event: 'order.assigned', entityId: order.id });
    expect(job).toMatchObject({ surface: 'DRV', data: { deepLink: { tab: 'TripTab', screen: 'CourierJob' } } });

    await app.call('POST', `/orders/${order.id}/cancel`, { token: cast.staff, body: { reason: 'Bếp quá tải' } });
    const cancelled = change(assigned.after, await stored(order.id));
    for (let i = 0; i < 2; i++) await onOrderWritten(cancelled, app.config, undefined, app.service);
    const told = await Promise.all([cast.consumer, cast.owner].map((u) => count(u.user.id, 'order.cancelled', order.id)));
    expect([...told, await count(courier.user.id, 'order.unassigned', order.id)]).toEqual([1, 1, 1]);
    // A write that changes no status (the settlement's marks) notifies nobody.
    expect(await onOrderWritten(change(cancelled.after, cancelled.after), app.config, undefined, app.service)).toBe(0);
  });

  it('arms the confirmation timer for a PLACED order and the courier search for one being prepared or ready', async () => {
    const asked: Armed[] = [];
    const service = app.shifted(0, asked);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await onOrderWritten(change(undefined, await stored(order.id)), app.config, { dispatch: async () => [] }, service);
    await advance(app, cast, order.id, 'PREPARING');
    await onOrderWritten(change(undefined, await stored(order.id)), app.config, { dispatch: async () => [] }, service);
    await app.call('POST', `/orders/${order.id}/ready`, { token: cast.staff, body: {} });
    await onOrderWritten(change(undefined, await stored(order.id)), app.config, { dispatch: async () => [] }, service);
    // One task per search round: the one armed while it was prepared, and a new round once it is ready.
    expect(asked.map((a) => [a.queue, a.id, a.phase ?? null, Math.round(a.delaySec / 60)])).toEqual([
      ['confirm', order.id, null, 10],
      ['courier', order.id, 'r0', 10],
      ['courier', order.id, 'r1', 0],
    ]);
  });
});

describe('the courier search', () => {
  it('gives the nearest free courier within reach; the consumer never delivers their own order', async () => {
    const far = await freeCourier(doubles, nearStore(5_600, 6_300));
    const near = await driverAccount();
    await doubles.courier(near.user.id, nearStore(22, 22));
    const nearer = await driverAccount();
    await doubles.courier(nearer.user.id, nearStore(11, 11));
    await doubles.courier(cast.consumer.user.id, STORE_AT);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await advance(app, cast, order.id, 'READY_FOR_PICKUP');
    expect(await app.service.runCourierSearch(order.id)).toBe('expired');
    expect((await app.call('GET', `/orders/${order.id}`, { token: cast.consumer })).body).toMatchObject({
      status: 'COURIER_ASSIGNED',
      driverId: nearer.user.id,
      courier: { name: 'Tài xế' },
    });
    expect((await doubles.courierState(far.user.id)).jobId).toBeNull();
    // Nothing to do any more: assigned.
    expect(await app.service.runCourierSearch(order.id)).toBe('settled');
    expect(await app.service.searchCourier(order.id)).toBe('settled');
  });

  it('two orders racing for one courier: one gets them, the other finds nobody free', async () => {
    const courier = await freeCourier(doubles);
    const [a, b] = [
      await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store)),
      await place(app, draftOf(cast.other.user.id, cast.owner.partnerId, cast.store)),
    ];
    await Promise.all([advance(app, cast, a.id, 'READY_FOR_PICKUP'), advance(app, cast, b.id, 'READY_FOR_PICKUP')]);
    const results = await Promise.allSettled([app.service.searchCourier(a.id), app.service.searchCourier(b.id)]);
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<string>).value)).toEqual(['assigned']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(NoCourierFree);
    const winner = results[0].status === 'fulfilled' ? a.id : b.id;
    expect((await doubles.courierState(courier.user.id)).jobId).toBe(winner);
    // Searched again, it finds nobody still (its task then arms the next round: orders-courier-search.test.ts).
    await expect(app.service.searchCourier(winner === a.id ? b.id : a.id)).rejects.toBeInstanceOf(NoCourierFree);
  });

  it('looks for nobody before the order is being prepared, nor once it was cancelled', async () => {
    await freeCourier(doubles);
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    expect(await app.service.searchCourier(order.id)).toBe('settled');
    await app.call('POST', `/orders/${order.id}/cancel`, { token: cast.consumer, body: {} });
    expect(await app.service.searchCourier(order.id)).toBe('settled');
    expect(await app.service.searchCourier('no-such-order')).toBe('settled');
  });
});
