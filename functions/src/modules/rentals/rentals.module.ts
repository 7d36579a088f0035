import { defineModule, defineTask } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { RENTAL_DEPOSIT_QUEUE, RENTAL_DEPOSITS, RENTAL_LISTINGS } from './rentals.collections';
import { RENTALS_ERROR_CODES } from './rentals.errors';
import { RENTAL_EVENTS } from './rentals.events';

// Landlords' rental listings (a catalog of the platform kit, managed under /rentals/partner/listings) and viewings
// booked in slots on the booking engine (modules/bookings), whose shared routes list and move them, and deposits held
// in the tenant's wallet until the lease (payments' holds), each move a ledger transfer, `rental.deposit.*` told.
export const rentalsModule = defineModule({
  name: 'rentals',
  uses: ['bookings', 'notifications', 'partners', 'payments'],
  apiTags: {
    rentals: 'Rental listings (landlords manage them under /rentals/partner/listings), viewings in slots, and every vertical’s bookings (listed here too).',
  },
  errorCodes: RENTALS_ERROR_CODES,
  events: RENTAL_EVENTS.rows,
  paymentPurposes: ['RENTAL_DEPOSIT'],
  tasks: {
    rentalDepositExpiry: defineTask({
      queue: RENTAL_DEPOSIT_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./rentals.tasks') as typeof import('./rentals.tasks')).onDepositExpiry,
    }),
  },
  triggers: {
    rentalDepositChanged: {
      document: `${RENTAL_DEPOSITS}/{depositId}`,
      on: 'written',
      load: () => (require('./rentals.triggers') as typeof import('./rentals.triggers')).onDepositWritten,
    },
  },
  targets: [{ type: 'RENTAL_LISTING', load: () => (require('./index') as typeof import('./index')).rentalListingsService() }],
  seed: { load: () => (require('./rentals.seed') as typeof import('./rentals.seed')).seedRentals },
  routes: (ctx) => (require('./rentals.routes') as typeof import('./rentals.routes')).rentalsRoutes(ctx),
  collections: [
    { name: RENTAL_LISTINGS },
    { name: EVENTS, parent: RENTAL_LISTINGS },
    cellIndexCollection(RENTAL_LISTINGS),
    { name: RENTAL_DEPOSITS },
    { name: EVENTS, parent: RENTAL_DEPOSITS },
  ],
});
