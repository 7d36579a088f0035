import { defineModule } from '../../platform/core/module/module';
import { FAVORITE_ERROR_CODES } from './favorites.errors';
import { FAVORITES } from './favorites.model';

// Records a consumer saved (places, stores, lots, stations, ATMs; merchants, hotels and listings as they come).
export const favoritesModule = defineModule({
  name: 'favorites',
  uses: [],
  apiTags: { favorites: 'Places, merchants and listings a consumer saved.' },
  errorCodes: FAVORITE_ERROR_CODES,
  routes: () => (require('./favorites.routes') as typeof import('./favorites.routes')).favoritesRoutes(),
  collections: [{ name: FAVORITES }],
});
