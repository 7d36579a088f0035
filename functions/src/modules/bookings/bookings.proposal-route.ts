import { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import type { ErrorCode } from '../../platform/core/errors/codes';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { ApiTag } from '../../platform/core/openapi/tags';
import { BOOKING_LIMITS } from './bookings.http';
import { BookingSchema, type BookingView } from './bookings.schemas';

// The route of a vertical booked in slots whose partner may answer a request with another time (a viewing, an
// appointment): the vertical works out the slot, the engine does the rest (bookings.engine's `propose`).

export const ProposalSchema = z
  .object({
    rejected: BookingSchema.describe('The request, REJECTED with `rejection.proposalId`'),
    proposed: BookingSchema.describe('The booking at the proposed time, HELD for its consumer to agree to'),
  })
  .meta({ id: 'BookingProposal' });

export const ProposalBodySchema = z
  .object({
    startsAt: z.iso.datetime({ offset: true }).describe('On the slots’ grid within the opening hours'),
    note: z.string().trim().max(500).optional().describe('For the consumer'),
  })
  .meta({ id: 'BookingProposalBody' });

export function proposalRoute(o: {
  path: string;
  operationId: string;
  tag: ApiTag;
  summary: string;
  /** Who answers, and the code of a time outside the hours. */
  who: string;
  closedCode: ErrorCode;
  run(auth: AuthContext, bookingId: string, body: z.output<typeof ProposalBodySchema>): Promise<{ rejected: BookingView; proposed: BookingView }>;
}): AnyRoute {
  return defineRoute({
    method: 'post',
    path: o.path,
    operationId: o.operationId,
    tag: o.tag,
    summary: o.summary,
    description: `For a request waiting for an answer (PENDING_PARTNER): it is REJECTED with the proposal, and a booking at the new slot is held for its consumer (until the answer window runs out, never past its start), who agrees with POST /bookings/{id}/agree or lets it expire. The new slot must be free (409 BOOKING_UNAVAILABLE), within the opening hours (422 ${o.closedCode}) and another time than the one asked (422 BOOKING_SAME_TIME). ${o.who}, or an administrator with bookings.manage; anyone else 404.`,
    auth: ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'],
    permission: 'bookings.manage',
    idempotent: true,
    rateLimit: BOOKING_LIMITS.partner,
    errors: [404, 409, 422],
    codes: ['BOOKING_NOT_FOUND', 'BOOKING_TRANSITION', 'BOOKING_UNAVAILABLE', 'BOOKING_SAME_TIME', o.closedCode],
    request: { params: IdParamsSchema, body: ProposalBodySchema },
    response: { description: 'The request as rejected and the booking proposed instead.', schema: ProposalSchema },
    handler: ({ params, body, auth }) => o.run(auth!, params.id, body),
  });
}
