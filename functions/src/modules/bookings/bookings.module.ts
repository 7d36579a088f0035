import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { BOOKING_DEADLINE_QUEUE, BOOKING_INVENTORY, BOOKINGS } from './bookings.collections';
import { BOOKINGS_ERROR_CODES } from './bookings.errors';

// The booking engine (issue 33): one table, one inventory and one deadline for every booking vertical (hotels,
// parking, rental viewings, medical appointments, school consultations, home services), which call its face. Its
// routes, events and the verticals themselves come next; the collections are API only. Its trigger arms the
// deadlines (a hold's end, a partner's answer) whatever wrote the booking.
export const bookingsModule = defineModule({
  name: 'bookings',
  uses: [],
  errorCodes: BOOKINGS_ERROR_CODES,
  tasks: {
    bookingDeadline: defineTask({
      queue: BOOKING_DEADLINE_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./bookings.tasks') as typeof import('./bookings.tasks')).onBookingDeadline,
    }),
  },
  triggers: {
    bookingStatusChanged: {
      document: `${BOOKINGS}/{bookingId}`,
      on: 'written',
      load: () => (require('./bookings.triggers') as typeof import('./bookings.triggers')).onBookingWritten,
    },
  },
  collections: [{ name: BOOKINGS }, { name: EVENTS, parent: BOOKINGS }, { name: BOOKING_INVENTORY }],
});
