import { perConfig, type AppConfig } from '../../platform/config';
import { enqueue } from '../../platform/tasks/tasks';
import { paymentCommands } from '../payments';
import { routerOf } from '../routing';
import { RIDE_EXPIRY_QUEUE } from './rides.model';
import { createRidesService, quoteKeyOf } from './rides.service';

// Services of the rides module, built once per configuration.
export const ridesServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createRidesService({
    router: routerOf(config),
    payments: paymentCommands(config),
    // One expiry task per ride (its id): a retried booking does not queue a second one.
    scheduler: { schedule: (rideId, delaySec) => enqueue(RIDE_EXPIRY_QUEUE, { rideId }, { id: `ride-expiry-${rideId}`, delaySec }) },
    quoteKey: quoteKeyOf(config.JWT_SECRET),
    searchRadiusM: config.RIDE_SEARCH_RADIUS_M,
    commissionBp: config.RIDE_COMMISSION_BP,
    cancelFee: config.RIDE_CANCEL_FEE_VND,
    cancelGraceSec: config.RIDE_CANCEL_GRACE_SEC,
  }),
);
