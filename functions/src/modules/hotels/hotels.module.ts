import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { HOTEL_ROOMS, HOTELS } from './hotels.collections';
import { HOTELS_ERROR_CODES } from './hotels.errors';

// Hotels (a catalog of the platform kit) with room types and nightly rates; stays are searched, priced and booked on
// the booking engine (modules/bookings), whose shared routes move and list them.
export const hotelsModule = defineModule({
  name: 'hotels',
  uses: ['bookings', 'partners'],
  apiTags: { hotels: 'Hotels, room types, stays searched by dates and guests, and every vertical’s bookings (listed here and under each booking vertical).' },
  errorCodes: HOTELS_ERROR_CODES,
  seed: { load: () => (require('./hotels.seed') as typeof import('./hotels.seed')).seedHotels },
  targets: [{ type: 'HOTEL', load: () => (require('./index') as typeof import('./index')).hotelsService() }],
  routes: (ctx) => (require('./hotels.routes') as typeof import('./hotels.routes')).hotelsRoutes(ctx),
  collections: [{ name: HOTELS }, { name: EVENTS, parent: HOTELS }, cellIndexCollection(HOTELS), { name: HOTEL_ROOMS }],
});
