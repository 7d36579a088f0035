import { defineEvents, HOUR, link, type DeepLinkTarget, type EventPolicy, type Surface } from '../notifications';

// The rides module's rows of the hub's event table (spec: Events → Event matrix; moved here from spec-events).
const ride = (pattern: string, recipients: readonly Surface[], sfx: string, con: DeepLinkTarget, drv?: DeepLinkTarget): EventPolicy => ({
  pattern,
  kind: 'RIDE',
  recipients,
  push: 'allowed',
  realtime: 'ride:status',
  sfx,
  androidChannel: 'app-rides',
  preference: 'ride',
  deepLink: drv ? { CON: con, DRV: drv } : { CON: con },
  appLink: 'rides',
  collapse: true,
  ttlSec: HOUR,
});

export const RIDE_EVENTS = defineEvents([
  ride('ride.matched', ['CON', 'DRV'], 'ride_driver_assigned', link('MapTab', 'RideDetail'), link('TripTab', 'InTrip')),
  ride('ride.arrived', ['CON'], 'ride_driver_assigned', link('MapTab', 'RideDetail')),
  ride('ride.pickup', ['CON'], 'ride_trip_started', link('MapTab', 'RideDetail')),
  ride('ride.completed', ['CON', 'DRV'], 'ride_trip_completed', link('MapTab', 'RideDetail'), link('TripTab', 'TripHistory')),
  ride('ride.cancelled', ['CON', 'DRV'], 'notif_ride', link('MapTab', 'RideDetail'), link('TripTab', 'TripHistory')),
  // Not in the spec's matrix: an emergency alert in a ride, to every administrator (SYSTEM inbox, always pushed).
  {
    pattern: 'ride.sos',
    kind: 'SYSTEM',
    recipients: ['CON'],
    push: 'always',
    realtime: null,
    sfx: 'notif_urgent',
    androidChannel: 'app-rides',
    preference: null,
    deepLink: { CON: link('AdminTab', 'RideSos') },
    appLink: 'rides',
    collapse: false,
    ttlSec: 24 * HOUR,
  },
]);
