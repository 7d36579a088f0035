import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { DELIVERY_EVENTS, deliveryAppLink } from './delivery.events';
import { ENDED_DELIVERY_STATUSES } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';
import type { DeliveryService } from './delivery.service';
import { DELIVERY_TEXTS } from './delivery.texts';
import { deliveryServiceFor } from './delivery.wiring';

/** The notices of one change of a parcel: none unless its status changed (and none for a new CREATED one). */
export function deliveryNotices(before: DeliveryRecord | undefined, after: DeliveryRecord | undefined): DispatchInput[] {
  if (!after || before?.status === after.status) return [];
  const sender = [{ userId: after.senderId, surface: 'CON' as const }];
  const driver = after.driverId ? [{ userId: after.driverId, surface: 'DRV' as const }] : [];
  const base = { entityId: after.id, params: { deliveryId: after.id, appLink: deliveryAppLink(after.id) } };
  switch (after.status) {
    case 'DRIVER_ASSIGNED':
      return [
        DELIVERY_EVENTS.notice({
          ...base,
          event: 'delivery.assigned',
          recipients: sender,
          text: DELIVERY_TEXTS.text('delivery.assigned', { driver: after.driver?.name ?? 'Driver' }),
        }),
        DELIVERY_EVENTS.notice({
          ...base,
          event: 'delivery.assigned',
          recipients: driver,
          text: DELIVERY_TEXTS.text('delivery.job', { address: after.pickup.address }),
        }),
      ];
    case 'PICKED_UP':
      return [DELIVERY_EVENTS.notice({ ...base, event: 'delivery.picked_up', recipients: sender, text: DELIVERY_TEXTS.text('delivery.picked_up', {}) })];
    case 'DELIVERED':
      return [
        DELIVERY_EVENTS.notice({
          ...base,
          event: 'delivery.delivered',
          recipients: [...sender, ...driver],
          text: DELIVERY_TEXTS.text('delivery.delivered', { fee: after.feeVnd }),
        }),
      ];
    case 'CANCELLED':
      return [
        DELIVERY_EVENTS.notice({
          ...base,
          event: 'delivery.cancelled',
          recipients: [...sender, ...driver],
          text: DELIVERY_TEXTS.text('delivery.cancelled', { reason: after.cancelReason }),
        }),
      ];
    case 'NO_DRIVER':
      return [DELIVERY_EVENTS.notice({ ...base, event: 'delivery.no_driver', recipients: sender, text: DELIVERY_TEXTS.text('delivery.no_driver', {}) })];
    default:
      return [];
  }
}

// At least once: notification ids derive from the event, the parcel and the recipient (each status is entered once),
// so a repeat sends nothing new. A parcel that ended has its money settled again here (idempotent), in case the
// request that ended it died before.
export const onDeliveryWritten = typedTrigger(
  collectionRecords<DeliveryRecord>(),
  async (
    { before, after },
    config: Readonly<AppConfig>,
    hub: Pick<Hub, 'dispatch'> = notificationHub(config),
    service: Pick<DeliveryService, 'settle'> = deliveryServiceFor(config),
  ) => {
    if (after && before?.status !== after.status && ENDED_DELIVERY_STATUSES.includes(after.status)) await service.settle(after);
    const notices = deliveryNotices(before, after);
    for (const notice of notices) await hub.dispatch(notice);
    return notices.length;
  },
);
