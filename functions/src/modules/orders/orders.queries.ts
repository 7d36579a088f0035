import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';
import { openContextConversation } from '../chat';
import { noSuchOrder, type OrderViewer, type OrdersCore } from './orders.context';
import { confirmDeadline } from './orders.deadline';
import type { OrderMoves } from './orders.lifecycle';
import { isFinal, ORDER_STATUSES, WITH_COURIER, type OrderActor, type OrderStatus } from './orders.machine';
import { sellerKeyOf, type OrderRecord } from './orders.model';
import type { SellerRef } from './orders.ports';
import { ordersRepo, type OrderFilter } from './orders.repo';
import { actorLabel, orderView } from './orders.views';

// Reading orders: one order for its parties (the consumer, the store's staff, the courier, an administrator with
// orders.manage; anyone else 404), its history, the consumer's list, the store's queue, the courier's job and the
// administrators' list; and what a party does beside the moves: the rating and the order's chat.

type Page = Pick<PageRequest, 'limit' | 'cursor'>;

/** How long a prescription link shown with an order works (a fresh one with every read). */
export const PRESCRIPTION_LINK_TTL_SEC = 900;

/**
 * The store checks the prescription before confirming: the consumer's upload, as a short-lived link, while the order is
 * live (placed, not yet delivered nor called off) to its consumer and store, never to the courier; an administrator
 * sees it whatever the status (a dispute after the delivery).
 */
function showsPrescription(status: OrderStatus, roles: readonly OrderActor[]): boolean {
  if (roles.includes('ADMIN')) return true;
  return status !== 'AWAITING_PAYMENT' && !isFinal(status) && roles.some((r) => r === 'CONSUMER' || r === 'STORE');
}

