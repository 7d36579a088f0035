import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { closeContextConversation, leaveContextConversation } from '../chat';
import { notificationHub, type Hub } from '../notifications';
import { isCalledOff, isFinal } from './orders.machine';
import { orderDocument, type OrderRecord } from './orders.model';
import { orderNotices, STORE_TOLD } from './orders.notices';
import type { OrdersService } from './orders.service';
import { ordersServiceFor } from './orders.wiring';

/** What the trigger needs of the service (a double in tests). */
export type OrderTriggerWork = Pick<OrdersService, 'armTimers' | 'reconcilePayment' | 'settle' | 'storeMembers'>;

// At least once, on every status change: the notices, the status's timers (one task per order and phase), a new
// order awaiting a payment that has its outcome already, the money of a called-off or delivered order (settled
// again: idempotent, in case the request that moved it died before), and the order's chat closed once it ended.
export const onOrderWritten = typedTrigger(
  collectionRecords<OrderRecord>(orderDocument),
  async (
    { before, after },
    config: Readonly<AppConfig>,
    hub: Pick<Hub, 'dispatch'> = notificationHub(config),
    work: OrderTriggerWork = ordersServiceFor(config),
  ) => {
    if (!after || before?.status === after.status) return 0;
    // First: a courier who gave the order up (or was released from it) leaves its conversation, whatever fails below.
    if (before?.driverId && before.driverId !== after.driverId) await leaveContextConversation({ type: 'ORDER', id: after.id }, before.driverId);
    const members = STORE_TOLD.includes(after.status) ? await work.storeMembers(after) : [];
    const notices = orderNotices(before, after, members);
    for (const n of notices) await hub.dispatch(n);
    await work.armTimers(after);
    if (!before && after.status === 'AWAITING_PAYMENT') await work.reconcilePayment(after);
    if (isCalledOff(after.status) || after.status === 'DELIVERED') await work.settle(after);
    if (isFinal(after.status)) await closeContextConversation({ type: 'ORDER', id: after.id });
    return notices.length;
  },
);
