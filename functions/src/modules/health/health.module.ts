import { defineModule } from '../../platform/core/module/module';

export const healthModule = defineModule({
  name: 'health',
  uses: [],
  routes: (ctx) => (require('./health.routes') as typeof import('./health.routes')).healthRoutes(ctx),
});
