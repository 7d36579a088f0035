// What the rides route files share: the codes of a refused move, the per-user limits, the administrators' permission.

export const MOVE_CODES = ['RIDE_TRANSITION', 'RIDE_NOT_ALLOWED'] as const;
// Per-user limits of the writes that cost money or notify others (overridable by scope in RATE_LIMITS).
export const LIMITS = {
  book: { scope: 'rides-book', limit: 10, windowSec: 600, per: 'user' },
  cancel: { scope: 'rides-cancel', limit: 10, windowSec: 600, per: 'user' },
  sos: { scope: 'rides-sos', limit: 5, windowSec: 3_600, per: 'user' },
} as const;
export const MANAGE = 'rides.manage' as const;
