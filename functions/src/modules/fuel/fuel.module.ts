import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { FUEL_ERROR_CODES } from './fuel.errors';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { FUEL_PRICE_CHANGES, FUEL_STATIONS } from './fuel.collections';

// Fuel stations (a catalog of the platform kit) with prices per fuel type and their history.
export const fuelModule = defineModule({
  name: 'fuel',
  uses: ['partners'],
  apiTags: { fuel: 'Fuel stations and prices.' },
  seed: { load: () => (require('./fuel.seed') as typeof import('./fuel.seed')).seedFuel },
  errorCodes: FUEL_ERROR_CODES,
  targets: [{ type: 'FUEL_STATION', load: () => (require('./index') as typeof import('./index')).fuelStationsService() }],
  routes: (ctx) => (require('./fuel.catalog') as typeof import('./fuel.catalog')).fuel.routes(ctx),
  collections: [{ name: FUEL_STATIONS }, { name: EVENTS, parent: FUEL_STATIONS }, cellIndexCollection(FUEL_STATIONS), { name: FUEL_PRICE_CHANGES }],
});
