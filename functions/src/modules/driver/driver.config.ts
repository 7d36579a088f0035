import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The driver module's switch: the plausible speed between two positions (position reports, the distance a trip drove).
export const driverSwitches = defineSwitches({
  DRIVER_MAX_SPEED_KMH: {
    schema: positiveInt(200, 2_000, 10),
    effect:
      "a driver position farther from the last one than this speed (plus 100 m of GPS jitter) explains is refused (422 `DRIVER_POSITION_JUMP`); a trip's distance driven never exceeds this speed × the time since pickup (+ 100 m once)",
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof driverSwitches> {}
}
