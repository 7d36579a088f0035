import { defineModule } from '../../platform/module/module';
import { DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.model';

export const driverModule = defineModule({
  name: 'driver',
  routes: (ctx) => (require('./driver.routes') as typeof import('./driver.routes')).driverRoutes(ctx),
  collections: [{ name: DRIVER_PROFILES }, { name: DRIVER_LOCATIONS, clientAccess: true }],
});
