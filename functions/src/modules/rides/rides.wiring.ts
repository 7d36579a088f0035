import { perConfig, type AppConfig } from '../../platform/core/config';
import { paymentCommands } from '../payments';
import { routerOf } from '../routing';
import { createRidesService, quoteKeyOf } from './rides.service';

// Services of the rides module, built once per configuration.
export const ridesServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createRidesService({
    router: routerOf(config),
    payments: paymentCommands(config),
    quoteKey: quoteKeyOf(config.JWT_SECRET),
    searchRadiusM: config.RIDE_SEARCH_RADIUS_M,
    commissionBp: config.RIDE_COMMISSION_BP,
    cancelFee: config.RIDE_CANCEL_FEE_VND,
    cancelGraceSec: config.RIDE_CANCEL_GRACE_SEC,
    cancelWaitSec: config.RIDE_CANCEL_WAIT_SEC,
    timeouts: { arrivedSec: config.RIDE_ARRIVED_TIMEOUT_SEC, tripFactor: config.RIDE_TRIP_TIMEOUT_FACTOR, tripMinSec: config.RIDE_TRIP_TIMEOUT_MIN_SEC },
    geofence: {
      arriveRadiusM: config.RIDE_ARRIVE_RADIUS_M,
      completeRadiusM: config.RIDE_COMPLETE_RADIUS_M,
      completeMinDrivenBp: config.RIDE_COMPLETE_MIN_DRIVEN_BP,
      positionFreshSec: config.RIDE_POSITION_FRESH_SEC,
    },
    holdExpirySec: config.RIDE_HOLD_EXPIRY_SEC,
    disputeWindowDays: config.RIDE_DISPUTE_WINDOW_DAYS,
  }),
);
