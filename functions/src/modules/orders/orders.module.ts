import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { paymentOutcomeTrigger } from '../payments';
import { ORDER_CONFIRM_QUEUE, ORDER_COURIER_QUEUE, ORDER_HANDOVERS, ORDER_PICKUP_QUEUE, ORDER_RATINGS, ORDERS } from './orders.collections';
import { ORDERS_ERROR_CODES } from './orders.errors';
import { ORDER_EVENTS } from './orders.events';
import { ordersSwitches } from './orders.config';

// Orders of food, groceries and medicine: placed by checkout, confirmed and prepared by the store, delivered by a
// courier from the driver module's job pool, paid through payments and paid out through the ledger.
const model = () => require('./orders.model') as typeof import('./orders.model');

export const ordersModule = defineModule({
  name: 'orders',
  uses: ['chat', 'driver', 'media', 'merchants', 'notifications', 'partners', 'payments', 'promotions', 'users', 'wallet'],
  apiTags: { orders: 'Food, grocery and pharmacy orders: the store’s steps, the courier’s delivery, ratings and chat.' },
  errorCodes: ORDERS_ERROR_CODES,
  config: ordersSwitches,
  events: ORDER_EVENTS.rows,
  chatContexts: ['ORDER'],
  paymentPurposes: ['ORDER'],
  promotionVerticals: ['ORDER'],
  permissions: ['orders.manage'],
  routes: (ctx) => (require('./orders.routes') as typeof import('./orders.routes')).ordersRoutes(ctx),
  tasks: {
    orderConfirmTimeout: defineTask({
      queue: ORDER_CONFIRM_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./orders.tasks') as typeof import('./orders.tasks')).onConfirmTimeout,
    }),
    // One task per search round: a round that finds nobody arms the next one itself (15 s, doubling to 2 minutes,
    // for as long as the order can get a courier); the queue's retries are for failures only.
    orderCourierSearch: defineTask({
      queue: ORDER_COURIER_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 15, maxBackoffSeconds: 120 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./orders.tasks') as typeof import('./orders.tasks')).onCourierSearch,
    }),
    orderPickupTimeout: defineTask({
      queue: ORDER_PICKUP_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./orders.tasks') as typeof import('./orders.tasks')).onPickupTimeout,
    }),
  },
  triggers: {
    // Notices, timers, money and the chat's end on each status change.
    orderStatusChanged: {
      document: `${ORDERS}/{orderId}`,
      on: 'written',
      load: () => (require('./orders.triggers') as typeof import('./orders.triggers')).onOrderWritten,
    },
    // A gateway payment's outcome moves the order awaiting it.
    orderPaymentChanged: paymentOutcomeTrigger('ORDER', () => (require('./orders.payments') as typeof import('./orders.payments')).onOrderPayment),
  },
  collections: [
    {
      name: ORDERS,
      clientAccess: true,
      listened: {
        name: 'OrderDocument',
        path: `${ORDERS}/{orderId}`,
        readers: 'its consumer and its courier (`participants` contains the caller)',
        schema: () => model().orderDocument(),
      },
    },
    { name: EVENTS, parent: ORDERS },
    { name: ORDER_HANDOVERS },
    { name: ORDER_RATINGS },
  ],
});
