import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { ApiTag } from '../../platform/core/openapi/tags';
import type { ErrorCode } from '../../platform/core/errors/codes';
import { z } from 'zod';
import { iso } from '../../platform/kits/time/time';
import {
  AdminBookingsQuerySchema,
  BookedSchema,
  BookingEventSchema,
  BookingListSchema,
  BookingPaymentBodySchema,
  BookingSchema,
  CancelBookingBodySchema,
  MyBookingsQuerySchema,
  PartnerBookingsQuerySchema,
  RejectBookingBodySchema,
} from './bookings.schemas';
import { BOOKINGS_PERMISSION, bookingViewerOf as viewer } from './bookings.service';
import { bookingsServiceFor } from './bookings.wiring';
import { BOOKING_LIMITS } from './bookings.http';

// The routes every booking vertical shares: a consumer's bookings, a partner's queue and its moves, the
// administrators' list. Listed under each booking vertical's tag: hotels first, and each other vertical adds its tag
// to `alsoTags` as its bookings land (parking, rentals, medical and schools; home services have no tag of their own).
const BOOKING_TAGS = { tag: 'hotels', alsoTags: ['parking', 'rentals', 'medical', 'schools'] } as const satisfies {
  tag: ApiTag;
  alsoTags: readonly ApiTag[];
};

const MOVE_CODES: ErrorCode[] = ['BOOKING_NOT_FOUND', 'BOOKING_TRANSITION', 'BOOKING_NOT_ALLOWED', 'BOOKING_HOLD_EXPIRED', 'IDEMPOTENCY_KEY_REUSED'];
const PARTNERS = ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'] as const;

