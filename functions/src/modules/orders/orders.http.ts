// What the orders route files share: the codes of a refused move and the per-user limits.

export const MOVE_CODES = ['ORDER_TRANSITION', 'ORDER_NOT_ALLOWED'] as const;
// Per-user limits of the writes that cost money or notify others (overridable by scope in RATE_LIMITS).
export const LIMITS = {
  cancel: { scope: 'orders-cancel', limit: 10, windowSec: 600, per: 'user' },
  deliver: { scope: 'orders-deliver', limit: 30, windowSec: 600, per: 'user' },
  rate: { scope: 'orders-rate', limit: 20, windowSec: 3_600, per: 'user' },
  chat: { scope: 'orders-chat', limit: 30, windowSec: 600, per: 'user' },
  store: { scope: 'orders-store', limit: 300, windowSec: 600, per: 'user' },
  giveUp: { scope: 'orders-give-up', limit: 10, windowSec: 3_600, per: 'user' },
} as const;
export const MANAGE = 'orders.manage' as const;
