import { defineModule, defineTask } from '../../platform/core/module/module';
import { PAYMENT_ERROR_CODES } from './payments.errors';
import { PAYMENT_EVENTS } from './payments.events';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { PAYMENT_EXPIRY_QUEUE, PAYMENT_TIPS, PAYMENTS, STAFF_REFUNDS } from './payments.collections';
import { paymentsSwitches } from './payments.config';

// Payments over the wallet's ledger: one record per attempt, gateways (VNPay, MoMo, mock), their notifications,
// refunds, and the charge/hold/capture/release commands other modules pay through. It also serves the wallet
// tag's top-up route: a top-up is a gateway payment, and the wallet module sits below this one.
const model = () => require('./payments.model') as typeof import('./payments.model');

export const paymentsModule = defineModule({
  name: 'payments',
  uses: ['notifications', 'users', 'wallet'],
  apiTags: { payments: 'Payments, gateway notifications and refunds (REFUNDED).' },
  config: paymentsSwitches,
  seed: { load: () => (require('./payments.seed') as typeof import('./payments.seed')).seedPayments },
  errorCodes: PAYMENT_ERROR_CODES,
  events: PAYMENT_EVENTS.rows,
  // TOPUP and OTHER are its own (bookings claims BOOKING, rentals RENTAL_DEPOSIT).
  paymentPurposes: ['TOPUP', 'OTHER'],
  permissions: ['payments.manage'],
  routes: (ctx) => (require('./payments.routes') as typeof import('./payments.routes')).paymentsRoutes(ctx),
  tasks: {
    paymentExpiry: defineTask({
      queue: PAYMENT_EXPIRY_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./payments.tasks') as typeof import('./payments.tasks')).onPaymentExpiry,
    }),
  },
  triggers: {
    // Top-up outcome and refund notices to the payer (at least once; idempotent by payment and refund id).
    paymentStatusChanged: {
      document: `${PAYMENTS}/{paymentId}`,
      on: 'written',
      load: () => (require('./payments.triggers') as typeof import('./payments.triggers')).onPaymentWritten,
    },
  },
  collections: [
    {
      name: PAYMENTS,
      clientAccess: true,
      listened: {
        name: 'PaymentDocument',
        path: `${PAYMENTS}/{paymentId}`,
        readers: 'its payer (`payerId` is the caller)',
        schema: () => model().paymentDocument(),
      },
    },
    { name: EVENTS, parent: PAYMENTS },
    { name: PAYMENT_TIPS },
    { name: STAFF_REFUNDS },
    { name: EVENTS, parent: STAFF_REFUNDS },
  ],
});
