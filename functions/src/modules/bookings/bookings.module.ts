import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { paymentOutcomeTrigger } from '../payments';
import { BOOKING_DEADLINE_QUEUE, BOOKING_INVENTORY, BOOKING_REMINDER_QUEUE, BOOKINGS } from './bookings.collections';
import { bookingsSwitches } from './bookings.config';
import { BOOKINGS_ERROR_CODES } from './bookings.errors';
import { BOOKING_EVENTS } from './bookings.events';

// The booking engine (issue 33): one table, one inventory, one deadline and one set of shared routes for every
// booking vertical (hotels, parking, rental viewings, medical appointments, school consultations, home services),
// which call its face. Its trigger arms the deadlines and reminders, tells the parties through the hub and settles
// the money of a booking that ended, whatever wrote it.
const tasks = () => require('./bookings.tasks') as typeof import('./bookings.tasks');
const TASK_OPTIONS = {
  retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
  rateLimits: { maxConcurrentDispatches: 50 },
  timeoutSeconds: 60,
  memory: '256MiB',
} as const;

export const bookingsModule = defineModule({
  name: 'bookings',
  uses: ['notifications', 'partners', 'payments', 'wallet'],
  errorCodes: BOOKINGS_ERROR_CODES,
  config: bookingsSwitches,
  events: BOOKING_EVENTS.rows,
  permissions: ['bookings.manage'],
  paymentPurposes: ['BOOKING'],
  routes: (ctx) => (require('./bookings.routes') as typeof import('./bookings.routes')).bookingsRoutes(ctx),
  tasks: {
    bookingDeadline: defineTask({ queue: BOOKING_DEADLINE_QUEUE, options: TASK_OPTIONS, load: () => tasks().onBookingDeadline }),
    bookingReminder: defineTask({ queue: BOOKING_REMINDER_QUEUE, options: TASK_OPTIONS, load: () => tasks().onBookingReminder }),
  },
  triggers: {
    bookingStatusChanged: {
      document: `${BOOKINGS}/{bookingId}`,
      on: 'written',
      load: () => (require('./bookings.triggers') as typeof import('./bookings.triggers')).onBookingWritten,
    },
    // A gateway payment's outcome secures the booking awaiting it.
    bookingPaymentChanged: paymentOutcomeTrigger('BOOKING', () => (require('./bookings.payments') as typeof import('./bookings.payments')).onBookingPayment),
  },
  collections: [{ name: BOOKINGS }, { name: EVENTS, parent: BOOKINGS }, { name: BOOKING_INVENTORY }],
});
