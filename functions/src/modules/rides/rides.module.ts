import { defineModule, defineTask } from '../../platform/core/module/module';
import { RIDE_ERROR_CODES } from './rides.errors';
import { RIDE_EVENTS } from './rides.events';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import {
  DRIVER_RATINGS,
  RIDE_DISPUTES,
  RIDE_DRIVER_RATINGS,
  RIDE_EXPIRY_QUEUE,
  RIDE_HOLD_CHECK_QUEUE,
  RIDE_SOS,
  RIDER_ACTIVE,
  RIDES,
} from './rides.collections';
import { ridesSwitches } from './rides.config';

// Ride hailing: quotes, dispatch (the nearest free driver, in a transaction), the trip's life cycle, fares settled
// through payments, ratings and SOS. Driver positions and availability belong to the driver module (dispatchPool).
const model = () => require('./rides.model') as typeof import('./rides.model');

export const ridesModule = defineModule({
  name: 'rides',
  uses: ['chat', 'driver', 'notifications', 'payments', 'routing', 'users'],
  apiTags: { rides: 'Ride requests, matching, status and live location.' },
  config: ridesSwitches,
  commands: {
    'migrate-ratings': {
      describe: "moves riders' ratings still on ride documents to ride_driver_ratings",
      load: () => (require('./rides.commands') as typeof import('./rides.commands')).migrateRatings,
    },
  },
  errorCodes: RIDE_ERROR_CODES,
  events: RIDE_EVENTS.rows,
  chatContexts: ['RIDE'],
  paymentPurposes: ['RIDE'],
  promotionVerticals: ['RIDE'],
  permissions: ['rides.manage'],
  routes: (ctx) => (require('./rides.routes') as typeof import('./rides.routes')).ridesRoutes(ctx),
  tasks: {
    rideExpiry: defineTask({
      queue: RIDE_EXPIRY_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 120, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./rides.tasks') as typeof import('./rides.tasks')).onRideExpiry,
    }),
    rideHoldCheck: defineTask({
      queue: RIDE_HOLD_CHECK_QUEUE,
      options: {
        retryConfig: { maxAttempts: 10, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./rides.tasks') as typeof import('./rides.tasks')).onRideHoldCheck,
    }),
  },
  triggers: {
    // ride:status and the ride.* hub events on each status change; settles a finished ride's money again (idempotent).
    rideStatusChanged: {
      document: `${RIDES}/{rideId}`,
      on: 'written',
      load: () => (require('./rides.triggers') as typeof import('./rides.triggers')).onRideWritten,
    },
    // The administrators' SOS notice.
    rideSosCreated: {
      document: `${RIDE_SOS}/{sosId}`,
      on: 'created',
      load: () => (require('./rides.triggers') as typeof import('./rides.triggers')).onSosCreated,
    },
  },
  collections: [
    {
      name: RIDES,
      clientAccess: true,
      listened: {
        name: 'RideDocument',
        path: `${RIDES}/{rideId}`,
        readers: 'its rider and its driver (`participants` contains the caller)',
        schema: () => model().rideDocument(),
      },
    },
    { name: EVENTS, parent: RIDES },
    { name: RIDER_ACTIVE },
    { name: DRIVER_RATINGS },
    { name: RIDE_SOS },
    { name: RIDE_DISPUTES },
    { name: RIDE_DRIVER_RATINGS },
  ],
});
