import type { DeliveryService } from './delivery.service';

// What the delivery route files share: how they reach the service, the codes of a refused move, the per-user limits.

/** The service the routes call (the wiring's; tests pass one built on doubles). */
export type DeliveryServiceOf = () => DeliveryService;

export const MOVE_CODES = ['DELIVERY_TRANSITION', 'DELIVERY_NOT_ALLOWED'] as const;
export const MANAGE = 'delivery.manage' as const;
export const TAG = 'orders' as const;
// Per-user limits of the writes that cost money or notify others (overridable by scope in RATE_LIMITS).
export const LIMITS = {
  quote: { scope: 'delivery-quote', limit: 60, windowSec: 60, per: 'user' },
  place: { scope: 'delivery-place', limit: 10, windowSec: 600, per: 'user' },
  cancel: { scope: 'delivery-cancel', limit: 10, windowSec: 600, per: 'user' },
  handover: { scope: 'delivery-handover', limit: 30, windowSec: 600, per: 'user' },
  giveUp: { scope: 'delivery-give-up', limit: 10, windowSec: 3_600, per: 'user' },
} as const;
