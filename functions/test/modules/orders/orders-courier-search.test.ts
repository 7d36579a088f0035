import type { OrderRecord } from '../../../src/modules/orders/orders.model';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import { inTransaction } from '../../../src/platform/core/firebase/firebase';
import { driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import {
  advance,
  draftOf,
  freeCourier,
  nearStore,
  orderCast,
  orderDoubles,
  ordersApp,
  place,
  type OrderCast,
  type OrdersApp,
  type Armed,
} from '../../helpers/orders';

// The courier search never ends while the order can still get a courier: each round that finds nobody arms the next
// (15 s, doubling to 2 minutes), a task of an older round does nothing, and a search stalled past its due time (its
// task lost) is armed again by a party's read or the store's `ready`.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

const doubles = orderDoubles();
let app: OrdersApp;
let cast: OrderCast;
beforeAll(async () => {
  app = await ordersApp(doubles);
  cast = await orderCast(doubles);
});
// A re-armed search enqueues its task a second later (the deadlines kit's local timer): let it leave before the end.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await app.close();
});

/** A READY_FOR_PICKUP order with nobody free near the store (the pool's only courier is in another city). */
async function readyWithNobody(): Promise<string> {
  await freeCourier(doubles, { lat: 21.03, lng: 105.85 });
  const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
  await advance(app, cast, order.id, 'READY_FOR_PICKUP');
  return order.id;
}
const stored = async (id: string) => (await ordersRepo.get(id)) as OrderRecord;
const patch = (id: string, change: Partial<OrderRecord>) => inTransaction(async (tx) => ordersRepo.patch(tx, id, change));

describe('rounds of the courier search', () => {
  it('each round that finds nobody arms the next with a capped backoff; an older round’s task does nothing', async () => {
    const id = await readyWithNobody();
    const delays: number[] = [];
    const rounds: number[] = [];
    for (let hour = 1; hour <= 6; hour++) {
      const asked: Armed[] = [];
      expect(await app.shifted(hour * 3_600_000, asked).runCourierSearch(id)).toBe('expired');
      const after = await stored(id);
      expect([after.status, after.driverId, asked.length]).toEqual(['READY_FOR_PICKUP', null, 1]);
      expect(asked[0]).toMatchObject({ id, phase: `r${after.courierAttempt}` });
      delays.push(asked[0].delaySec);
      rounds.push(after.courierAttempt!);
    }
    expect(rounds.every((r, i) => i === 0 || r > rounds[i - 1])).toBe(true);
    expect(delays.every((d, i) => d >= 15 && d <= 120 && (i === 0 || d >= delays[i - 1]))).toBe(true);
    expect(delays.slice(-2)).toEqual([120, 120]);

    const asked: Armed[] = [];
    const later = app.shifted(7 * 3_600_000, asked);
    expect(await later.runCourierSearch(id, 'r0')).toBe('settled');
    expect([(await stored(id)).courierAttempt, asked]).toEqual([rounds[rounds.length - 1], []]);
    // A courier comes free: the current round gives them the order.
    const courier = await driverAccount();
    await doubles.courier(courier.user.id, nearStore(22, 22), true);
    expect(await later.runCourierSearch(id, `r${(await stored(id)).courierAttempt}`)).toBe('expired');
    expect(await stored(id)).toMatchObject({ status: 'COURIER_ASSIGNED', driverId: courier.user.id, courierRetryAt: null });
  });
});

describe('a stalled search', () => {
  it('is armed again by a party’s read and by the store’s ready, and left alone while its round is pending', async () => {
    const id = await readyWithNobody();
    const startedAt = Date.now();
    await patch(id, { courierAttempt: 50, courierRetryAt: startedAt - 10 * 60_000 });
    expect((await app.call('GET', `/orders/${id}`, { token: cast.consumer })).status).toBe(200);
    const afterRead = await stored(id);
    expect([afterRead.courierAttempt! > 50 && afterRead.courierAttempt! < 60, afterRead.courierRetryAt! >= startedAt]).toEqual([true, true]);

    await patch(id, { courierAttempt: 60, courierRetryAt: startedAt - 10 * 60_000 });
    expect((await app.call('POST', `/orders/${id}/ready`, { token: cast.staff, body: {} })).body.status).toBe('READY_FOR_PICKUP');
    const afterReady = await stored(id);
    expect(afterReady.courierAttempt! > 60 && afterReady.courierAttempt! < 70).toBe(true);

    // A round due in a minute is pending: a read arms nothing.
    await patch(id, { courierAttempt: 70, courierRetryAt: Date.now() + 60_000 });
    await app.call('GET', `/orders/${id}`, { token: cast.staff });
    expect((await stored(id)).courierAttempt).toBe(70);
  });
});
