import type { Transaction } from 'firebase-admin/firestore';
import { createOrderActions, type DeliveryProof } from './orders.actions';
import { createOrdersCore, type OrderViewer, type OrdersDeps } from './orders.context';
import { createCourierRelease } from './orders.courier';
import { confirmDeadline } from './orders.deadline';
import { createCourierSearch } from './orders.dispatch';
import { createOrderMoves } from './orders.lifecycle';
import type { OrderRecord } from './orders.model';
import { txCheckPlacing, txPlace, type OrderDraft } from './orders.place';
import { createOrderQueries } from './orders.queries';
import { ordersRepo } from './orders.repo';
import { createOrderSettlement } from './orders.settlement';
import { orderView } from './orders.views';

// The orders service, in parts along its seams: the moves (lifecycle), the parties' actions, the courier search,
// the money (settlement) and the reads. Every answer to a caller is the order as that caller sees it.

export { orderViewerOf, type OrderViewer, type OrdersDeps } from './orders.context';

export function createOrdersService(deps: OrdersDeps) {
  const core = createOrdersCore(deps);
  const settlement = createOrderSettlement(core);
  const moves = createOrderMoves(core, settlement);
  const actions = createOrderActions(core, moves);
  const courierSearch = createCourierSearch(core, moves);
  const courier = createCourierRelease(core, moves, courierSearch);
  // A party's read: the confirmation and payment checks, then the pickup window and a stalled search.
  const upToDate = async (order: OrderRecord) => courier.upToDate(await moves.upToDate(order));
  const queries = createOrderQueries(core, { ...moves, upToDate });
  const shown = async (moved: { order: OrderRecord; roles: Parameters<typeof queries.view>[1] }) => queries.view(moved.order, moved.roles);

  return {
    // Checkout's face (orders/index.ts).
    txPlace: (tx: Transaction, draft: OrderDraft) => txPlace(tx, draft, core.settings),
    /** What GET /orders/{id} answers its consumer for an order just written (none of it read back); undefined when it needs a read (a prescription's address). */
    placedView: (placed: ReturnType<typeof txPlace>) =>
      placed.record.prescriptionMediaId ? undefined : orderView(placed.record, ['CONSUMER'], core.settings, { handoverCode: placed.handoverCode }),
    txCheckPlacing: (tx: Transaction, draft: Pick<OrderDraft, 'consumerId' | 'seller'>) =>
      txCheckPlacing(tx, draft, { sellers: core.ports.sellers, settings: core.settings, now: core.now }),
    txExists: async (tx: Transaction, id: string) => (await ordersRepo.get(id, tx)) !== undefined,
    /** The order as its consumer sees it; undefined for anyone else or no such order. */
    async consumerView(id: string, viewerId: string) {
      const order = await ordersRepo.get(id);
      return order && order.consumerId === viewerId ? queries.view(await upToDate(order), ['CONSUMER']) : undefined;
    },

    get: queries.get,
    events: queries.events,
    mine: queries.mine,
    storeQueue: queries.storeQueue,
    courierCurrent: queries.courierCurrent,
    adminList: queries.adminList,
    rate: queries.rate,
    chat: queries.chat,

    async storeMove(viewer: OrderViewer, id: string, action: 'confirm' | 'reject' | 'preparing' | 'ready', reason?: string | null) {
      const moved = await actions.storeMove(viewer, id, action, reason);
      // `ready` of an assigned order starts its pickup window (no status change: no trigger arms it); a stalled search is armed again.
      if (action === 'ready' && moved.order.status === 'COURIER_ASSIGNED') await courier.armTimers(moved.order);
      if (action === 'ready') moved.order = await courierSearch.rearmIfStalled(moved.order);
      return shown(moved);
    },
    cancel: async (viewer: OrderViewer, id: string, reason: string | null) => shown(await actions.cancel(viewer, id, reason)),
    adminCancel: async (viewer: OrderViewer, id: string, reason: string) => shown(await actions.adminCancel(viewer, id, reason)),
    pickup: async (viewer: OrderViewer, id: string) => shown(await actions.pickup(viewer, id)),
    giveUp: async (viewer: OrderViewer, id: string, reason: string | null) => {
      const moved = await courier.giveUp(viewer, id, reason);
      return shown({ order: moved.after, roles: moved.roles });
    },
    handOver: async (viewer: OrderViewer, id: string) => {
      const moved = await courier.handOver(viewer, id);
      return shown({ order: moved.after, roles: moved.roles });
    },
    deliver: async (viewer: OrderViewer, id: string, proof: DeliveryProof) => shown(await actions.deliver(viewer, id, proof)),

    // Background work: the timers, the payment's outcome, the trigger's settlement.
    expire: moves.expire,
    runConfirmTimeout: (id: string) => confirmDeadline.run(id, { load: (orderId) => ordersRepo.get(orderId), expire: moves.expire, now: core.now }),
    searchCourier: courierSearch.search,
    runCourierSearch: courierSearch.run,
    releaseOverdue: courier.release,
    runPickupTimeout: courier.runPickupTimeout,
    paymentOutcome: moves.paymentOutcome,
    reconcilePayment: moves.reconcilePayment,
    settle: settlement.settle,
    /** Arms the timers of the order as it stands (idempotent: one task per order and phase). */
    armTimers: courier.armTimers,
    /** The store's members to tell (the owner and staff of the order's partner). */
    storeMembers: (order: OrderRecord) => core.ports.partners.members(order.partnerId),
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
