import type { AppConfig } from '../../platform/core/config';
import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The booking engine's switches: how long capacity is held, how long a partner may take to answer, how many holds one
// consumer may have open at once, and the platform's commission on what a partner is paid.
export const bookingsSwitches = defineSwitches({
  BOOKING_HOLD_MINUTES: {
    schema: positiveInt(10, 60, 1),
    effect: 'a new booking holds its capacity this long for its payment; unpaid by then it is EXPIRED and the capacity goes back',
  },
  BOOKING_ANSWER_HOURS: {
    schema: positiveInt(24, 168, 1),
    effect: 'a booking waiting for its partner (PENDING_PARTNER) expires after this many hours without an answer (never later than its start)',
  },
  BOOKINGS_MAX_LIVE_HOLDS: {
    schema: positiveInt(5, 50, 1),
    effect: 'bookings one consumer may have waiting at once (HELD for payment, or PENDING_PARTNER): another past it is refused (409 BOOKING_TOO_MANY_HOLDS)',
  },
  BOOKING_COMMISSION_BP: {
    schema: positiveInt(1_000, 5_000, 0),
    effect: "the platform's commission on what a booking's partner is paid (a stay, a cancellation fee), in basis points",
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof bookingsSwitches> {}
}

export interface BookingSettings {
  holdMinutes: number;
  answerHours: number;
  maxLiveHolds: number;
  commissionBp: number;
}

export function bookingSettings(config: Readonly<AppConfig>): BookingSettings {
  return {
    holdMinutes: config.BOOKING_HOLD_MINUTES,
    answerHours: config.BOOKING_ANSWER_HOURS,
    maxLiveHolds: config.BOOKINGS_MAX_LIVE_HOLDS,
    commissionBp: config.BOOKING_COMMISSION_BP,
  };
}
