import { defineModule } from '../../platform/core/module/module';
import { ROUTING_ERROR_CODES } from './routing.errors';
import { routingSwitches } from './routing.config';

// Road distance, duration and path (estimator or OSRM), for quotes, ETAs and the apps' maps.
export const routingModule = defineModule({
  name: 'routing',
  uses: [],
  apiTags: { routing: 'Routes, distances and fare estimates.' },
  config: routingSwitches,
  errorCodes: ROUTING_ERROR_CODES,
  routes: (ctx) => (require('./routing.routes') as typeof import('./routing.routes')).routingRoutes(ctx),
});
