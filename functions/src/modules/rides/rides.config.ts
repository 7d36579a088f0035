import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The rides module's switches: dispatch, fares and fees, the geofences and timeouts of a trip, the wallet hold and disputes.
export const ridesSwitches = defineSwitches({
  RIDE_SEARCH_RADIUS_M: { schema: positiveInt(3_000, 20_000, 200), effect: 'first search radius for a driver (then twice it, once)' },
  RIDE_COMMISSION_BP: { schema: positiveInt(2_000, 5_000, 0), effect: "the platform's share of a fare, in basis points (2000: 20 %)" },
  RIDE_CANCEL_FEE_VND: {
    schema: positiveInt(10_000, 200_000, 0),
    effect: "fee of a rider's cancellation once the driver waited at the pickup (`RIDE_CANCEL_WAIT_SEC`)",
  },
  RIDE_CANCEL_GRACE_SEC: { schema: positiveInt(120, 3_600, 0), effect: 'a cancellation within this long after booking does not count toward surge' },
  RIDE_CANCEL_WAIT_SEC: {
    schema: positiveInt(120, 3_600, 0),
    effect:
      "how long the driver must have waited at the pickup (after a geofenced `arrived`) before a rider's cancellation pays the fee, or the driver may declare a no-show (`POST /rides/{id}/no-show`)",
  },
  RIDE_ARRIVED_TIMEOUT_SEC: {
    schema: positiveInt(1_200, 4 * 3_600, 60),
    effect: "an ARRIVED ride nobody boards ends EXPIRED after this, with the rider's late-cancel fee for the driver who waited",
  },
  RIDE_TRIP_TIMEOUT_FACTOR: {
    schema: positiveInt(3, 20, 1),
    effect:
      "an IN_PROGRESS ride is COMPLETED by the system after max(this × the quoted duration, `RIDE_TRIP_TIMEOUT_MIN_SEC`) since pickup, priced on the distance driven (at most the quoted duration's time, at most the cap)",
  },
  RIDE_TRIP_TIMEOUT_MIN_SEC: { schema: positiveInt(1_800, 12 * 3_600, 60), effect: 'the floor of that trip timeout' },
  RIDE_ARRIVE_RADIUS_M: { schema: positiveInt(200, 5_000, 10), effect: "`arrived` only this close to the pickup, by the driver's last fresh position" },
  RIDE_COMPLETE_RADIUS_M: {
    schema: positiveInt(500, 20_000, 10),
    effect: '`complete` only this close to the drop-off (fresh position), or after driving `RIDE_COMPLETE_MIN_DRIVEN_BP` of the quoted distance',
  },
  RIDE_COMPLETE_MIN_DRIVEN_BP: {
    schema: positiveInt(5_000, 10_000, 0),
    effect: 'share of the quoted distance (basis points: 5000 is 50 %) after which `complete` is allowed away from the drop-off',
  },
  RIDE_POSITION_FRESH_SEC: {
    schema: positiveInt(120, 3_600, 5),
    effect:
      'a driver position counts for the geofences only if reported within this long AND within this long of the report before it (the first position after a gap is confirmed by the next; else 409 `RIDE_POSITION_STALE`)',
  },
  RIDE_HOLD_EXPIRY_SEC: {
    schema: positiveInt(900, 24 * 3_600, 60),
    effect:
      "a booking's wallet hold is checked this long after it was placed (never earlier): released when no ride took it, or the ride holds another payment",
  },
  RIDE_DISPUTE_WINDOW_DAYS: {
    schema: positiveInt(7, 90, 1),
    effect: 'a rider may dispute a completed ride, or a cancellation that charged a fee, this long after it ended',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof ridesSwitches> {}
}
