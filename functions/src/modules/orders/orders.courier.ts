import { formerAfterLeaving, giveUpJob, ReleaseNotDue, releaseUnlessNotDue, runPickupTimeout as runPickupTask } from '../driver';
import { ConflictError } from '../../platform/core/errors/app-error';
import { courierPresence, type PresenceCheck } from '../../platform/kits/handover/handover';
import { noSuchOrder, type OrderViewer, type OrdersCore } from './orders.context';
import { assignmentOf, confirmDeadline, courierDeadline, courierRound, pickupDeadline, PICKUP_TIMEOUT_BY } from './orders.deadline';
import type { CourierSearch } from './orders.dispatch';
import type { MoveResult, OrderMoves } from './orders.lifecycle';
import type { OrderAction } from './orders.machine';
import type { OrderRecord } from './orders.model';
import { ordersRepo } from './orders.repo';

// A courier leaving an order before pickup: their own give-up, or the pickup timer's release (the same move by
// SYSTEM). One transition: back to READY_FOR_PICKUP (PREPARING when the store has not said ready), the courier freed
// in the job pool and out of `participants` (the order's document and API are closed to them from then), remembered
// so the search never offers them the order again, and a new search round due at once; a give-up of their own is
// counted and costs them JOB_GIVE_UP_COOLDOWN_MIN without job offers. The driver module's face keeps what parcels share
// (who left, the retry's 409, the pickup task). Also the order's timers and the lazy checks a party's read runs.

/** How recent a courier's position must be to refuse the store's hand-over (their app reports it every few seconds). */
export const HANDOVER_POSITION_MAX_AGE_MS = 2 * 60_000;
const COURIER_ELSEWHERE = 'The courier is not at the store by their last known position: hand the order over when they are here';

/** The order changed between the read that chose the move and its transaction (the store said ready): chosen again. */
class ReadinessChanged extends Error {}

