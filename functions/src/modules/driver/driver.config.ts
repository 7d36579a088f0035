import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';
import { handoverSwitchSpecs } from '../../platform/kits/handover/handover.config';

// The driver module's switches: the plausible speed between two positions (position reports, the distance a trip
// drove), the cost of giving a job up, and the handover kit's photo radius (the kit checks the driver's positions).
export const driverSwitches = defineSwitches({
  DRIVER_MAX_SPEED_KMH: {
    schema: positiveInt(200, 2_000, 10),
    effect:
      "a driver position farther from the last one than this speed (plus 100 m of GPS jitter) explains is refused (422 `DRIVER_POSITION_JUMP`); a trip's distance driven never exceeds this speed × the time since pickup (+ 100 m once)",
  },
  JOB_GIVE_UP_COOLDOWN_MIN: {
    schema: positiveInt(10, 240, 0),
    effect:
      'a driver who gives up an order or a parcel before pickup is offered no job (order or parcel) for this many minutes (0: at once); each give-up is counted for operators (`GET /orders/admin/couriers/{id}/give-ups`)',
  },
  ...handoverSwitchSpecs,
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof driverSwitches> {}
}
