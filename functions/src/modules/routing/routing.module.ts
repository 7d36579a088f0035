import { defineModule } from '../../platform/module/module';

// Road distance, duration and path (estimator or OSRM), for quotes, ETAs and the apps' maps.
export const routingModule = defineModule({
  name: 'routing',
  uses: [],
  routes: (ctx) => (require('./routing.routes') as typeof import('./routing.routes')).routingRoutes(ctx),
});