export function createOrderQueries(core: OrdersCore, moves: OrderMoves) {
  const { rolesOf, settings, now, ports } = core;

  /** The order and the caller's roles on it, as it stands now (expired, paid or failed lazily); 404 to others. */
  async function visible(viewer: OrderViewer, id: string): Promise<{ order: OrderRecord; roles: OrderActor[] }> {
    const found = await ordersRepo.get(id);
    if (!found) throw noSuchOrder();
    const roles = await rolesOf(found, viewer);
    if (roles.length === 0) throw noSuchOrder();
    const order = await moves.upToDate(found);
    if (order.driverId === found.driverId) return { order, roles };
    // Its courier was released just now (the pickup window): a courier who left it reads it no more.
    const now = await rolesOf(order, viewer);
    if (now.length === 0) throw noSuchOrder();
    return { order, roles: now };
  }

  /** The view of an order for these roles, with the consumer's code and the rating read beside it. */
  async function view(order: OrderRecord, roles: readonly OrderActor[]) {
    const consumer = roles.includes('CONSUMER');
    const prescriptionFor = order.prescriptionMediaId && showsPrescription(order.status, roles) ? order.prescriptionMediaId : null;
    const [handover, rating, prescription] = await Promise.all([
      consumer && !isFinal(order.status) ? ordersRepo.handover(order.id) : undefined,
      order.status === 'DELIVERED' ? ordersRepo.rating(order.id) : undefined,
      prescriptionFor ? core.deps.media?.temporaryImageUrl(order.consumerId, prescriptionFor, PRESCRIPTION_LINK_TTL_SEC, now()) : undefined,
    ]);
    return orderView(order, roles, settings, { handoverCode: handover?.code ?? null, rating: rating ?? null, prescriptionUrl: prescription?.url ?? null });
  }

  async function get(viewer: OrderViewer, id: string) {
    const { order, roles } = await visible(viewer, id);
    return view(order, roles);
  }

  async function events(viewer: OrderViewer, id: string) {
    const { order, roles } = await visible(viewer, id);
    const items = await ordersRepo.history(id);
    const admin = roles.includes('ADMIN');
    return {
      items: items.map((e) => ({
        action: e.action,
        from: e.from,
        to: e.to,
        by: admin ? e.by : actorLabel(e.by, order),
        at: iso(e.at),
        reason: e.reason ?? null,
      })),
    };
  }

  /** A list as its caller sees it: overdue PLACED orders read as cancelled (the timer or the next read stores it). */
  async function list(filter: OrderFilter, page: Page, viewer: OrderViewer, roles: readonly OrderActor[], query: string) {
    const result = await ordersRepo.list(filter, { ...page, query, caller: viewer.userId });
    const at = now();
    return { items: result.items.map((o) => orderView(confirmDeadline.settle(o, at).entity, roles, settings)), nextCursor: result.nextCursor };
  }

  const statusKey = (statuses?: readonly OrderStatus[]) => (statuses ?? []).join(',');

  function mine(viewer: OrderViewer, statuses: readonly OrderStatus[] | undefined, page: Page) {
    return list({ consumerId: viewer.userId, statuses }, page, viewer, ['CONSUMER'], `orders:mine:${statusKey(statuses)}`);
  }

  /**
   * A store's queue: its staff (another partner's staff: 404) or an administrator with orders.manage. Orders still
   * awaiting their payment are not the store's yet: never listed.
   */
  async function storeQueue(viewer: OrderViewer, seller: SellerRef, statuses: readonly OrderStatus[] | undefined, page: Page) {
    const staff = await ports.sellers.staffRole(seller, viewer.userId);
    if (!staff && !viewer.admin) throw new NotFoundError('No such store');
    const key = sellerKeyOf(seller);
    const shown = (statuses ?? ORDER_STATUSES).filter((s) => s !== 'AWAITING_PAYMENT');
    if (shown.length === 0) return { items: [], nextCursor: null };
    return list({ sellerKey: key, statuses: shown }, page, viewer, [staff ? 'STORE' : 'ADMIN'], `orders:store:${key}:${statusKey(shown)}`);
  }

  /** The courier's job now (the driver module's), when it is an order of theirs. */
  async function courierCurrent(viewer: OrderViewer) {
    const job = await ports.couriers.currentJob(viewer.userId);
    if (!job || job.kind !== 'ORDER') return { order: null };
    const order = await ordersRepo.get(job.id);
    if (!order || order.driverId !== viewer.userId || !WITH_COURIER.includes(order.status)) return { order: null };
    return { order: await view(order, ['COURIER']) };
  }

  function adminList(viewer: OrderViewer, filter: OrderFilter, page: Page) {
    const key = `orders:admin:${filter.consumerId ?? ''}:${filter.sellerKey ?? ''}:${filter.partnerId ?? ''}:${filter.driverId ?? ''}:${statusKey(filter.statuses)}`;
    return list(filter, page, viewer, ['ADMIN'], key);
  }

  /** The consumer rates the store (and the courier) of a delivered order once, within the rating window. */
  async function rate(viewer: OrderViewer, id: string, body: { store: { stars: number; comment?: string }; courier?: { stars: number; comment?: string } }) {
    const at = now();
    const rating = await inTransaction(async (tx) => {
      const [order, existing] = await Promise.all([ordersRepo.get(id, tx), ordersRepo.rating(id, tx)]);
      if (!order || order.consumerId !== viewer.userId) throw noSuchOrder();
      const windowMs = settings.ratingWindowDays * 86_400_000;
      if (order.status !== 'DELIVERED' || order.deliveredAt === null || at - order.deliveredAt > windowMs)
        throw new ConflictError('Only a delivered order is rated, within the rating window', {
          status: order.status,
          windowDays: settings.ratingWindowDays,
        }).withCode('ORDER_RATING_WINDOW');
      if (existing) throw new ConflictError('The order was rated already').withCode('ORDER_ALREADY_RATED');
      if (body.courier && !order.driverId) throw new ConflictError('The order has no courier').withCode('ORDER_NO_COURIER');
      const record = {
        orderId: id,
        consumerId: order.consumerId,
        partnerId: order.partnerId,
        sellerKey: order.sellerKey,
        driverId: order.driverId,
        store: { stars: body.store.stars, comment: body.store.comment || null },
        courier: body.courier ? { stars: body.courier.stars, comment: body.courier.comment || null } : null,
        ratedAt: at,
      };
      ordersRepo.txCreateRating(tx, record);
      return record;
    });
    return { orderId: id, store: rating.store, courier: rating.courier, ratedAt: iso(rating.ratedAt) };
  }

  /** The order's conversation (consumer, the store's staff who open it, the courier), opened by a party while it runs. */
  async function chat(viewer: OrderViewer, id: string) {
    const { order, roles } = await visible(viewer, id);
    const party = roles.filter((r) => r !== 'ADMIN');
    if (party.length === 0) throw noSuchOrder();
    if (isFinal(order.status) || order.status === 'AWAITING_PAYMENT')
      throw new ConflictError('The order’s chat is open while the order runs', { status: order.status }).withCode('ORDER_TRANSITION');
    const parties = [
      { userId: order.consumerId, surface: 'CON' as const },
      ...(order.driverId ? [{ userId: order.driverId, surface: 'DRV' as const }] : []),
      ...(party.includes('STORE') && viewer.userId !== order.consumerId ? [{ userId: viewer.userId, surface: 'PAR' as const }] : []),
    ];
    // Re-read in the conversation's transaction: a courier released since (their leave maybe done) is not added back.
    let courierLeft = false;
    const conversationId = await openContextConversation({ type: 'ORDER', id }, parties, async (tx) => {
      const current = await ordersRepo.get(id, tx);
      courierLeft = current?.driverId !== order.driverId;
      return (userId) => userId !== order.driverId || !courierLeft;
    });
    if (courierLeft && viewer.userId === order.driverId) throw noSuchOrder();
    return { orderId: id, conversationId };
  }

  return { visible, view, get, events, mine, storeQueue, courierCurrent, adminList, rate, chat };
}
