import { defineModule } from '../../platform/module/module';
import { ADDRESSES } from './addresses.model';

// A consumer's saved addresses (pick-up and delivery points).
export const addressesModule = defineModule({
  name: 'addresses',
  uses: [],
  routes: () => (require('./addresses.routes') as typeof import('./addresses.routes')).addressesRoutes(),
  collections: [{ name: ADDRESSES }],
});
