import { defineModule } from '../../platform/core/module/module';
import { ADDRESS_ERROR_CODES } from './addresses.errors';
import { ADDRESSES } from './addresses.model';

// A consumer's saved addresses (pick-up and delivery points).
export const addressesModule = defineModule({
  name: 'addresses',
  uses: [],
  apiTags: { addresses: 'Saved consumer addresses (home, work, pick-up points).' },
  errorCodes: ADDRESS_ERROR_CODES,
  routes: () => (require('./addresses.routes') as typeof import('./addresses.routes')).addressesRoutes(),
  collections: [{ name: ADDRESSES }],
});
