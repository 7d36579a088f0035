import { accounts } from '../users';
import { ledger } from '../wallet';
import type { OrdersCore } from './orders.context';
import { courierDeadline } from './orders.deadline';
import type { OrderMoves } from './orders.lifecycle';
import type { CourierState } from './orders.ports';
import { ordersRepo } from './orders.repo';

// The courier search: the nearest free couriers (the driver module's job pool, COURIER capability) tried in turn,
// each in one `assign` move that claims the courier in the order's transaction (two orders never get one courier,
// and a courier on a ride is never free). Nobody free: the task fails and its queue retries it later.

/** The candidate was taken meanwhile (another order, a ride, offline): the next one is tried. */
class CourierTaken extends Error {}

export class NoCourierFree extends Error {
  constructor(orderId: string) {
    super(`no courier free near order ${orderId} yet: retried`);
  }
}

export type SearchOutcome = 'assigned' | 'settled';

export function createCourierSearch(core: OrdersCore, moves: OrderMoves) {
  const { ports, settings, now } = core;

  async function courierCard(userId: string): Promise<{ name: string }> {
    const account = await accounts.get(userId);
    return { name: account?.name ?? 'Courier' };
  }

  /** One search: 'assigned', 'settled' (nothing to do: assigned already, ended, not due), or NoCourierFree. */
  async function search(id: string): Promise<SearchOutcome> {
    const order = await ordersRepo.get(id);
    if (!order || courierDeadline.dueAt(order) === null) return 'settled';
    const at = now();
    const candidates = await ports.couriers.nearbyAvailable(order.pickup, settings.courierRadiusM, 'COURIER', settings.courierCandidates, at);
    for (const candidate of candidates) {
      if (candidate.userId === order.consumerId) continue;
      const card = await courierCard(candidate.userId);
      let state: CourierState | undefined;
      const moved = await moves
        .move(id, {
          action: 'assign',
          viewer: { system: 'system:order-dispatch' },
          reason: `courier ${candidate.userId}`,
          tolerant: 'refused',
          read: async (tx) => {
            state = await ports.couriers.txRead(tx, candidate.userId);
            // A cash order's total is collected by the courier and owed from their earnings: within their cash-debt limit.
            const owed = order.payment.method === 'CASH' ? order.pricing.totalVnd : 0;
            if (!(await ledger.txMayOweCash(tx, candidate.userId, owed, settings.cashDebtLimitVnd))) state = undefined;
          },
          write: (tx) => {
            const job = { kind: 'ORDER' as const, jobId: id, customerId: order.consumerId, capability: 'COURIER' as const, at };
            if (!ports.couriers.txClaim(tx, state, job)) throw new CourierTaken();
          },
          change: (current) => ({ driverId: candidate.userId, participants: [current.consumerId, candidate.userId], courier: card, assignedAt: at }),
        })
        .catch((err: unknown) => {
          if (err instanceof CourierTaken) return undefined;
          throw err;
        });
      if (moved) return moved.changed ? 'assigned' : 'settled';
    }
    throw new NoCourierFree(id);
  }

  /** The `orderCourierSearch` task: waits for the due time (or asks for a retry), then searches. */
  const run = (id: string) => courierDeadline.run(id, { load: (orderId) => ordersRepo.get(orderId), expire: search, now });

  return { search, run };
}

export type CourierSearch = ReturnType<typeof createCourierSearch>;
