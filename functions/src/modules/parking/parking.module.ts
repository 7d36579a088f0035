import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { PARKING_ERROR_CODES } from './parking.errors';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { PARKING_LOTS } from './parking.collections';

// Parking lots (a catalog of the platform kit) with live free spaces, and spaces booked by the hour on the booking engine.
export const parkingModule = defineModule({
  name: 'parking',
  uses: ['partners', 'bookings'],
  apiTags: { parking: 'Parking lots, their live free spaces, and spaces booked by the hour (with every vertical’s bookings, listed here too).' },
  seed: { load: () => (require('./parking.seed') as typeof import('./parking.seed')).seedParking },
  errorCodes: PARKING_ERROR_CODES,
  targets: [{ type: 'PARKING_LOT', load: () => (require('./index') as typeof import('./index')).parkingLotsService() }],
  promotionVerticals: ['PARKING'],
  routes: (ctx) => [
    ...(require('./parking.catalog') as typeof import('./parking.catalog')).parking.routes(ctx),
    ...(require('./parking.bookings') as typeof import('./parking.bookings')).parkingBookingRoutes(ctx),
  ],
  collections: [{ name: PARKING_LOTS }, { name: EVENTS, parent: PARKING_LOTS }, cellIndexCollection(PARKING_LOTS)],
});
