import { defineModule, defineTask } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { SCHOOL_FOLLOW_UPS, SCHOOL_PROGRAMS, SCHOOL_TRIP_PLANS, SCHOOL_TRIP_QUEUE, SCHOOL_TRIPS, SCHOOLS } from './schools.collections';
import { SCHOOL_EVENTS } from './schools.events';
import { SCHOOLS_ERROR_CODES } from './schools.errors';

// Schools and their programs (a catalog of the platform kit with child items), consultations booked in slots on the
// booking engine (modules/bookings), whose shared routes answer, start, complete, list and cancel them, and the
// school's follow-up of each family it met; and school trips: a child's term of runs between home and school, taken
// by a SCHOOL_TRIP driver from the dispatch pool, each day's legs followed live by the parent.
const model = () => require('./schools.trips.model') as typeof import('./schools.trips.model');

export const schoolsModule = defineModule({
  name: 'schools',
  uses: ['bookings', 'driver', 'notifications', 'partners', 'users'],
  apiTags: {
    schools: 'Schools, programs, consultations in slots and the school’s follow-ups, school trips, and every vertical’s bookings (listed here too).',
  },
  errorCodes: SCHOOLS_ERROR_CODES,
  events: SCHOOL_EVENTS.rows,
  targets: [{ type: 'SCHOOL', load: () => (require('./index') as typeof import('./index')).schoolsService() }],
  seed: { load: () => (require('./schools.seed') as typeof import('./schools.seed')).seedSchools },
  routes: (ctx) => [
    ...(require('./schools.routes') as typeof import('./schools.routes')).schoolsRoutes(ctx),
    ...(require('./schools.trip-routes') as typeof import('./schools.trip-routes')).schoolTripRoutes(ctx),
  ],
  tasks: {
    schoolTripExpiry: defineTask({
      queue: SCHOOL_TRIP_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 600 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./schools.tasks') as typeof import('./schools.tasks')).onTripExpiry,
    }),
  },
  triggers: {
    schoolTripPlanChanged: {
      document: `${SCHOOL_TRIP_PLANS}/{planId}`,
      on: 'written',
      load: () => (require('./schools.triggers') as typeof import('./schools.triggers')).onPlanWritten,
    },
    schoolTripChanged: {
      document: `${SCHOOL_TRIPS}/{tripId}`,
      on: 'written',
      load: () => (require('./schools.triggers') as typeof import('./schools.triggers')).onTripWritten,
    },
  },
  collections: [
    { name: SCHOOLS },
    cellIndexCollection(SCHOOLS),
    { name: EVENTS, parent: SCHOOLS },
    { name: SCHOOL_PROGRAMS },
    { name: SCHOOL_FOLLOW_UPS },
    { name: EVENTS, parent: SCHOOL_FOLLOW_UPS },
    {
      name: SCHOOL_TRIP_PLANS,
      clientAccess: true,
      listened: {
        name: 'SchoolTripPlanDocument',
        path: `${SCHOOL_TRIP_PLANS}/{planId}`,
        readers: 'its parent and its driver (`participants` contains the caller)',
        schema: () => model().planDocument(),
      },
    },
    { name: EVENTS, parent: SCHOOL_TRIP_PLANS },
    {
      name: SCHOOL_TRIPS,
      clientAccess: true,
      listened: {
        name: 'SchoolTripDocument',
        path: `${SCHOOL_TRIPS}/{tripId}`,
        readers: 'its parent and its driver (`participants` contains the caller)',
        schema: () => model().tripDocument(),
      },
    },
    { name: EVENTS, parent: SCHOOL_TRIPS },
  ],
});
