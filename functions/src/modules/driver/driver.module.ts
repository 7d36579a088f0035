import { defineModule } from '../../platform/core/module/module';
import { DRIVER_ERROR_CODES } from './driver.errors';
import { DRIVER_EVENTS } from './driver.events';
import { DRIVER_JOB_GIVE_UPS, DRIVER_LOCATIONS, DRIVER_PROFILES } from './driver.collections';
import { driverSwitches } from './driver.config';

export const driverModule = defineModule({
  name: 'driver',
  uses: ['auth', 'kyc', 'notifications', 'routing', 'users'],
  apiTags: { driver: 'Driver registration, applications, capabilities (RIDE, COURIER, DELIVERY, SCHOOL_TRIP), status and location.' },
  config: driverSwitches,
  seed: { load: () => (require('./driver.seed') as typeof import('./driver.seed')).seedDrivers },
  commands: {
    'backfill-capabilities': {
      describe: 'approved drivers without capabilities get RIDE, COURIER, DELIVERY',
      load: () => (require('./driver.commands') as typeof import('./driver.commands')).backfillCapabilities,
    },
    'drop-retired-cooldowns': {
      describe: 'removes jobCooldownUntil, retired to driver_job_give_ups, from driver location documents',
      load: () => (require('./driver.commands') as typeof import('./driver.commands')).dropCooldowns,
    },
  },
  errorCodes: DRIVER_ERROR_CODES,
  events: DRIVER_EVENTS.rows,
  routes: (ctx) => (require('./driver.routes') as typeof import('./driver.routes')).driverRoutes(ctx),
  triggers: {
    // A locked or de-roled driver leaves the pool at once (see driver.triggers).
    driverAccountChanged: {
      document: 'users/{userId}',
      on: 'updated',
      load: () => (require('./driver.triggers') as typeof import('./driver.triggers')).onAccountUpdated,
    },
  },
  collections: [
    { name: DRIVER_PROFILES },
    { name: DRIVER_JOB_GIVE_UPS },
    {
      name: DRIVER_LOCATIONS,
      clientAccess: true,
      listened: {
        name: 'DriverLocationDocument',
        path: `${DRIVER_LOCATIONS}/{driverId}`,
        readers:
          "the driver (the document id is the caller), the rider of the driver's current ride (`riderId` is the caller) and the customer of the driver's current job while it is shared with them (`sharedWithId` is the caller)",
        schema: () => (require('./driver.model') as typeof import('./driver.model')).driverLocationDocument(),
      },
    },
  ],
});
