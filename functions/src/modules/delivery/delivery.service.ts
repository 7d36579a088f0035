import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';
import { noSuchDelivery, type DeliveryDeps, type DeliveryViewer } from './delivery.context';
import { dispatchDeadline, noDriverDeadline, pickupDeadline } from './delivery.deadlines';
import { createDeliveryDispatch } from './delivery.dispatch';
import { createDeliveryLifecycle } from './delivery.lifecycle';
import type { DeliveryStatus } from './delivery.machine';
import { createDeliveryPlacing } from './delivery.placing';
import { createDeliveryRelease } from './delivery.release';
import { deliveryRepo } from './delivery.repo';
import { createDeliverySettlement } from './delivery.settlement';
import { deliveryView } from './delivery.views';

// The delivery service: its parts, each a file by concern, composed into the one object the routes, tasks and the
// trigger use. Settlement first (it needs no other part), the lifecycle on it, dispatch on the lifecycle's expiry,
// placing on dispatch.

export type { DeliveryDeps, DeliveryViewer } from './delivery.context';
export { deliveryViewerOf } from './delivery.context';

export function createDeliveryService({ schedulers: given, ...deps }: DeliveryDeps) {
  const schedulers = given ?? { noDriver: noDriverDeadline.scheduler, dispatch: dispatchDeadline.scheduler, pickup: pickupDeadline.scheduler };
  const core = { deps, schedulers, now: deps.now ?? Date.now };
  const settlement = createDeliverySettlement(core);
  const lifecycle = createDeliveryLifecycle(core, settlement);
  const dispatch = createDeliveryDispatch(core, lifecycle.expire);
  const placing = createDeliveryPlacing(core, dispatch, settlement);
  const release = createDeliveryRelease(core);

  async function get(viewer: DeliveryViewer, id: string) {
    // Only its parties' reads release a driver past the pickup window (the timer's lazy check); read again after it, a
    // driver released just now sees it no more.
    await lifecycle.visible(id, viewer);
    await release.upToDate(id);
    const { delivery, audience } = await lifecycle.visible(id, viewer);
    return deliveryView(delivery, audience);
  }

  async function list(userId: string, as: 'SENDER' | 'DRIVER', page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const result = await deliveryRepo.listOf(as === 'SENDER' ? 'senderId' : 'driverId', userId, { ...page, query: `delivery:mine:${as}`, caller: userId });
    const at = core.now();
    // Past its window a parcel reads NO_DRIVER at once; its timer (or the next read of it) stores it.
    return { items: result.items.map((d) => deliveryView(noDriverDeadline.settle(d, at).entity, as)), nextCursor: result.nextCursor };
  }

  async function adminList(adminId: string, status: DeliveryStatus | undefined, page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const result = await deliveryRepo.listAll(status, { ...page, query: `delivery:admin:${status ?? '*'}`, caller: adminId });
    return { items: result.items.map((d) => deliveryView(d, 'ADMIN')), nextCursor: result.nextCursor };
  }

  /**
   * The driver's current job as the courier app opens it: a parcel (this module's view of it), or an order (its id
   * only: the orders module shows it), or nothing. The job pool says which job the driver is on.
   */
  async function courierCurrent(driverId: string) {
    const job = await deps.jobs.currentJob(driverId);
    if (!job) return { job: null, delivery: null };
    if (job.kind !== 'DELIVERY') return { job, delivery: null };
    const found = await deliveryRepo.get(job.id);
    return { job, delivery: found && found.driverId === driverId ? deliveryView(found, 'DRIVER') : null };
  }

  async function history(admin: DeliveryViewer, id: string) {
    const found = await deliveryRepo.get(id);
    if (!found || !admin.admin) throw noSuchDelivery();
    const moves = await deliveryRepo.history(id);
    return { items: moves.map((m) => ({ action: m.action, from: m.from, to: m.to, by: m.by, at: iso(m.at), reason: m.reason ?? null })) };
  }

  return {
    quote: placing.quote,
    async place(senderId: string, input: Parameters<typeof placing.place>[1], idempotencyKey: string) {
      const { delivery, created } = await placing.place(senderId, input, idempotencyKey);
      return { delivery: deliveryView(delivery, 'SENDER'), created };
    },
    get,
    list,
    adminList,
    courierCurrent,
    history,
    pickup: async (driverId: string, id: string, proof: { code?: string; photoId?: string }) =>
      deliveryView(await lifecycle.pickup(driverId, id, proof), 'DRIVER'),
    deliver: async (driverId: string, id: string, proof: { code?: string; photoId?: string }) =>
      deliveryView(await lifecycle.deliver(driverId, id, proof), 'DRIVER'),
    giveUp: async (driverId: string, id: string, reason: string | null) => deliveryView(await release.giveUp(driverId, id, reason), 'DRIVER'),
    cancel: async (senderId: string, id: string, reason: string | null) => deliveryView(await lifecycle.cancel(senderId, id, reason), 'SENDER'),
    adminCancel: async (admin: DeliveryViewer, id: string, reason: string) => deliveryView(await lifecycle.adminCancel(admin, id, reason), 'ADMIN'),
    async rate(senderId: string, id: string, input: { stars: number; comment?: string | null }) {
      const rated = await lifecycle.rate(senderId, id, input);
      return { deliveryId: id, stars: rated.rating.stars, comment: rated.rating.comment, createdAt: iso(rated.rating.at) };
    },
    /** The trigger's and the tasks' work. */
    settle: settlement.settle,
    expire: lifecycle.expire,
    runDispatch: dispatch.runDispatch,
    releaseOverdue: release.release,
    runPickupTimeout: release.runPickupTimeout,
    /** The no-driver task: a parcel never stored gives its hold back; a stored one ends NO_DRIVER when due. */
    async runNoDriver(payload: { deliveryId: string; holdPaymentId?: string }) {
      const found = await deliveryRepo.get(payload.deliveryId);
      if (!found) {
        if (payload.holdPaymentId) await settlement.releaseOrphanHold(payload.holdPaymentId, deps.settings.noDriverWindowSec);
        return;
      }
      await noDriverDeadline.run(payload.deliveryId, { load: (key) => deliveryRepo.get(key), expire: lifecycle.expire, now: core.now });
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
