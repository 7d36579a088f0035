import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { HOME_SERVICE_PROVIDERS, HOME_SERVICES } from './homeservices.collections';
import { HOME_SERVICES_ERROR_CODES } from './homeservices.errors';

// Home-service providers and their services (a catalog of the platform kit with child items), visits booked by the
// hour at the consumer's address on the booking engine (modules/bookings), assigned and completed with photos. The
// spec names no tag for them: their operations are listed under `places` (found around an address on the map tab).
export const homeServicesModule = defineModule({
  name: 'homeservices',
  uses: ['bookings', 'media', 'partners'],
  errorCodes: HOME_SERVICES_ERROR_CODES,
  targets: [{ type: 'HOME_SERVICE_PROVIDER', load: () => (require('./index') as typeof import('./index')).homeServiceProviders() }],
  seed: { load: () => (require('./homeservices.seed') as typeof import('./homeservices.seed')).seedHomeServices },
  routes: (ctx) => (require('./homeservices.routes') as typeof import('./homeservices.routes')).homeservicesRoutes(ctx),
  collections: [
    { name: HOME_SERVICE_PROVIDERS },
    { name: EVENTS, parent: HOME_SERVICE_PROVIDERS },
    cellIndexCollection(HOME_SERVICE_PROVIDERS),
    { name: HOME_SERVICES },
  ],
});
