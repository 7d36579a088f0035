import { z } from 'zod';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { bookingRequest, BookingSchema, proposalRoute } from '../bookings';
import { schools } from './schools.catalog';
import { ConsultationBodySchema, CONSULTATION_RULES, createSchoolConsultations } from './schools.consultations';
import { createSchoolFollowUps, FOLLOW_UP_ACTIONS, FOLLOW_UP_STATUSES, FollowUpFieldsSchema, FollowUpSchema } from './schools.follow-ups';

// The schools' catalog routes (schools and their programs), consultations (a day's slots, asking for one, the school
// proposing another time: its other answers are the shared /bookings moves) and the school's follow-ups of families.

const SlotsSchema = z
  .object({
    schoolId: z.string(),
    date: z.string().meta({ format: 'date' }),
    minutes: z.number().int().describe('The school’s consultation length'),
    desks: z.number().int().describe('Families one slot takes at once'),
    slots: z.array(z.object({ startsAt: IsoTimeSchema, free: z.boolean() })),
  })
  .meta({ id: 'SchoolConsultationSlots' });
const FollowUpPageSchema = z.object({ items: z.array(FollowUpSchema), nextCursor: z.string().nullable() }).meta({ id: 'SchoolFollowUpPage' });
const FollowUpWithHistorySchema = FollowUpSchema.extend({
  history: z.array(z.object({ action: z.string(), from: z.string(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() })),
}).meta({ id: 'SchoolFollowUpWithHistory' });
const FollowUpMoveSchema = z
  .object({
    action: z.enum(FOLLOW_UP_ACTIONS).describe('trial: a trial class booked; apply: the family applied; enrol; decline; reopen a declined one'),
    note: z.string().trim().min(1).max(2_000).optional(),
  })
  .meta({ id: 'SchoolFollowUpMove' });
const SCHOOL_STAFF = ['PARTNER_OWNER', 'PARTNER_STAFF'] as const;
const FOLLOW_UP_LIMIT = { scope: 'schools-follow-ups', limit: 300, windowSec: 600, per: 'user' } as const;

export function schoolsRoutes(ctx: AppContext): AnyRoute[] {
  const consultations = createSchoolConsultations(ctx.config);
  const followUps = createSchoolFollowUps(ctx.config);
  return [
    ...schools.routes(ctx),
    defineRoute({
      method: 'get',
      path: '/schools/:id/consultation-slots',
      operationId: 'listSchoolConsultationSlots',
      tag: 'schools',
      summary: 'A school’s consultation slots of one day, free or full',
      description:
        'Slots of the school’s consultation length (30 minutes unless it sets another) within its opening hours (08:00–17:00, Monday to Saturday, Vietnam time, when it sets none), from now on. A slot is full when as many families as the school has desks wait for its answer or are confirmed.',
      auth: [],
      rateLimit: { scope: 'schools-slots', limit: 120, windowSec: 600, per: 'user' },
      errors: [404],
      request: { params: IdParamsSchema, query: z.object({ date: CalendarDateSchema.describe('Local day, YYYY-MM-DD') }) },
      response: { description: 'The day’s slots.', schema: SlotsSchema },
      handler: ({ params, query }) => consultations.slots(params.id, query.date),
    }),
    defineRoute({
      method: 'post',
      path: '/schools/consultations',
      operationId: 'requestSchoolConsultation',
      tag: 'schools',
      summary: 'Ask a school for a consultation about a child (and a program)',
      description: `A desk of the slot is held and the school asked (PENDING_PARTNER, \`booking.school.created\` to the family and the school): it accepts (POST /bookings/{id}/accept), rejects with a reason, or proposes another time (POST /schools/consultations/{id}/propose), which the family takes with POST /bookings/{id}/agree. The school starts the meeting (POST /bookings/{id}/start) and completes it, then follows the family up (POST /schools/consultations/{id}/follow-up). Within ${CONSULTATION_RULES.maxDaysAhead} days, on the school’s grid inside its hours (outside them: 422 SCHOOL_CLOSED). Free; cancel any time. A full slot is 409 BOOKING_UNAVAILABLE. Idempotency-Key required.`,
      ...bookingRequest(['SCHOOL_PROGRAM_NOT_FOUND', 'SCHOOL_CLOSED']),
      request: { body: ConsultationBodySchema },
      response: { status: 201, description: 'The consultation request, PENDING_PARTNER.', schema: BookingSchema },
      handler: ({ body, auth, idempotencyKey, claimed }) => consultations.book(auth!, body, idempotencyKey!, { claimed: claimed! }),
    }),
    proposalRoute({
      path: '/schools/consultations/:id/propose',
      operationId: 'proposeSchoolConsultationTime',
      tag: 'schools',
      summary: 'School: answer a consultation request with another time',
      who: 'The school’s owner or staff',
      closedCode: 'SCHOOL_CLOSED',
      run: (auth, id, body) => consultations.propose(auth, id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/schools/consultations/:id/follow-up',
      operationId: 'openSchoolFollowUp',
      tag: 'schools',
      summary: 'School: start following up a family after their consultation',
      description:
        'Once the consultation has begun or completed (else 409 SCHOOL_FOLLOW_UP_NOT_READY): a follow-up (FOLLOWING_UP) with a note and the date to call next, moved on with POST /schools/consultations/{id}/follow-up/moves (trial class, applied, enrolled, declined). One per consultation: asked again, the same follow-up answers. The school’s owner and staff only (anyone else 404); the family never sees it.',
      auth: [...SCHOOL_STAFF],
      rateLimit: FOLLOW_UP_LIMIT,
      errors: [404, 409],
      codes: ['BOOKING_NOT_FOUND', 'SCHOOL_FOLLOW_UP_NOT_READY'],
      request: { params: IdParamsSchema, body: FollowUpFieldsSchema },
      response: { status: 201, description: 'The follow-up.', schema: FollowUpSchema },
      handler: ({ auth, params, body }) => followUps.open(auth!, params.id, body),
    }),
    defineRoute({
      method: 'get',
      path: '/schools/:id/follow-ups',
      operationId: 'listSchoolFollowUps',
      tag: 'schools',
      summary: 'School: its follow-ups, latest change first',
      description: 'The school’s owner and staff; administrators with bookings.manage; anyone else 404.',
      auth: [],
      rateLimit: FOLLOW_UP_LIMIT,
      errors: [404],
      request: { params: IdParamsSchema, query: PageQuerySchema.extend({ status: z.enum(FOLLOW_UP_STATUSES).optional() }) },
      response: { description: 'A page of follow-ups.', schema: FollowUpPageSchema },
      handler: ({ auth, params, query }) => followUps.list(auth!, params.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/schools/consultations/:id/follow-up',
      operationId: 'getSchoolFollowUp',
      tag: 'schools',
      summary: 'School: one follow-up with its history',
      auth: [],
      rateLimit: FOLLOW_UP_LIMIT,
      errors: [404],
      request: { params: z.object({ id: DocumentIdSchema }) },
      response: { description: 'The follow-up and its moves, oldest first.', schema: FollowUpWithHistorySchema },
      handler: ({ auth, params }) => followUps.get(auth!, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/schools/consultations/:id/follow-up/moves',
      operationId: 'moveSchoolFollowUp',
      tag: 'schools',
      summary: 'School: move a follow-up to its next stage',
      description:
        'FOLLOWING_UP → TRIAL_CLASS → APPLIED → ENROLLED, or DECLINED from any open stage (reopened to FOLLOWING_UP). A move its stage does not allow is 409 SCHOOL_FOLLOW_UP_TRANSITION (see `allowed`). The school’s owner and staff only.',
      auth: [...SCHOOL_STAFF],
      rateLimit: FOLLOW_UP_LIMIT,
      errors: [404, 409],
      codes: ['SCHOOL_FOLLOW_UP_TRANSITION'],
      request: { params: IdParamsSchema, body: FollowUpMoveSchema },
      response: { description: 'The follow-up after the move.', schema: FollowUpSchema },
      handler: ({ auth, params, body }) => followUps.move(auth!, params.id, body.action, body.note),
    }),
    defineRoute({
      method: 'patch',
      path: '/schools/consultations/:id/follow-up',
      operationId: 'updateSchoolFollowUp',
      tag: 'schools',
      summary: 'School: change a follow-up’s note or next contact date',
      auth: [...SCHOOL_STAFF],
      rateLimit: FOLLOW_UP_LIMIT,
      errors: [404],
      request: { params: IdParamsSchema, body: FollowUpFieldsSchema },
      response: { description: 'The follow-up.', schema: FollowUpSchema },
      handler: ({ auth, params, body }) => followUps.update(auth!, params.id, body),
    }),
  ];
}
