import { defineModule } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { SCHOOL_LEADS, SCHOOL_PROGRAMS, SCHOOLS } from './schools.collections';
import { SCHOOLS_ERROR_CODES } from './schools.errors';

// Schools and their programs (a catalog of the platform kit with child items), consultations booked in slots on the
// booking engine (modules/bookings), whose shared routes answer, start, complete, list and cancel them, and the
// school's follow-up of each family it met.
export const schoolsModule = defineModule({
  name: 'schools',
  uses: ['bookings', 'partners'],
  apiTags: { schools: 'Schools, programs, consultations in slots and the school’s follow-ups, and every vertical’s bookings (listed here too).' },
  errorCodes: SCHOOLS_ERROR_CODES,
  targets: [{ type: 'SCHOOL', load: () => (require('./index') as typeof import('./index')).schoolsService() }],
  seed: { load: () => (require('./schools.seed') as typeof import('./schools.seed')).seedSchools },
  routes: (ctx) => (require('./schools.routes') as typeof import('./schools.routes')).schoolsRoutes(ctx),
  collections: [
    { name: SCHOOLS },
    { name: EVENTS, parent: SCHOOLS },
    { name: SCHOOL_PROGRAMS },
    { name: SCHOOL_LEADS },
    { name: EVENTS, parent: SCHOOL_LEADS },
  ],
});
