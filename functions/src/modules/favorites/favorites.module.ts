import { defineModule } from '../../platform/module/module';
import { FAVORITES } from './favorites.model';

// Records a consumer saved (places, stores, lots, stations, ATMs; merchants, hotels and listings as they come).
export const favoritesModule = defineModule({
  name: 'favorites',
  uses: [],
  routes: () => (require('./favorites.routes') as typeof import('./favorites.routes')).favoritesRoutes(),
  collections: [{ name: FAVORITES }],
});
