import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { MEDICAL_CLINICS, MEDICAL_DOCTORS } from './medical.collections';
import { MEDICAL_ERROR_CODES } from './medical.errors';

// Clinics and their doctors (a catalog of the platform kit with child items) and appointments booked in slots on the
// booking engine (modules/bookings), whose shared routes answer, check in, complete, list and cancel them.
export const medicalModule = defineModule({
  name: 'medical',
  uses: ['bookings', 'partners'],
  apiTags: { medical: 'Clinics, doctors and appointments in slots, and every vertical’s bookings (listed here too).' },
  errorCodes: MEDICAL_ERROR_CODES,
  targets: [{ type: 'MEDICAL_CLINIC', load: () => (require('./index') as typeof import('./index')).clinicsService() }],
  seed: { load: () => (require('./medical.seed') as typeof import('./medical.seed')).seedClinics },
  routes: (ctx) => (require('./medical.routes') as typeof import('./medical.routes')).medicalRoutes(ctx),
  collections: [{ name: MEDICAL_CLINICS }, { name: EVENTS, parent: MEDICAL_CLINICS }, cellIndexCollection(MEDICAL_CLINICS), { name: MEDICAL_DOCTORS }],
});