export function createCourierRelease(core: OrdersCore, moves: OrderMoves, search: CourierSearch) {
  const { now, settings, schedulers, ports } = core;

  /** What leaving does to the order's fields (the status is the move's). */
  const left = (o: OrderRecord, at: number): Partial<OrderRecord> => ({
    driverId: null,
    courier: null,
    participants: [o.consumerId],
    assignedAt: null,
    pickupBy: null,
    formerDriverIds: formerAfterLeaving(o, settings.formerCouriersMax),
    courierAttempt: (o.courierAttempt ?? 0) + 1,
    courierRetryAt: at,
  });
  const actionFor = (o: OrderRecord): OrderAction => (o.readyAt !== null ? 'giveUp' : 'giveUpBeforeReady');

  /** The move, its action chosen by the order's readiness (chosen again if the store said ready meanwhile). */
  async function leave(id: string, viewer: OrderViewer | { system: string }, reason: string | null, extra?: (o: OrderRecord) => void) {
    for (let attempt = 0; ; attempt++) {
      const order = await ordersRepo.get(id);
      if (!order) throw noSuchOrder();
      const action = 'system' in viewer ? 'giveUp' : actionFor(order);
      const gaveUp = 'system' in viewer ? undefined : { cooldownUntil: now() + settings.giveUpCooldownMin * 60_000 };
      try {
        return await moves.move(id, {
          action,
          viewer,
          reason,
          gaveUp,
          tolerant: 'system' in viewer ? 'refused' : undefined,
          check: (current) => {
            if (!('system' in viewer) && actionFor(current) !== action) throw new ReadinessChanged();
            extra?.(current);
          },
          change: left,
        });
      } catch (err) {
        if (err instanceof ReadinessChanged && attempt < 3) continue;
        throw err;
      }
    }
  }

  /** Arms the timers of the order as it stands (idempotent: one task per order and phase, round or assignment). */
  async function armTimers(order: OrderRecord): Promise<void> {
    const at = now();
    if (confirmDeadline.dueAt(order) !== null) await confirmDeadline.arm(schedulers.confirm, order, at);
    if (courierDeadline.dueAt(order) !== null) await courierDeadline.arm(schedulers.courier, order, at, courierRound(order));
    if (pickupDeadline.dueAt(order) !== null) await pickupDeadline.arm(schedulers.pickup, order, at, assignmentOf(order));
  }

  /**
   * The assigned courier gives the order up before pickup. A retry by the same courier is 409 ORDER_COURIER_RELEASED
   * (no second move; a retry with the same Idempotency-Key replays the first answer); anyone else is 404.
   */
  async function giveUp(viewer: OrderViewer, id: string, reason: string | null): Promise<MoveResult> {
    // The status change arms the new search round (the orderStatusChanged trigger's `armTimers`).
    return giveUpJob({
      userId: viewer.userId,
      load: () => ordersRepo.get(id),
      leave: () => leave(id, viewer, reason),
      code: 'ORDER_COURIER_RELEASED',
      noun: 'order',
    });
  }

  /** The pickup window's release (the task, or a lazy read): tolerant, never before it is due, never after pickup. */
  async function release(id: string): Promise<OrderRecord | undefined> {
    const at = now();
    const moved = await releaseUnlessNotDue(
      leave(id, { system: PICKUP_TIMEOUT_BY }, 'not picked up in time', (o) => {
        if (!pickupDeadline.isDue(o, at)) throw new ReleaseNotDue();
      }),
    );
    return moved?.after;
  }

  /** The `orderPickupTimeout` task: another assignment's task does nothing; else waits for the due time, then releases. */
  const runPickupTimeout = (id: string, assignment?: string) =>
    runPickupTask(pickupDeadline, id, assignment, { load: (orderId) => ordersRepo.get(orderId), release, now });

  /** The lazy checks of a party's read: a courier past the pickup window released, a stalled search armed again. */
  async function upToDate(order: OrderRecord): Promise<OrderRecord> {
    const current = pickupDeadline.isDue(order, now()) ? ((await release(order.id)) ?? order) : order;
    return search.rearmIfStalled(current);
  }

  /**
   * The store handed the order to its courier: PICKED_UP as if the courier had said so (the consumer sees their
   * position, the pickup window is over, and giving it up is 409 from now). Refused while the courier is known to be
   * elsewhere: their last position, no older than HANDOVER_POSITION_MAX_AGE_MS, farther than HANDOVER_PHOTO_RADIUS_M
   * from the store (a store must not take an order off a courier who never came). No recent position does not
   * refuse it: a courier whose app went quiet at the counter must not keep the food and still give the order up. The
   * 409 names no distance (the store never sees where the courier is). A repeat, or a courier's pickup first, answers
   * the order as it is.
   */
  function handOver(viewer: OrderViewer, id: string) {
    let presence: PresenceCheck | undefined;
    return moves.move(id, {
      action: 'handOver',
      viewer,
      tolerant: 'target',
      async read(tx, order) {
        presence = undefined;
        if (order.status !== 'COURIER_ASSIGNED' || order.driverId === null) return;
        const place = { lat: order.pickup.lat, lng: order.pickup.lng };
        const input = { courierId: order.driverId, place, radiusM: settings.handoverRadiusM, maxAgeMs: HANDOVER_POSITION_MAX_AGE_MS };
        presence = await courierPresence(ports.couriers.lastPosition, { ...input, at: now(), tx });
      },
      check: () => {
        if (presence?.outcome === 'TOO_FAR' && presence.distanceM !== null)
          throw new ConflictError(COURIER_ELSEWHERE, { radiusM: presence.radiusM }).withCode('ORDER_HANDOVER_TOO_FAR');
      },
      change: (o, at) => ({ pickedUpAt: at, readyAt: o.readyAt ?? at }),
    });
  }

  return { giveUp, handOver, release, runPickupTimeout, armTimers, upToDate };
}

export type CourierRelease = ReturnType<typeof createCourierRelease>;
