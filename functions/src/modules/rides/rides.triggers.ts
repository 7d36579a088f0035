import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { RIDE_EVENTS } from './rides.events';
import { ACTIVE_STATUSES, rideChatContext, rideDocument, type RideRecord } from './rides.model';
import { RIDE_TEXTS, type CancelReason } from './rides.texts';
import { closeContextConversation } from '../chat';
import type { SosRecord } from './rides.repo';
import { activeAccountsPage } from '../users';
import { ridesServiceFor } from './rides.wiring';

// The service's own reasons (by their code, which only the service sets) are said in the reader's language; a
// person's reason as they wrote it, even when it reads like one of the service's.
function cancelReasonOf(ride: RideRecord): CancelReason {
  if (ride.cancelReasonCode) return { system: ride.cancelReasonCode };
  return ride.cancelReason === null ? null : { written: ride.cancelReason };
}

/** The notices of one change of a ride (none when its status did not change, or for a new NO_DRIVER ride). */
export function rideNotices(before: RideRecord | undefined, after: RideRecord | undefined): DispatchInput[] {
  if (!after) return [];
  const reassigned = before?.status === after.status && after.status === 'CONFIRMED' && before.driverId !== after.driverId;
  if (before?.status === after.status && !reassigned) return [];
  const rider = { userId: after.riderId, surface: 'CON' as const };
  const driver = after.driverId ? [{ userId: after.driverId, surface: 'DRV' as const }] : [];
  const status = { rideId: after.id, status: after.status, driverId: after.driverId };
  const base = { entityId: after.id, roomId: `ride_${after.id}`, realtimeData: status, params: { rideId: after.id } };
  switch (after.status) {
    case 'CONFIRMED':
      // occurrence: a reassigned ride is matched again, to its new driver.
      return [
        RIDE_EVENTS.notice({
          ...base,
          event: 'ride.matched',
          occurrence: after.driverId ?? '',
          recipients: [rider, ...driver],
          text: RIDE_TEXTS.text('ride.matched', { driver: after.driver?.name ?? null, plate: after.driver?.vehicle?.plate ?? null }),
        }),
      ];
    case 'ARRIVED':
      return [
        RIDE_EVENTS.notice({
          ...base,
          event: 'ride.arrived',
          recipients: [rider],
          text: RIDE_TEXTS.text('ride.arrived', { driver: after.driver?.name ?? null }),
        }),
      ];
    case 'IN_PROGRESS':
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.pickup', recipients: [rider], text: RIDE_TEXTS.text('ride.pickup', {}) })];
    case 'COMPLETED':
      return [
        RIDE_EVENTS.notice({
          ...base,
          event: 'ride.completed',
          recipients: [rider, ...driver],
          text: RIDE_TEXTS.text('ride.completed', { fare: after.fare ?? after.quote.fare }),
        }),
      ];
    case 'CANCELLED':
    case 'EXPIRED':
      return [
        RIDE_EVENTS.notice({
          ...base,
          event: 'ride.cancelled',
          recipients: [rider, ...driver],
          text: RIDE_TEXTS.text('ride.cancelled', { reason: cancelReasonOf(after), expired: after.status === 'EXPIRED' }),
        }),
      ];
    case 'NO_DRIVER':
      // A ride that ends without a driver after one cancelled: the rider hears it (a new booking found nobody: the answer said so).
      return before ? [RIDE_EVENTS.notice({ ...base, event: 'ride.cancelled', recipients: [rider], text: RIDE_TEXTS.text('ride.noDriver', {}) })] : [];
    default:
      return [];
  }
}

// At least once: notification ids derive from event, ride, recipient and driver, so a repeat sends nothing new; the
// expiry task has one id per ride. A finished ride's money is settled again here (idempotent), in case the request
// that finished it died before.
export const onRideWritten = typedTrigger(
  collectionRecords<RideRecord>(rideDocument),
  async (
    { before, after },
    config: Readonly<AppConfig>,
    hub: Pick<Hub, 'dispatch'> = notificationHub(config),
    rides: Pick<ReturnType<typeof ridesServiceFor>, 'settleAndRecord' | 'scheduleExpiry'> = ridesServiceFor(config),
  ) => {
    if (after && before?.status !== after.status && ['COMPLETED', 'CANCELLED', 'NO_DRIVER', 'EXPIRED'].includes(after.status))
      await rides.settleAndRecord(after);
    const notices = rideNotices(before, after);
    // The ride's chat with a driver closes when that driver leaves it or the ride ends (closing again is a no-op).
    const leaving = before?.driverId && (before.driverId !== after?.driverId || (after && !ACTIVE_STATUSES.includes(after.status))) ? before.driverId : null;
    if (before && leaving && after) await closeContextConversation(rideChatContext(after.id, leaving));
    // A driver was given (first match or reassignment), arrived, or picked up: the status's timer starts here.
    if (after && ACTIVE_STATUSES.includes(after.status) && notices.length > 0) await rides.scheduleExpiry(after);
    for (const notice of notices) await hub.dispatch(notice);
    return notices.length;
  },
);

// Administrators per hub dispatch of an SOS (a broadcast's audience page is as large).
const SOS_PAGE_SIZE = 500;

/** Every administrator hears an SOS (at least once; ids derive from the alert, so a repeat adds nothing). */
export const onSosCreated = typedTrigger(
  collectionRecords<SosRecord>(),
  async ({ after: sos }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config), pageSize: number = SOS_PAGE_SIZE) => {
    if (!sos) return 0;
    // Every administrator, a page at a time (ordered by id, so accounts made meanwhile move no boundary).
    let heard = 0;
    let afterId: string | null = null;
    for (;;) {
      const page = await activeAccountsPage({ role: 'ADMIN' }, afterId, pageSize);
      if (page.length > 0)
        await hub.dispatch(
          RIDE_EVENTS.notice({
            event: 'ride.sos',
            recipients: page.map((admin) => ({ userId: admin.id, surface: 'CON' as const, locale: admin.locale })),
            entityId: sos.rideId,
            occurrence: sos.id,
            text: RIDE_TEXTS.text('ride.sos', { role: sos.role, message: sos.message }),
            params: { rideId: sos.rideId, sosId: sos.id },
          }),
        );
      heard += page.length;
      if (page.length < pageSize) break;
      afterId = page[page.length - 1].id;
    }
    return heard;
  },
);
