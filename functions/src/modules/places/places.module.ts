import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { PLACES } from './places.collections';

// Places on the map tab: a catalog (platform/kits/catalog) of partner-managed and curated points of interest.
export const placesModule = defineModule({
  name: 'places',
  uses: ['partners'],
  apiTags: { places: 'Places and nearby search.' },
  seed: { load: () => (require('./places.seed') as typeof import('./places.seed')).seedPlaces },
  targets: [{ type: 'PLACE', load: () => (require('./index') as typeof import('./index')).placesCatalogService() }],
  routes: (ctx) => (require('./places.catalog') as typeof import('./places.catalog')).places.routes(ctx),
  collections: [{ name: PLACES }, { name: EVENTS, parent: PLACES }, cellIndexCollection(PLACES)],
});
