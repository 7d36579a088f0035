import { defineModule } from '../../platform/core/module/module';
import { PARKING_ERROR_CODES } from './parking.errors';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { PARKING_LOTS } from './parking.collections';

// Parking lots (a catalog of the platform kit) with live free spaces.
export const parkingModule = defineModule({
  name: 'parking',
  uses: ['partners'],
  apiTags: { parking: 'Parking lots and parking bookings.' },
  seed: { load: () => (require('./parking.seed') as typeof import('./parking.seed')).seedParking },
  errorCodes: PARKING_ERROR_CODES,
  targets: [{ type: 'PARKING_LOT', load: () => (require('./index') as typeof import('./index')).parkingLotsService() }],
  promotionVerticals: ['PARKING'],
  routes: (ctx) => (require('./parking.catalog') as typeof import('./parking.catalog')).parking.routes(ctx),
  collections: [{ name: PARKING_LOTS }, { name: EVENTS, parent: PARKING_LOTS }],
});
