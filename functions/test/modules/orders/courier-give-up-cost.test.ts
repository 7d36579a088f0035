import { assignmentOf } from '../../../src/modules/orders/orders.deadline';
import { NoCourierFree } from '../../../src/modules/orders/orders.dispatch';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import type { Tokens } from '../../helpers/accounts';
import { driverAccount } from '../../helpers/drivers';
import { advance, draftOf, freeCourier, nearStore, place, useOrdersApp } from '../../helpers/orders';

// What giving an order up costs the courier: the job pool counts it and offers them nothing for
// JOB_GIVE_UP_COOLDOWN_MIN (10 minutes); the pickup timer's release costs nothing. The search leaves out the couriers
// who left the order through the pool's `exclude`.
jest.setTimeout(90_000);

const { doubles, app, cast } = useOrdersApp();

const post = (id: string, action: string, token: Tokens, body: Record<string, unknown> = {}) => app.call('POST', `/orders/${id}/${action}`, { token, body });
const readyOrder = async () => {
  const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
  await advance(app, cast, order.id, 'READY_FOR_PICKUP');
  return order;
};

describe('a give-up’s cost', () => {
  it('counted once however often it is tapped, and no offer for the cooldown; after it the courier is offered orders again', async () => {
    expect(app.config.JOB_GIVE_UP_COOLDOWN_MIN).toBe(10);
    const courier = await freeCourier(doubles);
    const first = await readyOrder();
    expect(await app.service.searchCourier(first.id)).toBe('assigned');
    const before = Date.now();
    const taps = await Promise.all([post(first.id, 'give-up', courier), post(first.id, 'give-up', courier)]);
    expect(taps.map((t) => t.status).sort()).toEqual([200, 409]);
    expect(taps.find((t) => t.status === 409)!.body.code).toBe('ORDER_COURIER_RELEASED');
    const state = await doubles.courierState(courier.user.id);
    expect([state.jobId, state.gaveUps]).toEqual([null, 1]);
    expect(state.cooldownUntil).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(state.cooldownUntil).toBeLessThanOrEqual(Date.now() + 10 * 60_000);

    // The only courier near the store is cooling down: a new order finds nobody now, and them 11 minutes later.
    const second = await readyOrder();
    await expect(app.service.searchCourier(second.id)).rejects.toBeInstanceOf(NoCourierFree);
    await expect(app.shifted(9 * 60_000).searchCourier(second.id)).rejects.toBeInstanceOf(NoCourierFree);
    expect(await app.shifted(11 * 60_000).searchCourier(second.id)).toBe('assigned');
    expect((await ordersRepo.get(second.id))!.driverId).toBe(courier.user.id);
    expect((await ordersRepo.get(first.id))!.formerDriverIds).toEqual([courier.user.id]);
  });

  it('the pickup timer’s release is not counted and costs no cooldown', async () => {
    const courier = await freeCourier(doubles);
    const order = await readyOrder();
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    const assignment = assignmentOf((await ordersRepo.get(order.id))!);
    expect(await app.shifted(31 * 60_000).runPickupTimeout(order.id, assignment)).toBe('expired');
    const state = await doubles.courierState(courier.user.id);
    expect([state.jobId, state.gaveUps, state.cooldownUntil]).toEqual([null, undefined, undefined]);
  });

  it('the search leaves out the consumer and the couriers who left the order (the pool’s exclude), nearer or not', async () => {
    const gaveUp = await freeCourier(doubles);
    const order = await readyOrder();
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    expect((await post(order.id, 'give-up', gaveUp)).status).toBe(200);
    const asked: Array<readonly string[] | undefined> = [];
    const spy = jest.spyOn(doubles.ports.couriers, 'nearbyAvailable');
    spy.mockImplementation(async (...args) => {
      asked.push(args[5]?.exclude);
      return [];
    });
    try {
      await expect(app.service.searchCourier(order.id)).rejects.toBeInstanceOf(NoCourierFree);
    } finally {
      spy.mockRestore();
    }
    expect(asked).toEqual([[cast.consumer.user.id, gaveUp.user.id]]);
    // A free courier farther away is found; the one who left, nearer and past the cooldown, is not.
    const next = await driverAccount();
    await doubles.courier(next.user.id, nearStore(1_100, 200));
    expect(await app.shifted(11 * 60_000).searchCourier(order.id)).toBe('assigned');
    expect((await ordersRepo.get(order.id))!.driverId).toBe(next.user.id);
  });
});
