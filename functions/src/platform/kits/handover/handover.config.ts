import { positiveInt } from '../../core/config/switches';

// The handover kit's switch: how near the place a courier must be (`proveHandover`'s and `courierPresence`'s radius),
// the same for every module that checks a handover's place. Declared here, installed with the driver module's switches (whose positions it checks).
export const handoverSwitchSpecs = {
  HANDOVER_PHOTO_RADIUS_M: {
    schema: positiveInt(300, 5_000, 50),
    effect:
      "a photo proves a handover (an order's delivery, a parcel's pickup or drop-off) only while the courier's last known position is within this many metres of the place; a store's hand-over of an order is refused while the courier's recent position is farther than this from the store",
  },
} as const;