export function bookingsRoutes({ config }: AppContext): AnyRoute[] {
  const bookings = () => bookingsServiceFor(config);
  const partnerStep = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    run: (v: ReturnType<typeof viewer>, id: string, body: { reason?: string }) => Promise<z.infer<typeof BookingSchema>>,
    o: { body?: z.ZodType; codes?: ErrorCode[] } = {},
  ) =>
    defineRoute({
      method: 'post',
      path: `/bookings/:id/${path}`,
      operationId,
      ...BOOKING_TAGS,
      summary,
      description: `${description} By the booking’s partner (its owner or staff; another partner’s booking is 404) or an administrator with bookings.manage. A repeat of the same request (Idempotency-Key) answers the first; a move the booking’s status does not allow is 409 BOOKING_TRANSITION.`,
      auth: PARTNERS,
      permission: BOOKINGS_PERMISSION,
      idempotent: true,
      rateLimit: BOOKING_LIMITS.partner,
      errors: [404, 409],
      codes: [...MOVE_CODES, ...(o.codes ?? [])],
      request: { params: IdParamsSchema, ...(o.body ? { body: o.body } : {}) },
      response: { description: 'The booking after the move.', schema: BookingSchema },
      handler: ({ auth, params, body }) => run(viewer(auth!), params.id, (body ?? {}) as { reason?: string }),
    });

  return [
    defineRoute({
      method: 'get',
      path: '/bookings',
      operationId: 'listMyBookings',
      ...BOOKING_TAGS,
      summary: 'My bookings of every vertical, newest first',
      description:
        'Hotel stays, parking, rental viewings, medical appointments, school consultations and home services in one list; filter by `vertical` and `status`. A hold whose time ran out reads EXPIRED.',
      auth: [],
      hat: 'CON',
      request: { query: MyBookingsQuerySchema },
      response: { description: 'A page of bookings.', schema: BookingListSchema },
      handler: ({ auth, query }) => bookings().mine(viewer(auth!), query),
    }),
    defineRoute({
      method: 'get',
      path: '/bookings/partner',
      operationId: 'listPartnerBookings',
      ...BOOKING_TAGS,
      summary: 'A partner’s bookings, soonest start first (its queue)',
      description:
        'Its owner and staff (another partner’s: 404), or an administrator with bookings.manage. Narrow to one resource (`resourceId`: a room type, a doctor, a listing) or a vertical, and by status (`PENDING_PARTNER` for the requests to answer).',
      auth: PARTNERS,
      permission: BOOKINGS_PERMISSION,
      errors: [404],
      request: { query: PartnerBookingsQuerySchema },
      response: { description: 'A page of bookings.', schema: BookingListSchema },
      handler: ({ auth, query }) => bookings().partnerQueue(viewer(auth!), query),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/bookings',
      operationId: 'adminListBookings',
      ...BOOKING_TAGS,
      summary: 'Every booking, newest first (administrators with bookings.manage)',
      description: 'Filter by vertical, status, and one of consumerId or partnerId.',
      auth: ['ADMIN'],
      permission: BOOKINGS_PERMISSION,
      request: { query: AdminBookingsQuerySchema },
      response: { description: 'A page of bookings.', schema: BookingListSchema },
      handler: ({ auth, query }) => bookings().adminList(viewer(auth!), query),
    }),
    defineRoute({
      method: 'get',
      path: '/bookings/:id',
      operationId: 'getBooking',
      ...BOOKING_TAGS,
      summary: 'One booking (its consumer, its partner’s members, administrators with bookings.manage)',
      description: 'Anyone else gets 404 BOOKING_NOT_FOUND, as for an id that does not exist. An overdue hold reads EXPIRED.',
      auth: [],
      errors: [404],
      codes: ['BOOKING_NOT_FOUND'],
      request: { params: IdParamsSchema },
      response: { description: 'The booking.', schema: BookingSchema },
      handler: ({ auth, params }) => bookings().get(viewer(auth!), params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/bookings/:id/events',
      operationId: 'listBookingEvents',
      ...BOOKING_TAGS,
      summary: 'The booking’s history of moves, oldest first (its parties)',
      auth: [],
      errors: [404],
      codes: ['BOOKING_NOT_FOUND'],
      request: { params: IdParamsSchema },
      response: { description: 'Each move: action, from, to, who and when.', schema: z.array(BookingEventSchema) },
      handler: async ({ auth, params }) => (await bookings().history(viewer(auth!), params.id)).map((e) => ({ ...e, at: iso(e.at) })),
    }),
    defineRoute({
      method: 'post',
      path: '/bookings/:id/pay',
      operationId: 'payBooking',
      ...BOOKING_TAGS,
      summary: 'Pay a booking waiting for its payment (HELD)',
      description:
        'Its consumer, before `holdUntil`: WALLET secures it at once (409 WALLET_INSUFFICIENT_FUNDS leaves it HELD); GATEWAY answers `payment.paymentUrl` and secures it when the gateway says paid. A payment that arrives after the hold ran out, or for a booking paid already, is refunded in full. Idempotency-Key required: money moves.',
      auth: [],
      hat: 'CON',
      idempotent: 'required',
      rateLimit: BOOKING_LIMITS.book,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'WALLET_INSUFFICIENT_FUNDS'],
      request: { params: IdParamsSchema, body: BookingPaymentBodySchema },
      response: { description: 'The booking and the payment made for it.', schema: BookedSchema },
      handler: ({ auth, params, body, idempotencyKey, req }) => bookings().pay(viewer(auth!), params.id, { ...body, clientIp: req.ip }, idempotencyKey!),
    }),
    defineRoute({
      method: 'post',
      path: '/bookings/:id/cancel',
      operationId: 'cancelBooking',
      ...BOOKING_TAGS,
      summary: 'Cancel a booking: its consumer by the cancellation policy, its partner or an administrator free to the consumer',
      description:
        'Before the start: free until `policy.freeUntilHours` before it, then `policy.lateFeeBp` of the price is kept out of what was paid and the rest refunded (`cancellation.feeVnd`, `cancellation.refundVnd`). Once it has started its consumer can no longer cancel (409 BOOKING_STARTED). The capacity goes back at once. A repeat (Idempotency-Key) answers the cancelled booking.',
      auth: [],
      idempotent: true,
      rateLimit: BOOKING_LIMITS.cancel,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'BOOKING_STARTED'],
      request: { params: IdParamsSchema, body: CancelBookingBodySchema },
      response: { description: 'The CANCELLED booking.', schema: BookingSchema },
      handler: ({ auth, params, body }) => bookings().cancel(viewer(auth!), params.id, body.reason ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/admin/bookings/:id/cancel',
      operationId: 'adminCancelBooking',
      ...BOOKING_TAGS,
      summary: 'Administrator: cancel a booking at any point before its end, refunding all that was paid',
      description:
        'For disputes and mistakes (a check-in that never was): HELD to IN_PROGRESS → CANCELLED with the reason, everything paid refunded and nothing paid out; the capacity goes back. Not on a booking of your own or of a partner you belong to (403 BOOKING_SELF_MANAGE). A repeat (Idempotency-Key) answers the cancelled booking.',
      auth: ['ADMIN'],
      permission: BOOKINGS_PERMISSION,
      idempotent: true,
      rateLimit: BOOKING_LIMITS.partner,
      errors: [404, 409],
      codes: [...MOVE_CODES, 'BOOKING_SELF_MANAGE'],
      request: { params: IdParamsSchema, body: RejectBookingBodySchema },
      response: { description: 'The CANCELLED booking.', schema: BookingSchema },
      handler: ({ auth, params, body }) => bookings().adminCancel(viewer(auth!), params.id, body.reason),
    }),
    defineRoute({
      method: 'post',
      path: '/bookings/:id/agree',
      operationId: 'agreeToBookingProposal',
      ...BOOKING_TAGS,
      summary: 'Take the time a partner proposed (HELD, nothing to pay → CONFIRMED)',
      description:
        'When a partner answers a request with another time (`rejection.proposalId` on the request), the proposed booking waits HELD for its consumer until `holdUntil`: this confirms it. A proposal that ran out is EXPIRED (409 BOOKING_TRANSITION); one with something to pay is paid with POST /bookings/{id}/pay instead. Its consumer only (404 for anyone else).',
      auth: [],
      hat: 'CON',
      idempotent: true,
      rateLimit: BOOKING_LIMITS.cancel,
      errors: [404, 409],
      codes: [...MOVE_CODES],
      request: { params: IdParamsSchema },
      response: { description: 'The CONFIRMED booking.', schema: BookingSchema },
      handler: ({ auth, params }) => bookings().agree(viewer(auth!), params.id),
    }),
    partnerStep(
      'accept',
      'acceptBooking',
      'Partner: accept a booking waiting for you (PENDING_PARTNER → CONFIRMED)',
      'Before `answerBy`, else it expired and whatever was paid went back.',
      (v, id) => bookings().answer(v, id, { accepted: true }),
    ),
    partnerStep(
      'reject',
      'rejectBooking',
      'Partner: decline a booking waiting for you, with a reason (→ REJECTED)',
      'The consumer is told the reason; whatever was paid is refunded in full and the capacity goes back.',
      (v, id, body) => bookings().answer(v, id, { accepted: false, reason: body.reason! }),
      { body: RejectBookingBodySchema },
    ),
    partnerStep(
      'check-in',
      'checkInBooking',
      'Partner: the guest has arrived (CONFIRMED → CHECKED_IN: hotels, parking, medical)',
      'From the vertical’s lead before the start (a hotel from 12 hours before, parking from 30 minutes): earlier is 409 BOOKING_TOO_EARLY with `details.notBefore`. A vertical begun by `start` answers 409 BOOKING_TRANSITION.',
      (v, id) => bookings().begin(v, id, 'checkIn'),
      { codes: ['BOOKING_TOO_EARLY'] },
    ),
    partnerStep(
      'start',
      'startBooking',
      'Partner: the visit or service has begun (CONFIRMED → IN_PROGRESS: viewings, schools, home services)',
      'From the vertical’s lead before the start: earlier is 409 BOOKING_TOO_EARLY. A vertical begun by a check-in answers 409 BOOKING_TRANSITION.',
      (v, id) => bookings().begin(v, id, 'start'),
      { codes: ['BOOKING_TOO_EARLY'] },
    ),
    partnerStep(
      'complete',
      'completeBooking',
      'Partner: done (CHECKED_IN or IN_PROGRESS → COMPLETED)',
      'Units still ahead (an early check-out) go back to the inventory; the partner is paid what the consumer paid, less the platform’s commission. Not before the start (409 BOOKING_TOO_EARLY). A home service completes with its photos through POST /home-services/bookings/{id}/complete (here: 409 BOOKING_COMPLETE_WITH_DETAILS).',
      (v, id) => bookings().complete(v, id),
      { codes: ['BOOKING_TOO_EARLY', 'BOOKING_COMPLETE_WITH_DETAILS'] },
    ),
    partnerStep(
      'no-show',
      'markBookingNoShow',
      'Partner: the guest never came (CONFIRMED → NO_SHOW)',
      'From the vertical’s wait after the start (a hotel the next day, an appointment 30 minutes): earlier is 409 BOOKING_TOO_EARLY. What was paid is kept (the partner is paid it, less the commission); the capacity goes back.',
      (v, id) => bookings().noShow(v, id),
      { codes: ['BOOKING_TOO_EARLY'] },
    ),
  ];
}
