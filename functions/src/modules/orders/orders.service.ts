import type { Transaction } from 'firebase-admin/firestore';
import { createOrderActions, type DeliveryProof } from './orders.actions';
import { createOrdersCore, type OrderViewer, type OrdersDeps } from './orders.context';
import { confirmDeadline, courierDeadline } from './orders.deadline';
import { createCourierSearch } from './orders.dispatch';
import { createOrderMoves } from './orders.lifecycle';
import type { OrderRecord } from './orders.model';
import { txCheckPlacing, txPlace, type OrderDraft } from './orders.place';
import { createOrderQueries } from './orders.queries';
import { ordersRepo } from './orders.repo';
import { createOrderSettlement } from './orders.settlement';

// The orders service, in parts along its seams: the moves (lifecycle), the parties' actions, the courier search,
// the money (settlement) and the reads. Every answer to a caller is the order as that caller sees it.

export { orderViewerOf, type OrderViewer, type OrdersDeps } from './orders.context';

export function createOrdersService(deps: OrdersDeps) {
  const core = createOrdersCore(deps);
  const settlement = createOrderSettlement(core);
  const moves = createOrderMoves(core, settlement);
  const actions = createOrderActions(core, moves);
  const courierSearch = createCourierSearch(core, moves);
  const queries = createOrderQueries(core, moves);
  const schedulers = {
    confirm: deps.schedulers?.confirm ?? confirmDeadline.scheduler,
    courier: deps.schedulers?.courier ?? courierDeadline.scheduler,
  };
  const shown = async (moved: { order: OrderRecord; roles: Parameters<typeof queries.view>[1] }) => queries.view(moved.order, moved.roles);

  return {
    // Checkout's face (orders/index.ts).
    txPlace: (tx: Transaction, draft: OrderDraft) => txPlace(tx, draft, core.settings),
    txCheckPlacing: (tx: Transaction, draft: Pick<OrderDraft, 'consumerId' | 'seller'>) =>
      txCheckPlacing(tx, draft, { sellers: core.ports.sellers, settings: core.settings }),
    txExists: async (tx: Transaction, id: string) => (await ordersRepo.get(id, tx)) !== undefined,
    /** The order as its consumer sees it; undefined for anyone else or no such order. */
    async consumerView(id: string, viewerId: string) {
      const order = await ordersRepo.get(id);
      return order && order.consumerId === viewerId ? queries.view(await moves.upToDate(order), ['CONSUMER']) : undefined;
    },

    get: queries.get,
    events: queries.events,
    mine: queries.mine,
    storeQueue: queries.storeQueue,
    courierCurrent: queries.courierCurrent,
    adminList: queries.adminList,
    rate: queries.rate,
    chat: queries.chat,

    storeMove: async (viewer: OrderViewer, id: string, action: 'confirm' | 'reject' | 'preparing' | 'ready', reason?: string | null) =>
      shown(await actions.storeMove(viewer, id, action, reason)),
    cancel: async (viewer: OrderViewer, id: string, reason: string | null) => shown(await actions.cancel(viewer, id, reason)),
    adminCancel: async (viewer: OrderViewer, id: string, reason: string) => shown(await actions.adminCancel(viewer, id, reason)),
    pickup: async (viewer: OrderViewer, id: string) => shown(await actions.pickup(viewer, id)),
    deliver: async (viewer: OrderViewer, id: string, proof: DeliveryProof) => shown(await actions.deliver(viewer, id, proof)),

    // Background work: the timers, the payment's outcome, the trigger's settlement.
    expire: moves.expire,
    runConfirmTimeout: (id: string) => confirmDeadline.run(id, { load: (orderId) => ordersRepo.get(orderId), expire: moves.expire, now: core.now }),
    searchCourier: courierSearch.search,
    runCourierSearch: courierSearch.run,
    paymentOutcome: moves.paymentOutcome,
    reconcilePayment: moves.reconcilePayment,
    settle: settlement.settle,
    /** Arms the timers of the order's status (idempotent: one task per order and phase). */
    async armTimers(order: OrderRecord): Promise<void> {
      const at = core.now();
      if (confirmDeadline.dueAt(order) !== null) await confirmDeadline.arm(schedulers.confirm, order, at);
      if (courierDeadline.dueAt(order) !== null) await courierDeadline.arm(schedulers.courier, order, at, order.status);
    },
    /** The store's members to tell (the owner and staff of the order's partner). */
    storeMembers: (order: OrderRecord) => core.ports.partners.members(order.partnerId),
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
