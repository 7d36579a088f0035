import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The booking engine's error codes (code: [the status it comes with, what it means]).
export const BOOKINGS_ERROR_CODES = defineErrorCodes({
  BOOKING_NOT_FOUND: [404, 'No such booking of yours (another user’s or partner’s booking answers the same).'],
  BOOKING_TRANSITION: [409, 'The booking is not in a status that allows this (`details.status`, `details.allowed`), e.g. confirming an EXPIRED one.'],
  BOOKING_NOT_ALLOWED: [409, 'The caller may not make this move on the booking (a consumer confirming, a partner cancelling for the guest…).'],
  BOOKING_UNAVAILABLE: [409, 'Not enough capacity left for a unit of the booking: `details.unit`, `details.available`, `details.requested`.'],
  BOOKING_TOO_EARLY: [409, 'Too early for this move (a check-in days ahead, a no-show within an hour of the start): `details.notBefore`.'],
  BOOKING_HOLD_EXPIRED: [409, 'The booking’s hold is no longer in the inventory (nothing was changed): book again.'],
  BOOKING_TOO_MANY_HOLDS: [
    409,
    'The consumer has BOOKINGS_MAX_LIVE_HOLDS bookings waiting for payment or for a partner’s answer (`details.max`): pay, or cancel one first.',
  ],
  BOOKING_PAYMENT_REQUIRED: [400, 'The booking is paid ahead (PREPAY or DEPOSIT): send `payment.method`.'],
  BOOKING_OWN_RESOURCE: [403, 'The caller is an owner or staff member of the partner whose resource it is: its people do not book it.'],
  BOOKING_SELF_MANAGE: [403, 'Administrators do not step in on a booking they made or whose partner they belong to; another administrator does.'],
  BOOKING_SAME_TIME: [422, 'A proposal names another time than the one the booking asked for.'],
  BOOKING_NOT_ASSIGNABLE: [409, 'The booking’s vertical is not assigned to a staff member (a doctor’s appointment is the doctor’s from the start).'],
  BOOKING_ASSIGNEE_NOT_MEMBER: [422, 'The person named to serve the booking is not an owner or staff member of its partner: `details.field`.'],
  BOOKING_COMPLETE_WITH_DETAILS: [
    409,
    'This vertical’s bookings complete through its own operation with its details (a home service’s photos): `details.path`.',
  ],
  BOOKING_STARTED: [409, 'The booking has started: its consumer can no longer cancel it (its partner or an administrator can).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof BOOKINGS_ERROR_CODES> {}
}
