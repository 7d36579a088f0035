import { positiveInt } from '../../core/config/switches';

// The handover kit's switch: a photo proof's place check (`proveHandover`'s radius), the same for every module that
// proves a handover by photo. Declared here, installed with the driver module's switches (whose positions it checks).
export const handoverSwitchSpecs = {
  HANDOVER_PHOTO_RADIUS_M: {
    schema: positiveInt(300, 5_000, 50),
    effect:
      "a photo proves a handover (an order's delivery, a parcel's pickup or drop-off) only while the courier's last known position is within this many metres of the place",
  },
} as const;
