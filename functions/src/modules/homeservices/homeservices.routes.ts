import { z } from 'zod';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { BOOKING_LIMITS, bookingRequest, BookedSchema, BookingSchema } from '../bookings';
import { providers } from './homeservices.catalog';
import { CompletionBodySchema, createHomeServiceBookings, MAX_COMPLETION_PHOTOS, VISIT_POLICY, VISIT_RULES, VisitBodySchema } from './homeservices.bookings';

// The providers' catalog routes (providers and their services, listed under the places tag: they are found around
// an address on the map tab), a day's hours with teams left, booking a visit, assigning the technician and completing
// it with photos (its other moves are the shared /bookings routes).

const AvailabilitySchema = z
  .object({
    providerId: z.string(),
    date: z.string().meta({ format: 'date' }),
    teams: z.number().int().describe('Visits the provider takes at once'),
    hours: z.array(z.object({ startsAt: IsoTimeSchema, teamsLeft: z.number().int() })),
  })
  .meta({ id: 'HomeServiceAvailability' });
const AssignBodySchema = z
  .object({
    userId: DocumentIdSchema.describe('One of the provider’s people (its owner or staff)'),
    name: z.string().trim().min(1).max(80).optional().describe('The name the customer reads ("Anh Tuấn")'),
  })
  .meta({ id: 'HomeServiceAssignBody' });
const PROVIDER_PEOPLE = ['PARTNER_OWNER', 'PARTNER_STAFF'] as const;

export function homeservicesRoutes(ctx: AppContext): AnyRoute[] {
  const visits = createHomeServiceBookings(ctx.config);
  return [
    ...providers.routes(ctx),
    defineRoute({
      method: 'get',
      path: '/home-services/providers/:id/availability',
      operationId: 'getHomeServiceAvailability',
      tag: 'places',
      summary: 'A provider’s hours of one day a visit may start in, with its teams left',
      description:
        'Whole hours within the provider’s working hours (07:00–20:00 every day, Vietnam time, when it sets none), from now on; a visit of several hours needs a team in each.',
      auth: [],
      rateLimit: { scope: 'home-services-availability', limit: 120, windowSec: 600, per: 'user' },
      errors: [404],
      request: { params: IdParamsSchema, query: z.object({ date: CalendarDateSchema.describe('Local day, YYYY-MM-DD') }) },
      response: { description: 'The day’s hours.', schema: AvailabilitySchema },
      handler: ({ params, query }) => visits.availability(params.id, query.date),
    }),
    defineRoute({
      method: 'post',
      path: '/home-services/bookings',
      operationId: 'bookHomeService',
      tag: 'places',
      summary: 'Book a home service at your address for a window of whole hours, with a deposit',
      description: `Priced at the service’s hourly rate × hours (within its minHours–maxHours: else 422 HOME_SERVICE_HOURS), at an address within the provider’s coverage (422 HOME_SERVICE_OUT_OF_AREA) and working hours (422 HOME_SERVICE_CLOSED), starting within ${VISIT_RULES.maxDaysAhead} days. A 30% deposit secures it (WALLET at once, GATEWAY by \`payment.paymentUrl\`): then the provider accepts (POST /bookings/{id}/accept), rejects (the deposit refunded) or lets it expire; assigns a technician (POST /home-services/bookings/{id}/assign), starts (POST /bookings/{id}/start) and completes it with photos (POST /home-services/bookings/{id}/complete). The rest is paid at the door. Cancelled free until ${VISIT_POLICY.freeUntilHours} h before, then the deposit is kept. \`booking.homeservice.created\` to you and the provider. No team left in an hour: 409 BOOKING_UNAVAILABLE. Idempotency-Key required.`,
      ...bookingRequest(['HOME_SERVICE_NOT_FOUND', 'HOME_SERVICE_OUT_OF_AREA', 'HOME_SERVICE_CLOSED', 'HOME_SERVICE_HOURS', 'WALLET_INSUFFICIENT_FUNDS']),
      request: { body: VisitBodySchema },
      response: { status: 201, description: 'The booking and its deposit payment.', schema: BookedSchema },
      handler: ({ body, auth, idempotencyKey, req, claimed, answerInCommit }) =>
        visits.book(auth!, body, req.ip, idempotencyKey!, { claimed: claimed!, answerInCommit }),
    }),
    defineRoute({
      method: 'post',
      path: '/home-services/bookings/:id/assign',
      operationId: 'assignHomeServiceTechnician',
      tag: 'places',
      summary: 'Provider: name the technician who goes (again to change them)',
      description:
        'While the booking is live (waiting for the answer, confirmed or in progress; else 409 BOOKING_TRANSITION); one of the provider’s people (else 422 BOOKING_ASSIGNEE_NOT_MEMBER). The customer reads the name given, never the account. The provider’s owner and staff; anyone else 404.',
      auth: [...PROVIDER_PEOPLE],
      rateLimit: BOOKING_LIMITS.partner,
      errors: [404, 409, 422],
      codes: ['BOOKING_NOT_FOUND', 'BOOKING_TRANSITION', 'BOOKING_ASSIGNEE_NOT_MEMBER', 'BOOKING_NOT_ASSIGNABLE'],
      request: { params: IdParamsSchema, body: AssignBodySchema },
      response: { description: 'The booking with its assignee.', schema: BookingSchema },
      handler: ({ auth, params, body }) => visits.assign(auth!, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/home-services/bookings/:id/complete',
      operationId: 'completeHomeService',
      tag: 'places',
      summary: 'Provider: the visit is done, with photos of the work',
      description: `IN_PROGRESS → COMPLETED, not before its start (409 BOOKING_TOO_EARLY), with 1–${MAX_COMPLETION_PHOTOS} photos: the caller’s own READY image uploads (POST /upload/image; else 422 HOME_SERVICE_PHOTO_INVALID), kept on the booking (\`details.completionPhotos\`) for the customer. The provider is paid the deposit less the platform’s commission. The provider’s owner and staff; anyone else 404.`,
      auth: [...PROVIDER_PEOPLE],
      idempotent: true,
      rateLimit: BOOKING_LIMITS.partner,
      errors: [404, 409, 422],
      codes: ['BOOKING_NOT_FOUND', 'BOOKING_TRANSITION', 'BOOKING_TOO_EARLY', 'HOME_SERVICE_PHOTO_INVALID'],
      request: { params: IdParamsSchema, body: CompletionBodySchema },
      response: { description: 'The COMPLETED booking.', schema: BookingSchema },
      handler: ({ auth, params, body }) => visits.complete(auth!, params.id, body),
    }),
  ];
}
