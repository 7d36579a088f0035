import { defineModule } from '../../platform/core/module/module';

export const healthModule = defineModule({
  name: 'health',
  uses: [],
  apiTags: { health: 'Liveness and diagnostics of the API and its dependencies.' },
  routes: (ctx) => (require('./health.routes') as typeof import('./health.routes')).healthRoutes(ctx),
});
