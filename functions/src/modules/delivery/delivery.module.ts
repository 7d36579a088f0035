import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { DELIVERIES, DELIVERY_DISPATCH_QUEUE, DELIVERY_NO_DRIVER_QUEUE, DELIVERY_PICKUP_QUEUE } from './delivery.collections';
import { deliverySwitches } from './delivery.config';
import { DELIVERY_ERROR_CODES } from './delivery.errors';
import { DELIVERY_EVENTS } from './delivery.events';

// Parcel delivery A to B (the spec's DeliveryOrder) for drivers with the DELIVERY capability: quotes, placing with the
// fee held, dispatch through the driver module's job pool, pickup and delivery proved by codes or photos, the
// no-driver timer, money through payments and the ledger. Its routes are under the `orders` tag (which the orders
// module declares).
export const deliveryModule = defineModule({
  name: 'delivery',
  uses: ['driver', 'media', 'notifications', 'payments', 'users', 'wallet'],
  errorCodes: DELIVERY_ERROR_CODES,
  config: deliverySwitches,
  events: DELIVERY_EVENTS.rows,
  paymentPurposes: ['DELIVERY'],
  permissions: ['delivery.manage'],
  routes: (ctx) => (require('./delivery.routes') as typeof import('./delivery.routes')).deliveryRoutes(ctx),
  tasks: {
    deliveryNoDriver: defineTask({
      queue: DELIVERY_NO_DRIVER_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./delivery.tasks') as typeof import('./delivery.tasks')).onDeliveryNoDriver,
    }),
    deliveryDispatch: defineTask({
      queue: DELIVERY_DISPATCH_QUEUE,
      options: {
        retryConfig: { maxAttempts: 5, minBackoffSeconds: 10, maxBackoffSeconds: 60 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./delivery.tasks') as typeof import('./delivery.tasks')).onDeliveryDispatch,
    }),
    deliveryPickupTimeout: defineTask({
      queue: DELIVERY_PICKUP_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./delivery.tasks') as typeof import('./delivery.tasks')).onDeliveryPickupTimeout,
    }),
  },
  triggers: {
    // The delivery.* hub events on each status change; settles an ended parcel's money again (idempotent).
    deliveryStatusChanged: {
      document: `${DELIVERIES}/{deliveryId}`,
      on: 'written',
      load: () => (require('./delivery.triggers') as typeof import('./delivery.triggers')).onDeliveryWritten,
    },
  },
  collections: [{ name: DELIVERIES }, { name: EVENTS, parent: DELIVERIES }],
});
