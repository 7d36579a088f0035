import { randomUUID } from 'node:crypto';
import { ORDERS } from '../../../src/modules/orders';
import { assignmentOf } from '../../../src/modules/orders/orders.deadline';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import { onOrderWritten } from '../../../src/modules/orders/orders.triggers';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import type { Tokens } from '../../helpers/accounts';
import { driverAccount } from '../../helpers/drivers';
import { advance, draftOf, freeCourier, nearStore, handoverPhoto, place, useOrdersApp, type Armed } from '../../helpers/orders';

// A courier leaving an order before pickup: their give-up (who may, retries, the race with the pickup), the pickup
// window's timer (delivered twice, never after pickup, lazily on read) and the search that runs again without them;
// and a photo proof of delivery, which counts only near the drop-off.
jest.setTimeout(90_000);

const { doubles, app, cast } = useOrdersApp();

const post = (id: string, action: string, token: Tokens | undefined, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  app.call('POST', `/orders/${id}/${action}`, { token, body, headers });
const cashOrder = () => place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
const doc = async (id: string) => ({ id, data: (await db().collection(ORDERS).doc(id).get()).data()! });
const actions = async (id: string) =>
  (await app.call('GET', `/orders/${id}/events`, { token: cast.staff })).body.items as Array<{ action: string; by: string; reason: string | null }>;

/** A courier of the doubles' pool and an order they were assigned (READY_FOR_PICKUP first, unless told). */
async function assigned(to: 'READY_FOR_PICKUP' | 'PREPARING' = 'READY_FOR_PICKUP') {
  const courier = await freeCourier(doubles);
  const order = await cashOrder();
  await advance(app, cast, order.id, to);
  if ((await app.service.searchCourier(order.id)) !== 'assigned') throw new Error('not assigned');
  return { courier, order };
}

describe('the courier gives an order up', () => {
  it('back to READY_FOR_PICKUP: freed, closed to them (404), a retry 409, searched again without them', async () => {
    const { courier, order } = await assigned();
    const long = await post(order.id, 'give-up', courier, { reason: 'x'.repeat(201) });
    expect([long.status, long.body.details[0].field]).toEqual([400, 'body.reason']);
    // Another courier is a stranger (404); the consumer and the store are not couriers (403).
    expect((await post(order.id, 'give-up', cast.stranger)).status).toBe(404);
    expect([(await post(order.id, 'give-up', cast.consumer)).status, (await post(order.id, 'give-up', cast.staff)).status]).toEqual([403, 403]);

    const key = randomUUID();
    const gaveUp = await post(order.id, 'give-up', courier, { reason: 'Xe hỏng' }, { 'idempotency-key': key });
    expect(gaveUp.status).toBe(200);
    expect(gaveUp.body).toMatchObject({ status: 'READY_FOR_PICKUP', driverId: null, courier: null });
    const stored = (await ordersRepo.get(order.id))!;
    expect([stored.participants.includes(courier.user.id), stored.formerDriverIds, stored.pickupBy]).toEqual([false, [courier.user.id], null]);
    expect((await doubles.courierState(courier.user.id)).jobId).toBeNull();
    // The order is closed to them from now; a retry moves nothing (with the same key: the first answer again).
    expect((await app.call('GET', `/orders/${order.id}`, { token: courier })).status).toBe(404);
    expect((await app.call('GET', `/orders/${order.id}/events`, { token: courier })).status).toBe(404);
    const again = await post(order.id, 'give-up', courier, { reason: 'Xe hỏng' });
    expect([again.status, again.body.code]).toEqual([409, 'ORDER_COURIER_RELEASED']);
    const replayed = await post(order.id, 'give-up', courier, { reason: 'Xe hỏng' }, { 'idempotency-key': key });
    expect([replayed.status, replayed.body.status]).toEqual([200, 'READY_FOR_PICKUP']);
    const moves = await actions(order.id);
    expect(moves.filter((e) => e.action === 'giveUp')).toEqual([expect.objectContaining({ by: 'COURIER', reason: 'Xe hỏng' })]);

    // The search runs again: the former courier, free and nearer, is never offered it again.
    const other = await driverAccount();
    await doubles.courier(other.user.id, nearStore(156, 142));
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    expect((await ordersRepo.get(order.id))!.driverId).toBe(other.user.id);
    expect((await doubles.courierState(courier.user.id)).jobId).toBeNull();
  });

  it('found while the food is prepared: back to PREPARING, and the store’s ready makes it READY_FOR_PICKUP', async () => {
    const { courier, order } = await assigned('PREPARING');
    expect((await ordersRepo.get(order.id))!.pickupBy).toBeNull(); // the window starts when the store says ready
    const gaveUp = await post(order.id, 'give-up', courier);
    expect(gaveUp.body).toMatchObject({ status: 'PREPARING', driverId: null });
    expect((await post(order.id, 'ready', cast.staff)).body.status).toBe('READY_FOR_PICKUP');
    expect((await actions(order.id)).map((e) => e.action)).toEqual(['place', 'confirm', 'preparing', 'assign', 'giveUpBeforeReady', 'ready']);
  });

  it('racing the pickup: exactly one of them happens', async () => {
    for (let round = 0; round < 3; round++) {
      const { courier, order } = await assigned();
      const [gaveUp, pickedUp] = await Promise.all([post(order.id, 'give-up', courier), post(order.id, 'pickup', courier)]);
      expect([gaveUp.status, pickedUp.status].filter((s) => s === 200)).toHaveLength(1);
      const status = (await ordersRepo.get(order.id))!.status;
      if (gaveUp.status === 200) expect([status === 'PICKED_UP', pickedUp.status]).toEqual([false, 404]);
      else expect([status, gaveUp.body.code]).toEqual(['PICKED_UP', 'ORDER_TRANSITION']);
      expect((await actions(order.id)).filter((e) => e.action === 'giveUp' || e.action === 'pickup')).toHaveLength(1);
    }
  });
});

describe('the pickup window', () => {
  it('its timer releases an order not picked up, once however often it is delivered, and the search is armed again', async () => {
    const { courier, order } = await assigned();
    // The courier opened the order's conversation: released, they leave it with the order.
    const chat = await app.call('POST', `/orders/${order.id}/chat`, { token: courier, body: {} });
    expect(chat.status).toBe(200);
    const conversation = () => app.call('GET', `/chat/conversations/${chat.body.conversationId}`, { token: courier });
    expect((await conversation()).status).toBe(200);
    const before = (await ordersRepo.get(order.id))!;
    const beforeDoc = await doc(order.id);
    expect(before.pickupBy).toBe(before.assignedAt! + 30 * 60_000);
    await expect(app.shifted(29 * 60_000).runPickupTimeout(order.id, assignmentOf(before))).rejects.toThrow(/not due yet/);
    const asked: Armed[] = [];
    const late = app.shifted(31 * 60_000, asked);
    const runs = [await late.runPickupTimeout(order.id, assignmentOf(before)), await late.runPickupTimeout(order.id, assignmentOf(before))];
    expect(runs).toEqual(['expired', 'settled']);
    await late.releaseOverdue(order.id); // a task of no assignment, come late
    const released = (await ordersRepo.get(order.id))!;
    expect(released).toMatchObject({ status: 'READY_FOR_PICKUP', driverId: null, formerDriverIds: [courier.user.id] });
    expect((await doubles.courierState(courier.user.id)).jobId).toBeNull();
    expect((await actions(order.id)).filter((e) => e.action === 'giveUp')).toEqual([expect.objectContaining({ by: 'SYSTEM' })]);
    // The status change's trigger arms the search at once, in a round of its own; it finds the next courier.
    const event = { id: `evt-${randomUUID()}`, time: new Date().toISOString(), params: {}, before: beforeDoc, after: await doc(order.id) };
    await onOrderWritten(event, app.config, { dispatch: async () => [] }, late);
    expect(asked.filter((a) => a.queue === 'courier')).toEqual([{ queue: 'courier', id: order.id, delaySec: 1, phase: `r${released.courierAttempt}` }]);
    expect((await conversation()).status).toBe(404);
    const next = await driverAccount();
    await doubles.courier(next.user.id, nearStore(22, 22));
    expect(await late.runCourierSearch(order.id, `r${released.courierAttempt}`)).toBe('expired');
    expect((await ordersRepo.get(order.id))!.driverId).toBe(next.user.id);
  });

  it('never releases a courier who picked the order up', async () => {
    const { courier, order } = await assigned();
    const assignment = assignmentOf((await ordersRepo.get(order.id))!);
    expect((await post(order.id, 'pickup', courier)).status).toBe(200);
    expect(await app.shifted(31 * 60_000).runPickupTimeout(order.id, assignment)).toBe('settled');
    expect(await app.shifted(31 * 60_000).releaseOverdue(order.id)).toMatchObject({ status: 'PICKED_UP', driverId: courier.user.id });
  });

  it('is checked lazily: a party reading an order past its window finds it released', async () => {
    const { courier, order } = await assigned();
    await inTransaction(async (tx) => ordersRepo.patch(tx, order.id, { pickupBy: Date.now() - 1_000 }));
    // The courier reading it first releases it, and reads it no more.
    expect((await app.call('GET', `/orders/${order.id}`, { token: courier })).status).toBe(404);
    const read = await app.call('GET', `/orders/${order.id}`, { token: cast.consumer });
    expect(read.body).toMatchObject({ status: 'READY_FOR_PICKUP', driverId: null });
    expect((await actions(order.id)).filter((e) => e.action === 'giveUp')).toEqual([expect.objectContaining({ by: 'SYSTEM' })]);
  });
});

describe('a photo proof of delivery', () => {
  it('counts only near the drop-off (409 ORDER_HANDOVER_TOO_FAR from afar or from a stale position); the code anywhere', async () => {
    const { courier, order } = await assigned();
    const before = await handoverPhoto(courier);
    expect((await post(order.id, 'pickup', courier)).status).toBe(200);
    // A photo from before the pickup proves nothing, wherever the courier is.
    await doubles.moveCourier(courier.user.id, order.dropoff);
    expect((await post(order.id, 'deliver', courier, { photoMediaId: before })).body.code).toBe('ORDER_PROOF_INVALID');
    await doubles.moveCourier(courier.user.id, { lat: order.dropoff.lat + 0.01, lng: order.dropoff.lng });
    const photo = await handoverPhoto(courier);
    const far = await post(order.id, 'deliver', courier, { photoMediaId: photo });
    expect([far.status, far.body.code, far.body.details.radiusM, far.body.details.distanceM > 300]).toEqual([409, 'ORDER_HANDOVER_TOO_FAR', 300, true]);
    await doubles.moveCourier(courier.user.id, order.dropoff, 11 * 60_000);
    const stale = await post(order.id, 'deliver', courier, { photoMediaId: photo });
    expect([stale.status, stale.body.details.distanceM]).toEqual([409, null]);
    await doubles.moveCourier(courier.user.id, { lat: order.dropoff.lat + 0.001, lng: order.dropoff.lng });
    const near = await post(order.id, 'deliver', courier, { photoMediaId: photo });
    expect(near.body).toMatchObject({ status: 'DELIVERED', proof: { kind: 'PHOTO', mediaId: photo } });

    // The code proves presence by itself: accepted wherever the courier is.
    const second = await assigned();
    expect((await post(second.order.id, 'pickup', second.courier)).status).toBe(200);
    const code = (await ordersRepo.handover(second.order.id))!.code;
    expect((await post(second.order.id, 'deliver', second.courier, { code })).body).toMatchObject({ status: 'DELIVERED', proof: { kind: 'CODE' } });
  });
});
