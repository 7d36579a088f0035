import type { RidesDeps } from './rides.context';
import { createRideDispatch } from './rides.dispatch';
import { createRideLifecycle, type ExpiryScheduler } from './rides.lifecycle';
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
export type { ExpiryScheduler } from './rides.lifecycle';
export { quoteKeyOf } from './rides.pricing';

export interface RidesServiceDeps extends RidesDeps {
  scheduler: ExpiryScheduler;
}

export function createRidesService({ scheduler, ...deps }: RidesServiceDeps) {
  const core = { deps, now: deps.now ?? Date.now };
  const pricing = createRidePricing(core);
  // The lifecycle settles through `settlement`, which reads rides through the lifecycle's `visible` (bound at call time).
  const settlement = createRideSettlement(core, (id, viewer) => lifecycle.visible(id, viewer));
  const lifecycle = createRideLifecycle(core, scheduler, { pricing, settlement });
  const dispatch = createRideDispatch(core, scheduler, { pricing, settlement, lifecycle });
  const trip = createRideTrip(core, { pricing, settlement, lifecycle, dispatch });
  const ratings = createRideRatings(core);
  const queries = createRideQueries(core, { visible: lifecycle.visible, ratings, settlement });
  const sos = createRideSos(core, lifecycle.visible);
  const sharing = createRideSharing(core, lifecycle.visible);
  return {
    quote: pricing.quote,
    create: dispatch.create,
    driversNearby: dispatch.driversNearby,
    expireIfDue: lifecycle.expireIfDue,
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
