import { defineEvents, HOUR, link, type EventPolicy, type Surface } from '../notifications';

// The schools module's rows of the hub's event table: school trips (the spec names no events for them; these are the
// module's own, like a ride's): inbox RIDE, channel app-rides, the parent's MapTab SchoolTrips screen and the driver's
// TripTab SchoolRun screen.
const CON = link('MapTab', 'SchoolTrips');
const DRV = link('TripTab', 'SchoolRun');
const trip = (pattern: string, recipients: readonly Surface[], sfx = 'notif_ride'): EventPolicy => ({
  pattern,
  kind: 'RIDE',
  recipients,
  push: 'allowed',
  realtime: null,
  sfx,
  androidChannel: 'app-rides',
  preference: 'ride',
  deepLink: Object.fromEntries(recipients.map((s) => [s, s === 'DRV' ? DRV : CON])),
  appLink: null,
  collapse: true,
  ttlSec: 6 * HOUR,
});

export const SCHOOL_EVENTS = defineEvents([
  // A plan near a free SCHOOL_TRIP driver seeks one.
  trip('school.trip.offered', ['DRV']),
  trip('school.trip.matched', ['CON'], 'ride_driver_assigned'),
  trip('school.trip.driverLeft', ['CON']),
  trip('school.trip.planCancelled', ['DRV']),
  trip('school.trip.started', ['CON'], 'ride_driver_assigned'),
  trip('school.trip.pickedUp', ['CON'], 'ride_trip_started'),
  trip('school.trip.droppedOff', ['CON'], 'ride_trip_completed'),
  trip('school.trip.skipped', ['DRV']),
  trip('school.trip.cancelled', ['CON']),
  // Its timer: not set off within an hour of the pick-up (missed), or not closed within four.
  trip('school.trip.expired', ['CON', 'DRV']),
]);
