import { defineModule } from '../../platform/core/module/module';
import { healthSwitches } from './health.config';

export const healthModule = defineModule({
  name: 'health',
  uses: [],
  apiTags: { health: 'Liveness and diagnostics of the API and its dependencies.' },
  config: healthSwitches,
  routes: (ctx) => (require('./health.routes') as typeof import('./health.routes')).healthRoutes(ctx),
});
