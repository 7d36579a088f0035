import type { RidesDeps } from './rides.context';
import { createRideDispatch } from './rides.dispatch';
import { rideDeadlines, type ExpiryScheduler } from './rides.deadlines';
import { createRideLifecycle } from './rides.lifecycle';
import { createRidePricing } from './rides.pricing';
import { createRideQueries } from './rides.queries';
import { createRideRatings } from './rides.ratings';
import { createRideSettlement } from './rides.settlement';
import { createRideSharing } from './rides.sharing';
import { createRideSos } from './rides.sos';
import { createRideTrip } from './rides.trip';

// The rides service: its parts, each a file by concern, composed into the one object the routes, tasks and trigger
// use. Order: pricing and settlement first (they need no other part), the lifecycle on them, then the rest.

export type { CreateRide, Geofence, RideViewer } from './rides.context';
export { rideViewerOf } from './rides.context';
export type { ExpiryScheduler } from './rides.deadlines';
export { quoteKeyOf } from './rides.pricing';

export interface RidesServiceDeps extends RidesDeps {
  /** The timers' queues; by default the ride's deadlines' own (platform/kits/deadlines). */
  scheduler?: ExpiryScheduler;
}

export function createRidesService({ scheduler: given, ...deps }: RidesServiceDeps) {
  const core = { deps, now: deps.now ?? Date.now };
  // The ride's deadlines depend on the configured timeouts: declared per service.
  const deadlines = rideDeadlines(deps);
  const scheduler = given ?? deadlines.scheduler;
  const pricing = createRidePricing(core);
  // The lifecycle settles through `settlement`, which reads rides through the lifecycle's `visible` (bound at call time).
  const settlement = createRideSettlement(core, (id, viewer) => lifecycle.visible(id, viewer));
  const lifecycle = createRideLifecycle(core, deadlines, scheduler, { pricing, settlement });
  const dispatch = createRideDispatch(core, deadlines, scheduler, { pricing, settlement, lifecycle });
  const trip = createRideTrip(core, { pricing, settlement, lifecycle, dispatch });
  const ratings = createRideRatings(core);
  const queries = createRideQueries(core, { visible: lifecycle.visible, ratings, settlement });
  const sos = createRideSos(core, lifecycle.visible);
  const sharing = createRideSharing(core, lifecycle.visible);
  return {
    quote: pricing.quote,
    create: dispatch.create,
    driversNearby: dispatch.driversNearby,
    runExpiry: lifecycle.runExpiry,
    /** The `rideHoldCheck` task's work: waits for the hold's due time (or asks the queue to retry), then checks it. */
    runHoldCheck: (rideId: string, paymentId: string) =>
      deadlines.hold.run(paymentId, {
        load: async () => ({ id: paymentId, rideId, status: 'HELD' as const, createdAt: Date.parse((await deps.payments.get(paymentId)).createdAt) }),
        expire: () => settlement.checkHold(rideId, paymentId),
        now: core.now,
      }),
    scheduleExpiry: lifecycle.scheduleExpiry,
    ...trip,
    checkHold: settlement.checkHold,
    settleAndRecord: settlement.settleAndRecord,
    tip: settlement.tip,
    receipt: settlement.receipt,
    dispute: settlement.dispute,
    resolveDispute: settlement.resolveDispute,
    disputeQueue: settlement.disputeQueue,
    rate: ratings.rate,
    rateRider: ratings.rateRider,
    riderRating: ratings.riderRating,
    driverRating: ratings.driverRating,
    driverRatings: ratings.driverRatings,
    ...queries,
    ...sos,
    ...sharing,
  };
}

export type RidesService = ReturnType<typeof createRidesService>;
