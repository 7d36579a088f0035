import type { AppConfig } from '../../platform/config';
import { recordFields } from '../../platform/firestore/documents';
import type { DocumentEvent } from '../../platform/module/module';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { RIDE_EVENTS } from './rides.events';
import { ACTIVE_STATUSES, rideChatContext, rideDocument, type RideRecord } from './rides.model';
import { closeContextConversation } from '../chat';
import type { SosRecord } from './rides.repo';
import { accountDirectory } from '../users';
import { ridesServiceFor } from './rides.wiring';

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
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.matched', occurrence: after.driverId ?? '', recipients: [rider, ...driver], title: 'Driver found', body: `${after.driver?.name ?? 'Your driver'} is on the way${after.driver?.vehicle ? ` (${after.driver.vehicle.plate})` : ''}` })];
    case 'ARRIVED':
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.arrived', recipients: [rider], title: 'Your driver is here', body: `${after.driver?.name ?? 'Your driver'} is waiting at the pickup` })];
    case 'IN_PROGRESS':
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.pickup', recipients: [rider], title: 'Trip started', body: 'Have a good trip' })];
    case 'COMPLETED':
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.completed', recipients: [rider, ...driver], title: 'Trip completed', body: `Fare ${after.fare ?? after.quote.fare} ₫` })];
    case 'CANCELLED':
    case 'EXPIRED':
      return [RIDE_EVENTS.notice({ ...base, event: 'ride.cancelled', recipients: [rider, ...driver], title: 'Ride cancelled', body: after.cancelReason ?? (after.status === 'EXPIRED' ? 'The driver did not arrive in time' : 'The ride was cancelled') })];
    case 'NO_DRIVER':
      // A ride that ends without a driver after one cancelled: the rider hears it (a new booking found nobody: the answer said so).
      return before ? [RIDE_EVENTS.notice({ ...base, event: 'ride.cancelled', recipients: [rider], title: 'No driver', body: 'Your driver cancelled and nobody else is free; please book again' })] : [];
    default:
      return [];
  }
}

// At least once: notification ids derive from event, ride, recipient and driver, so a repeat sends nothing new; the
// expiry task has one id per ride. A finished ride's money is settled again here (idempotent), in case the request
// that finished it died before.
export async function onRideWritten(
  event: DocumentEvent,
  config: Readonly<AppConfig>,
  hub: Pick<Hub, 'dispatch'> = notificationHub(config),
  rides: Pick<ReturnType<typeof ridesServiceFor>, 'settleAndRecord' | 'scheduleExpiry'> = ridesServiceFor(config),
) {
  const as = (side: DocumentEvent['before']) => (side ? { ...recordFields<RideRecord>(rideDocument, side.data), id: side.id } : undefined);
  const [before, after] = [as(event.before), as(event.after)];
  if (after && before?.status !== after.status && ['COMPLETED', 'CANCELLED', 'NO_DRIVER', 'EXPIRED'].includes(after.status)) await rides.settleAndRecord(after);
  const notices = rideNotices(before, after);
  // The ride's chat with a driver closes when that driver leaves it or the ride ends (closing again is a no-op).
  const leaving = before?.driverId && (before.driverId !== after?.driverId || (after && !ACTIVE_STATUSES.includes(after.status))) ? before.driverId : null;
  if (before && leaving && after) await closeContextConversation(rideChatContext(after.id, leaving));
  // A driver was given (first match or reassignment), arrived, or picked up: the status's timer starts here.
  if (after && ACTIVE_STATUSES.includes(after.status) && notices.length > 0) await rides.scheduleExpiry(after);
  for (const notice of notices) await hub.dispatch(notice);
  return notices.length;
}

/** Every administrator hears an SOS (at least once; ids derive from the alert, so a repeat adds nothing). */
export async function onSosCreated(event: DocumentEvent, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) {
  if (!event.after) return 0;
  const sos = { ...event.after.data, id: event.after.id } as unknown as SosRecord;
  const { users } = await accountDirectory.list({ role: 'ADMIN', limit: 100 }, 'system:sos');
  const admins = users.filter((u) => !u.disabled).map((u) => ({ userId: u.id, surface: 'CON' as const }));
  if (admins.length === 0) return 0;
  await hub.dispatch(
    RIDE_EVENTS.notice({
      event: 'ride.sos',
      recipients: admins,
      entityId: sos.rideId,
      occurrence: sos.id,
      title: `SOS from the ${sos.role.toLowerCase()} of a ride`,
      body: sos.message ?? 'Emergency alert raised in a ride',
      params: { rideId: sos.rideId, sosId: sos.id },
    }),
  );
  return admins.length;
}
