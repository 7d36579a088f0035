import { defineEvents } from '../notifications';

// The driver module's row of the hub's event table: the driver's position, sent to the rider of the current ride
// as telemetry (realtime only, never stored in the inbox nor pushed), from the driver's location updates.
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
]);
