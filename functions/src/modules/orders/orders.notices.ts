import type { DispatchInput } from '../notifications';
import { ORDER_EVENTS } from './orders.events';
import type { OrderStatus } from './orders.machine';
import type { OrderRecord } from './orders.model';
import { ORDER_TEXTS, type OrderEndReason } from './orders.texts';

// Who hears what when an order's status changes: one builder per status (a table, not an if chain).

export type Member = { userId: string; role: 'OWNER' | 'STAFF' };
type Recipient = DispatchInput['recipients'][number];

interface Change {
  before: OrderRecord | undefined;
  after: OrderRecord;
  base: { entityId: string; params: Record<string, string> };
  consumer: Recipient[];
  store: Recipient[];
  courier: Recipient[];
}

const notice = ORDER_EVENTS.notice;
const endReason = (o: OrderRecord): OrderEndReason =>
  o.cancelReasonCode ? { system: o.cancelReasonCode } : o.cancelReason === null ? null : { written: o.cancelReason };

const NOTICES: Partial<Record<OrderStatus, (c: Change) => DispatchInput[]>> = {
  PLACED: ({ after, base, consumer, store }) =>
    [false, true].map((forStore) =>
      notice({
        ...base,
        event: 'order.created',
        recipients: forStore ? store : consumer,
        text: ORDER_TEXTS.text('order.created', { store: after.sellerName, total: after.pricing.totalVnd, forStore }),
      }),
    ),
  CONFIRMED: ({ after, base, consumer }) => [
    notice({ ...base, event: 'order.confirmed', recipients: consumer, text: ORDER_TEXTS.text('order.confirmed', { store: after.sellerName }) }),
  ],
  REJECTED: ({ after, base, consumer }) => [
    notice({
      ...base,
      event: 'order.rejected',
      recipients: consumer,
      text: ORDER_TEXTS.text('order.rejected', { store: after.sellerName, reason: after.cancelReason ?? '' }),
    }),
  ],
  PREPARING: ({ after, base, consumer }) => [
    notice({ ...base, event: 'order.preparing', recipients: consumer, text: ORDER_TEXTS.text('order.preparing', { store: after.sellerName }) }),
  ],
  // occurrence: the courier, so a courier given again would be told again.
  COURIER_ASSIGNED: ({ after, base, consumer, courier }) =>
    [false, true].map((forCourier) =>
      notice({
        ...base,
        event: 'order.assigned',
        occurrence: after.driverId ?? '',
        recipients: forCourier ? courier : consumer,
        text: ORDER_TEXTS.text('order.assigned', { courier: after.courier?.name ?? '', store: after.sellerName, forCourier }),
      }),
    ),
  PICKED_UP: ({ after, base, consumer }) => [
    notice({ ...base, event: 'order.pickedUp', recipients: consumer, text: ORDER_TEXTS.text('order.pickedUp', { courier: after.courier?.name ?? '' }) }),
  ],
  DELIVERED: ({ after, base, consumer, store }) => [
    notice({
      ...base,
      event: 'order.delivered',
      recipients: [...consumer, ...store],
      text: ORDER_TEXTS.text('order.delivered', { total: after.pricing.totalVnd }),
    }),
  ],
  CANCELLED: ({ before, after, base, consumer, store, courier }) => [
    notice({
      ...base,
      event: 'order.cancelled',
      // The store never saw an order that waited for its payment.
      recipients: !before || before.status === 'AWAITING_PAYMENT' ? consumer : [...consumer, ...store],
      text: ORDER_TEXTS.text('order.cancelled', { reason: endReason(after), by: after.cancelledBy ?? 'SYSTEM' }),
    }),
    ...(after.driverId
      ? [
          notice({
            ...base,
            event: 'order.unassigned',
            occurrence: after.driverId,
            recipients: courier,
            text: ORDER_TEXTS.text('order.unassigned', { store: after.sellerName }),
          }),
        ]
      : []),
  ],
};

/** The statuses whose notices go to the store's members (read only for those). */
export const STORE_TOLD: readonly OrderStatus[] = ['PLACED', 'DELIVERED', 'CANCELLED'];

/**
 * The notices of one change of an order's status (none without one, none to nobody). Ids derive from event, order,
 * recipient (and courier), so a redelivered change notifies nobody twice.
 */
export function orderNotices(before: OrderRecord | undefined, after: OrderRecord | undefined, members: readonly Member[]): DispatchInput[] {
  if (!after || before?.status === after.status) return [];
  const change: Change = {
    before,
    after,
    base: { entityId: after.id, params: { orderId: after.id } },
    consumer: [{ userId: after.consumerId, surface: 'CON' }],
    store: members.filter((m) => m.userId !== after.consumerId).map((m) => ({ userId: m.userId, surface: 'PAR' })),
    courier: after.driverId ? [{ userId: after.driverId, surface: 'DRV' }] : [],
  };
  return (NOTICES[after.status]?.(change) ?? []).filter((n) => n.recipients.length > 0);
}
