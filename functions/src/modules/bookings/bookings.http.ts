import type { Role } from '../../platform/core/auth/roles';
import type { ErrorCode } from '../../platform/core/errors/codes';

// Per-user limits of the booking commands (overridable by scope in RATE_LIMITS), shared by the verticals' own routes.
export const BOOKING_LIMITS = {
  book: { scope: 'bookings-create', limit: 20, windowSec: 600, per: 'user' },
  cancel: { scope: 'bookings-cancel', limit: 20, windowSec: 600, per: 'user' },
  partner: { scope: 'bookings-partner', limit: 300, windowSec: 600, per: 'user' },
} as const;

/** The engine's refusals of any new booking (taken, too many waiting, the partner's own people, a key reused). */
const BOOKING_REQUEST_CODES = ['BOOKING_UNAVAILABLE', 'BOOKING_TOO_MANY_HOLDS', 'BOOKING_OWN_RESOURCE', 'IDEMPOTENCY_KEY_REUSED'] as const;

/**
 * What every vertical's route asking for a new booking shares: a consumer's (CON), Idempotency-Key required and read
 * beside (the handler hands `{ claimed }` on to bookings' `book`), the booking limit, and the engine's refusals beside
 * the vertical's own `codes`.
 */
export function bookingRequest(codes: ErrorCode[]) {
  return {
    auth: [] as Role[],
    hat: 'CON' as const,
    idempotent: 'required' as const,
    // The vertical's catalog reads overlap the key's claim and the booking limit's verdict; bookings' `book` awaits
    // `claimed` (both) before the hold. A replay, a refused key or a request over the limit costs those few reads.
    claimBeside: true,
    rateLimit: BOOKING_LIMITS.book,
    errors: [403, 404, 409, 422],
    codes: [...BOOKING_REQUEST_CODES, ...codes],
  };
}
