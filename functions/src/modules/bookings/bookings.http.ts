// Per-user limits of the booking commands (overridable by scope in RATE_LIMITS), shared by the verticals' own routes.
export const BOOKING_LIMITS = {
  book: { scope: 'bookings-create', limit: 20, windowSec: 600, per: 'user' },
  cancel: { scope: 'bookings-cancel', limit: 20, windowSec: 600, per: 'user' },
  partner: { scope: 'bookings-partner', limit: 300, windowSec: 600, per: 'user' },
} as const;
