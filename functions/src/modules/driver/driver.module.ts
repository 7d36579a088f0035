import { defineModule } from '../../platform/module/module';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.model';

export const driverModule = defineModule({
  name: 'driver',
  routes: (ctx) => (require('./driver.routes') as typeof import('./driver.routes')).driverRoutes(ctx),
  triggers: {
    // A locked or de-roled driver leaves the pool at once (see driver.triggers).
    driverAccountChanged: {
      document: 'users/{userId}',
      on: 'updated',
      load: () => (require('./driver.triggers') as typeof import('./driver.triggers')).onAccountUpdated,
    },
  },
  collections: [{ name: DRIVER_PROFILES }, { name: DRIVER_LOCATIONS, clientAccess: true }],
});
