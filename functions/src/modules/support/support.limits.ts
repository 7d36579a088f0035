// The module's named rate-limit scopes: a ticket and a message reach staff (and cost their time).
export const SUPPORT_RATE_LIMITS = {
  open: { scope: 'support-open', limit: 10, windowSec: 3600, per: 'user' },
  message: { scope: 'support-message', limit: 60, windowSec: 3600, per: 'user' },
  /** The owner's moves and rating (each arms tasks and reaches staff's queue). */
  move: { scope: 'support-move', limit: 30, windowSec: 3600, per: 'user' },
} as const;
