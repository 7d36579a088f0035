import { randomUUID } from 'node:crypto';
import { assignmentOf } from '../../../src/modules/orders/orders.deadline';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import type { Tokens } from '../../helpers/accounts';
import { advance, draftOf, freeCourier, nearStore, place, useOrdersApp } from '../../helpers/orders';

// The store's hand-over: the store says it gave the order to its courier (POST /orders/{id}/handed-over). From then
// the order is PICKED_UP whatever the courier's app said, and the courier can no longer give it up: a courier who
// took the food without pressing pickup cannot walk away with it and leave the order to the next one. Refused while the
// courier is known to be elsewhere (a store cannot take an order off a courier who never came).
jest.setTimeout(90_000);

const { doubles, app, cast } = useOrdersApp();

const post = (id: string, action: string, token: Tokens | undefined, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  app.call('POST', `/orders/${id}/${action}`, { token, body, headers });
const actions = async (id: string) =>
  ((await app.call('GET', `/orders/${id}/events`, { token: cast.staff })).body.items as Array<{ action: string; by: string }>).map((e) => e.action);

async function assigned() {
  const courier = await freeCourier(doubles);
  const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
  await advance(app, cast, order.id, 'READY_FOR_PICKUP');
  if ((await app.service.searchCourier(order.id)) !== 'assigned') throw new Error('not assigned');
  return { courier, order };
}

describe('the store hands the order to its courier', () => {
  it('only the store’s staff (another store 404; the courier, the consumer, another driver 403); then picked up, and no give-up', async () => {
    const { courier, order } = await assigned();
    const assignment = assignmentOf((await ordersRepo.get(order.id))!);
    expect((await post(order.id, 'handed-over', cast.rival)).status).toBe(404);
    // A store's route: the courier, the consumer and another driver hold no store role.
    const refused = [courier, cast.consumer, cast.stranger].map((who) => post(order.id, 'handed-over', who));
    expect((await Promise.all(refused)).map((r) => r.status)).toEqual([403, 403, 403]);
    expect((await ordersRepo.get(order.id))!.status).toBe('COURIER_ASSIGNED');

    const key = randomUUID();
    const handed = await post(order.id, 'handed-over', cast.staff, {}, { 'idempotency-key': key });
    expect(handed.status).toBe(200);
    expect(handed.body).toMatchObject({ status: 'PICKED_UP', driverId: courier.user.id });
    expect(handed.body.pickedUpAt).not.toBeNull();
    // The consumer sees the courier's position from now, as after the courier's own pickup.
    expect((await doubles.courierState(courier.user.id)).sharedWith).toBe(cast.consumer.user.id);

    // The courier can no longer give it up; their pickup, late, answers the order as it is.
    const giveUp = await post(order.id, 'give-up', courier, { reason: 'Đổi ý' });
    expect([giveUp.status, giveUp.body.code]).toEqual([409, 'ORDER_TRANSITION']);
    expect((await post(order.id, 'pickup', courier)).body).toMatchObject({ status: 'PICKED_UP' });
    // A repeat (and a retry with the same key) answers it as it is: one hand-over in the history.
    expect((await post(order.id, 'handed-over', cast.owner)).body.status).toBe('PICKED_UP');
    expect((await post(order.id, 'handed-over', cast.staff, {}, { 'idempotency-key': key })).status).toBe(200);
    expect((await actions(order.id)).filter((a) => a === 'handOver' || a === 'pickup' || a === 'giveUp')).toEqual(['handOver']);

    // The pickup window's timer, delivered (twice) after the window, releases nobody.
    expect([await app.shifted(31 * 60_000).runPickupTimeout(order.id, assignment), await app.shifted(31 * 60_000).runPickupTimeout(order.id)]).toEqual([
      'settled',
      'settled',
    ]);
    expect(await app.shifted(31 * 60_000).releaseOverdue(order.id)).toMatchObject({ status: 'PICKED_UP', driverId: courier.user.id });
    // The courier delivers it as usual.
    const code = (await ordersRepo.handover(order.id))!.code;
    expect((await post(order.id, 'deliver', courier, { code })).body.status).toBe('DELIVERED');
  });

  it('refused while the courier is known to be elsewhere (409 ORDER_HANDOVER_TOO_FAR, no distance shown); a repeat afterwards is not', async () => {
    const { courier, order } = await assigned();
    await doubles.moveCourier(courier.user.id, nearStore(2_000, 0));
    const away = await post(order.id, 'handed-over', cast.staff);
    expect([away.status, away.body.code, away.body.details]).toEqual([409, 'ORDER_HANDOVER_TOO_FAR', { radiusM: 300 }]);
    expect((await ordersRepo.get(order.id))!).toMatchObject({ status: 'COURIER_ASSIGNED', pickedUpAt: null });
    // Here now: handed over. A repeat once the courier left answers the order as it is.
    await doubles.moveCourier(courier.user.id, nearStore(20, 0));
    expect((await post(order.id, 'handed-over', cast.staff)).body.status).toBe('PICKED_UP');
    await doubles.moveCourier(courier.user.id, nearStore(3_000, 0));
    const repeat = await post(order.id, 'handed-over', cast.owner);
    expect([repeat.status, repeat.body.status]).toEqual([200, 'PICKED_UP']);
  });

  it('a courier whose app went quiet (last position minutes old) is handed the order anyway, and can no longer give it up', async () => {
    const { courier, order } = await assigned();
    await doubles.moveCourier(courier.user.id, nearStore(2_000, 0), 3 * 60_000);
    expect((await post(order.id, 'handed-over', cast.staff)).body).toMatchObject({ status: 'PICKED_UP', driverId: courier.user.id });
    const giveUp = await post(order.id, 'give-up', courier, { reason: 'Đổi ý' });
    expect([giveUp.status, giveUp.body.code]).toEqual([409, 'ORDER_TRANSITION']);
  });

  it('needs a courier on the order: before the assignment it is 409 ORDER_TRANSITION', async () => {
    const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
    await advance(app, cast, order.id, 'PREPARING');
    const early = await post(order.id, 'handed-over', cast.staff);
    expect([early.status, early.body.code]).toEqual([409, 'ORDER_TRANSITION']);
  });

  it('racing the courier’s give-up: exactly one of them happens', async () => {
    for (let round = 0; round < 4; round++) {
      const { courier, order } = await assigned();
      const [gaveUp, handed] = await Promise.all([post(order.id, 'give-up', courier), post(order.id, 'handed-over', cast.staff)]);
      expect([gaveUp.status, handed.status].filter((s) => s === 200)).toHaveLength(1);
      const after = (await ordersRepo.get(order.id))!;
      if (gaveUp.status === 200) {
        expect([after.status, after.driverId, handed.status, handed.body.code]).toEqual(['READY_FOR_PICKUP', null, 409, 'ORDER_TRANSITION']);
      } else {
        expect([after.status, after.driverId, gaveUp.status, gaveUp.body.code]).toEqual(['PICKED_UP', courier.user.id, 409, 'ORDER_TRANSITION']);
      }
      expect((await actions(order.id)).filter((a) => a === 'giveUp' || a === 'handOver')).toHaveLength(1);
    }
  });
});
