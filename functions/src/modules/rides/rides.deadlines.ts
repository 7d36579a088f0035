import { defineDeadline, type DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { deadlineOf, RIDE_EXPIRY_QUEUE, RIDE_HOLD_CHECK_QUEUE, type RideRecord } from './rides.model';
import type { RidesDeps } from './rides.context';

// The ride's two timers on platform/kits/deadlines: the expiry of its active status (one task per ride and status,
// CONFIRMED keeping the original id) and the check of a booking's wallet hold (one per hold). The due times depend on
// the configuration, so the deadlines are declared per service (createRidesService).

/** A booking's wallet hold, as its check sees it: the payment (`id`), its ride, and when it was taken. */
export interface RideHold {
  id: string;
  rideId: string;
  status: 'HELD';
  createdAt: number;
}

export type HoldCheckPayload = { rideId: string; paymentId: string };

/** What the service asks for its timers (a fake in tests; by default the deadlines' own queues). */
export interface ExpiryScheduler {
  /** The timer of the ride's current status: `phase` is the status. */
  schedule: DeadlineScheduler['schedule'];
  /** The check that releases a booking's wallet hold if nothing captured or released it by then. */
  holdCheck: DeadlineScheduler<HoldCheckPayload>['schedule'];
}

export function rideDeadlines(deps: Pick<RidesDeps, 'timeouts' | 'holdExpirySec'>) {
  const expiry = defineDeadline({
    entity: 'ride',
    queue: RIDE_EXPIRY_QUEUE,
    idField: 'rideId',
    taskId: (id, phase) => (phase === undefined || phase === 'CONFIRMED' ? `ride-expiry-${id}` : `ride-expiry-${id}-${phase.toLowerCase()}`),
    dueAt: (ride: RideRecord) => deadlineOf(ride, deps.timeouts),
  });
  const hold = defineDeadline({
    entity: 'ride hold',
    queue: RIDE_HOLD_CHECK_QUEUE,
    idField: 'paymentId',
    payloadOf: (h: RideHold) => ({ rideId: h.rideId, paymentId: h.id }),
    taskId: (paymentId) => `ride-hold-${paymentId}`,
    dueAt: (h: RideHold) => h.createdAt + deps.holdExpirySec * 1000,
  });
  const scheduler: ExpiryScheduler = { schedule: expiry.scheduler.schedule, holdCheck: hold.scheduler.schedule };
  return { expiry, hold, scheduler };
}

export type RideDeadlines = ReturnType<typeof rideDeadlines>;
