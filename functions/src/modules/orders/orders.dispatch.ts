import { inTransaction } from '../../platform/core/firebase/firebase';
import { accounts } from '../users';
import { ledger } from '../wallet';
import type { OrdersCore } from './orders.context';
import { courierDeadline, courierRound } from './orders.deadline';
import type { OrderMoves } from './orders.lifecycle';
import type { OrderRecord } from './orders.model';
import type { CourierState } from './orders.ports';
import { ordersRepo } from './orders.repo';

// The courier search: the nearest free couriers (the driver module's job pool, COURIER capability) tried in turn,
// each in one `assign` move that claims the courier in the order's transaction (two orders never get one courier,
// and a courier on a ride is never free). Couriers who gave the order up are never offered it again (the pool's
// `exclude`), and one who gave any job up lately is offered none (the pool's cooldown). Nobody free:
// the round arms the next one (capped backoff) for as long as the order can get a courier; a search stalled past its
// due time (its task lost) is armed again by a party's read or the store's `ready`.

/** The candidate was taken meanwhile (another order, a ride, offline): the next one is tried. */
class CourierTaken extends Error {}

export class NoCourierFree extends Error {
  constructor(orderId: string) {
    super(`no courier free near order ${orderId} yet: retried`);
  }
}

export type SearchOutcome = 'assigned' | 'settled';

export function createCourierSearch(core: OrdersCore, moves: OrderMoves) {
  const { ports, settings, now, schedulers } = core;

  async function courierCard(userId: string): Promise<{ name: string }> {
    const account = await accounts.get(userId);
    return { name: account?.name ?? 'Courier' };
  }

  /** One attempt to give the order to the candidate: the move, or undefined when they were taken meanwhile. */
  async function assignTo(order: OrderRecord, courierId: string, at: number) {
    const card = await courierCard(courierId);
    let state: CourierState | undefined;
    return moves
      .move(order.id, {
        action: 'assign',
        viewer: { system: 'system:order-dispatch' },
        reason: `courier ${courierId}`,
        tolerant: 'refused',
        read: async (tx) => {
          state = await ports.couriers.txRead(tx, courierId);
          // A cash order's total is collected by the courier and owed from their earnings: within their cash-debt limit.
          const owed = order.payment.method === 'CASH' ? order.pricing.totalVnd : 0;
          if (!(await ledger.txMayOweCash(tx, courierId, owed, settings.cashDebtLimitVnd))) state = undefined;
        },
        // A courier who left it meanwhile (a give-up racing this search) is not given it back.
        check: (current) => {
          if ((current.formerDriverIds ?? []).includes(courierId)) throw new CourierTaken();
        },
        write: (tx) => {
          const job = { kind: 'ORDER' as const, jobId: order.id, customerId: order.consumerId, capability: 'COURIER' as const, at };
          if (!ports.couriers.txClaim(tx, state, job)) throw new CourierTaken();
        },
        change: (current) => ({
          driverId: courierId,
          participants: [current.consumerId, courierId],
          courier: card,
          assignedAt: at,
          // The pickup window runs from now when the order is ready, else from the store's `ready`.
          pickupBy: current.readyAt !== null ? at + settings.pickupWindowMin * 60_000 : null,
          courierRetryAt: null,
        }),
      })
      .catch((err: unknown) => {
        if (err instanceof CourierTaken) return undefined;
        throw err;
      });
  }

  /** One search: 'assigned', 'settled' (nothing to do: assigned already, ended, not due), or NoCourierFree. */
  async function search(id: string): Promise<SearchOutcome> {
    const order = await ordersRepo.get(id);
    if (!order || courierDeadline.dueAt(order) === null) return 'settled';
    const at = now();
    // Never the consumer, nor a courier who left it (the pool leaves them out: they cost no candidate).
    const exclude = [order.consumerId, ...(order.formerDriverIds ?? [])];
    const candidates = await ports.couriers.nearbyAvailable(order.pickup, settings.courierRadiusM, 'COURIER', settings.courierCandidates, at, { exclude });
    for (const candidate of candidates) {
      const moved = await assignTo(order, candidate.userId, at);
      if (moved) return moved.changed ? 'assigned' : 'settled';
    }
    throw new NoCourierFree(id);
  }

  /**
   * The next round (`courierAttempt` + 1 at `dueAt`), armed when the order still needs a courier and no later round
   * is pending already (two rounds finishing together arm one). `force`: at once, whatever is pending (a stalled search).
   */
  async function nextRound(id: string, delayMs: (order: OrderRecord) => number, force = false): Promise<OrderRecord | undefined> {
    const at = now();
    const next = await inTransaction(async (tx) => {
      const order = await ordersRepo.get(id, tx);
      if (!order || courierDeadline.dueAt(order) === null) return undefined;
      if (!force && (order.courierRetryAt ?? 0) > at) return undefined;
      const change = { courierAttempt: (order.courierAttempt ?? 0) + 1, courierRetryAt: at + delayMs(order) };
      ordersRepo.patch(tx, id, change);
      return { ...order, ...change };
    });
    if (next) await courierDeadline.arm(schedulers.courier, next, at, courierRound(next));
    return next;
  }

  /** Nobody was free: the next round after 15 s, doubling with each round to at most 2 minutes (the deadline's rounds). */
  const retryLater = (id: string) => nextRound(id, (o) => courierDeadline.nextRound(o.courierAttempt ?? 0));

  /** A search whose due time passed long ago has nothing armed (a lost task): a new round at once. */
  async function rearmIfStalled(order: OrderRecord): Promise<OrderRecord> {
    const due = courierDeadline.dueAt(order);
    if (due === null || now() - due < settings.courierStallSec * 1000) return order;
    return (await nextRound(order.id, () => 0, true)) ?? order;
  }

  /** The `orderCourierSearch` task: a stale round does nothing; else waits for the due time, then searches (nobody: the next round). */
  async function run(id: string, attempt?: string) {
    if (attempt !== undefined) {
      const order = await ordersRepo.get(id);
      if (!order || courierRound(order) !== attempt) return 'settled' as const;
    }
    const searchOrRetry = async (orderId: string) => {
      await search(orderId).catch(async (err: unknown) => {
        if (!(err instanceof NoCourierFree)) throw err;
        await retryLater(orderId);
      });
    };
    return courierDeadline.run(id, { load: (orderId) => ordersRepo.get(orderId), expire: searchOrRetry, now });
  }

  return { search, run, rearmIfStalled };
}

export type CourierSearch = ReturnType<typeof createCourierSearch>;
