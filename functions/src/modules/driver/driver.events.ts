import { defineEvents } from '../notifications';

// The driver module's rows of the hub's event table: the driver's position as telemetry (realtime only, never stored
// in the inbox nor pushed), from the driver's location updates: to the rider of the current ride (`ride:location`),
// and to the customer of the current job while the job is shared with them (`courier:location`, entity: the job).
export const DRIVER_EVENTS = defineEvents([
  {
    pattern: 'ride:location',
    kind: null,
    recipients: ['CON', 'DRV'],
    push: 'never',
    realtime: 'ride:location',
    sfx: null,
    androidChannel: null,
    preference: null,
    deepLink: {},
    appLink: 'rides',
    collapse: false,
    ttlSec: 0,
    telemetry: true,
  },
  {
    pattern: 'courier:location',
    kind: null,
    recipients: ['CON'],
    push: 'never',
    realtime: 'courier:location',
    sfx: null,
    androidChannel: null,
    preference: null,
    deepLink: {},
    appLink: null,
    collapse: false,
    ttlSec: 0,
    telemetry: true,
  },
]);
