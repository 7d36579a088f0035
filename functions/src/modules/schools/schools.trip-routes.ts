import { z } from 'zod';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { WEEKDAYS } from '../../platform/kits/catalog/hours';
import { createSchoolTripPlans, OFFER_RADIUS_M, PlanBodySchema, SCHOOL_TRIP_MAX_KM } from './schools.trips';
import { createSchoolTripDays, START_AHEAD_MS } from './schools.trips.days';
import { LEGS, MISSED, NOT_CLOSED, PLAN_STATUSES, TRIP_STATUSES, type PlanRecord, type TripRecord } from './schools.trips.model';

// School trips: a parent's plans for a term, drivers' offers and their terms, each day's trips and their moves.

const Place = z.object({ lat: z.number(), lng: z.number(), address: z.string() });
const PlanSchema = z
  .object({
    id: z.string(),
    status: z.enum(PLAN_STATUSES),
    parentId: z.string(),
    schoolId: z.string(),
    schoolName: z.string(),
    childName: z.string(),
    home: Place,
    school: Place,
    distanceM: z.number().int(),
    term: z.object({ from: z.string().meta({ format: 'date' }), to: z.string().meta({ format: 'date' }) }),
    weekdays: z.array(z.enum(WEEKDAYS)),
    toSchoolPickup: z.string().nullable(),
    fromSchoolPickup: z.string().nullable(),
    driverId: z.string().nullable(),
    driver: z.object({ name: z.string() }).nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'SchoolTripPlan' });
const TripSchema = z
  .object({
    id: z.string(),
    planId: z.string(),
    status: z
      .enum(TRIP_STATUSES)
      .describe(`EXPIRED: \`reason\` "${MISSED}" (not set off within an hour of the pick-up) or "${NOT_CLOSED}" (not dropped off within four hours of it).`),
    leg: z.enum(LEGS),
    date: z.string().meta({ format: 'date' }),
    pickupAt: IsoTimeSchema,
    from: Place,
    to: Place,
    childName: z.string(),
    schoolName: z.string(),
    parentId: z.string(),
    driverId: z.string().describe('Follow its position live at `driver_locations/{driverId}` while EN_ROUTE or ON_BOARD (shared with the parent)'),
    startedAt: IsoTimeSchema.nullable(),
    pickedUpAt: IsoTimeSchema.nullable(),
    droppedOffAt: IsoTimeSchema.nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'SchoolTrip' });

/** An offered plan as a driver sees it before taking it: no child, parent or home address. */
const OfferSchema = z
  .object({
    planId: z.string(),
    schoolId: z.string(),
    schoolName: z.string(),
    school: Place,
    distanceM: z.number().int().describe('From the driver to the pick-up area'),
    tripDistanceM: z.number().int().describe('Home to school, straight line'),
    term: z.object({ from: z.string().meta({ format: 'date' }), to: z.string().meta({ format: 'date' }) }),
    weekdays: z.array(z.enum(WEEKDAYS)),
    toSchoolPickup: z.string().nullable(),
    fromSchoolPickup: z.string().nullable(),
  })
  .meta({ id: 'SchoolTripOffer' });
const offerView = ({ plan: p, distanceM }: { plan: PlanRecord; distanceM: number }) => ({
  planId: p.id,
  schoolId: p.schoolId,
  schoolName: p.schoolName,
  school: p.school,
  distanceM,
  tripDistanceM: p.distanceM,
  term: p.term,
  weekdays: p.weekdays,
  toSchoolPickup: p.toSchoolPickup,
  fromSchoolPickup: p.fromSchoolPickup,
});
const planView = ({ participants: _p, geohash: _g, ...p }: PlanRecord) => ({ ...p, createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt) });
const tripView = ({ participants: _p, createdAt: _c, updatedAt: _u, ...t }: TripRecord) => ({
  ...t,
  pickupAt: iso(t.pickupAt),
  startedAt: isoOrNull(t.startedAt),
  pickedUpAt: isoOrNull(t.pickedUpAt),
  droppedOffAt: isoOrNull(t.droppedOffAt),
});
const ReasonSchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'SchoolTripReason' });
const LIMIT = { scope: 'school-trips', limit: 300, windowSec: 600, per: 'user' } as const;
const MOVE_CODES = ['SCHOOL_TRIP_TRANSITION', 'SCHOOL_TRIP_NOT_ALLOWED'] as const;

export function schoolTripRoutes(ctx: AppContext): AnyRoute[] {
  const plans = createSchoolTripPlans(ctx.config);
  const days = createSchoolTripDays(ctx.config);
  return [...planRoutes(plans, days), ...tripRoutes(days)];
}

type Plans = ReturnType<typeof createSchoolTripPlans>;
type Days = ReturnType<typeof createSchoolTripDays>;

function planRoutes(plans: Plans, days: Days): AnyRoute[] {
  // The offers first: /school-trip-plans/offers is mounted before /school-trip-plans/:id.
  return [
    ...planMoves(plans),
    defineRoute({
      method: 'post',
      path: '/school-trip-plans',
      operationId: 'subscribeSchoolTrips',
      tag: 'schools',
      summary: 'Parent: subscribe a child to a term of school trips (home ⇄ school)',
      description: `A morning leg (picked up at home at \`toSchoolPickup\`), an afternoon leg (picked up at school at \`fromSchoolPickup\`) or both, on the weekdays of the term, for a school that offers trips (else 422 SCHOOL_TRIPS_NOT_OFFERED) within ${SCHOOL_TRIP_MAX_KM} km of home (422 SCHOOL_TRIP_TOO_FAR). The plan seeks a driver (SEEKING_DRIVER): it is offered to the free SCHOOL_TRIP drivers near home (\`school.trip.offered\`) and listed to any within ${OFFER_RADIUS_M / 1000} km; the first to accept takes the term (MATCHED, \`school.trip.matched\`). Read it live at \`school_trip_plans/{id}\`. Idempotency-Key required.`,
      auth: [],
      hat: 'CON',
      idempotent: 'required',
      rateLimit: { scope: 'school-trip-plans-create', limit: 10, windowSec: 600, per: 'user' },
      errors: [404, 422],
      codes: ['SCHOOL_TRIPS_NOT_OFFERED', 'SCHOOL_TRIP_TOO_FAR', 'IDEMPOTENCY_KEY_REUSED'],
      request: { body: PlanBodySchema },
      response: { status: 201, description: 'The plan, SEEKING_DRIVER.', schema: PlanSchema },
      handler: async ({ auth, body, idempotencyKey }) => planView(await plans.subscribe(auth!, body, idempotencyKey!)),
    }),
    defineRoute({
      method: 'get',
      path: '/school-trip-plans',
      operationId: 'listSchoolTripPlans',
      tag: 'schools',
      summary: 'My school trip plans: as a parent, or (as=DRIVER) the terms I drive',
      auth: [],
      rateLimit: LIMIT,
      request: { query: PageQuerySchema.extend({ as: z.enum(['PARENT', 'DRIVER']).default('PARENT') }) },
      response: {
        description: 'A page of plans, newest first.',
        schema: z.object({ items: z.array(PlanSchema), nextCursor: z.string().nullable() }).meta({ id: 'SchoolTripPlanPage' }),
      },
      handler: async ({ auth, query }) => {
        const page = await plans.mine(auth!, query);
        return { items: page.items.map(planView), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/school-trip-plans/:id',
      operationId: 'getSchoolTripPlan',
      tag: 'schools',
      summary: 'One plan (its parent, its driver, administrators with bookings.manage)',
      auth: [],
      rateLimit: LIMIT,
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The plan.', schema: PlanSchema },
      handler: async ({ auth, params }) => planView(await plans.get(auth!, params.id)),
    }),
    defineRoute({
      method: 'post',
      path: '/school-trip-plans/:id/days/:date/skip',
      operationId: 'skipSchoolTripDay',
      tag: 'schools',
      summary: 'Parent: the child does not go that day (both legs, or one)',
      description:
        'A school day of the plan from today on (else 422 SCHOOL_TRIP_NOT_A_SCHOOL_DAY), its trips SKIPPED before they start (the driver hears `school.trip.skipped`). Asked again, the same answer.',
      auth: [],
      hat: 'CON',
      idempotent: true,
      rateLimit: LIMIT,
      errors: [404, 409, 422],
      codes: [...MOVE_CODES, 'SCHOOL_TRIP_NOT_A_SCHOOL_DAY'],
      request: {
        params: IdParamsSchema.extend({ date: CalendarDateSchema }),
        body: ReasonSchema.extend({ leg: z.enum(LEGS).optional() }).meta({ id: 'SchoolTripSkipBody' }),
      },
      response: { description: 'The day’s trips, SKIPPED.', schema: z.object({ items: z.array(TripSchema) }).meta({ id: 'SchoolTripDay' }) },
      handler: async ({ auth, params, body }) => ({ items: (await days.skip(auth!, params.id, params.date, body.leg, body.reason ?? null)).map(tripView) }),
    }),
  ];
}

/** A driver's offers and the moves of a plan (a driver's, a parent's). */
function planMoves(plans: Plans): AnyRoute[] {
  type Auth = Parameters<typeof plans.accept>[0];
  const planMove = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    run: (auth: Auth, id: string, reason: string | null) => Promise<PlanRecord>,
    driver: boolean,
  ) =>
    defineRoute({
      method: 'post',
      path,
      operationId,
      tag: 'schools',
      summary,
      description,
      auth: driver ? ['DRIVER'] : [],
      idempotent: true,
      rateLimit: LIMIT,
      errors: [403, 404, 409],
      codes: [...MOVE_CODES, ...(driver ? (['SCHOOL_TRIP_NOT_CAPABLE', 'SCHOOL_TRIP_TERM_OVER'] as const) : [])],
      request: { params: IdParamsSchema, body: ReasonSchema },
      response: { description: 'The plan after the move.', schema: PlanSchema },
      handler: async ({ auth, params, body }) => planView(await run(auth!, params.id, body.reason ?? null)),
    });
  return [
    defineRoute({
      method: 'get',
      path: '/school-trip-plans/offers',
      operationId: 'listSchoolTripOffers',
      tag: 'schools',
      summary: 'Driver: plans seeking a driver near my last position',
      description: `Within ${OFFER_RADIUS_M / 1000} km of the position the driver app last reported, nearest first (none before a first report). What a driver needs to decide (the school, the days and times, how far); the child, the parent and the home’s address only once they take it. SCHOOL_TRIP drivers only (else 403 SCHOOL_TRIP_NOT_CAPABLE).`,
      auth: ['DRIVER'],
      rateLimit: LIMIT,
      errors: [403],
      codes: ['SCHOOL_TRIP_NOT_CAPABLE'],
      request: { query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(20) }) },
      response: {
        description: 'The offers, nearest first.',
        schema: z.object({ items: z.array(OfferSchema) }).meta({ id: 'SchoolTripOffers' }),
      },
      handler: async ({ auth, query }) => ({ items: (await plans.offers(auth!, query.limit)).map(offerView) }),
    }),
    planMove(
      '/school-trip-plans/:id/accept',
      'acceptSchoolTripPlan',
      'Driver: take a plan for its term',
      'SEEKING_DRIVER → MATCHED for the first SCHOOL_TRIP driver to accept (another: 409 SCHOOL_TRIP_TRANSITION); a driver without the capability, or the plan’s parent, 403 SCHOOL_TRIP_NOT_CAPABLE. The parent hears `school.trip.matched` and reads the driver’s name.',
      (auth, id) => plans.accept(auth, id),
      true,
    ),
    planMove(
      '/school-trip-plans/:id/leave',
      'leaveSchoolTripPlan',
      'Driver: give the rest of the term up',
      'MATCHED → SEEKING_DRIVER: offered again; its trips not yet under way are cancelled, the parent told (`school.trip.driverLeft`).',
      (auth, id, reason) => plans.move(auth, id, 'leave', reason),
      true,
    ),
    planMove(
      '/school-trip-plans/:id/cancel',
      'cancelSchoolTripPlan',
      'Parent: cancel a plan (an administrator with bookings.manage too)',
      'SEEKING_DRIVER or MATCHED → CANCELLED: its trips not yet under way are cancelled, its driver told (`school.trip.planCancelled`).',
      (auth, id, reason) => plans.move(auth, id, 'cancel', reason),
      false,
    ),
  ];
}

function tripRoutes(days: Days): AnyRoute[] {
  const tripMove = (
    segment: string,
    action: 'start' | 'pickUp' | 'dropOff' | 'cancel',
    operationId: string,
    summary: string,
    description: string,
    codes: string[] = [],
  ) =>
    defineRoute({
      method: 'post',
      path: `/school-trips/:id/${segment}`,
      operationId,
      tag: 'schools',
      summary,
      description: `${description} Its driver only (a stranger 404); a move its status does not allow is 409 SCHOOL_TRIP_TRANSITION.`,
      auth: ['DRIVER'],
      hat: 'DRV',
      idempotent: true,
      rateLimit: LIMIT,
      errors: [404, 409],
      codes: [...MOVE_CODES, ...(codes as Array<'SCHOOL_TRIP_DRIVER_BUSY' | 'SCHOOL_TRIP_TOO_EARLY'>)],
      request: { params: IdParamsSchema, body: ReasonSchema },
      response: { description: 'The trip after the move.', schema: TripSchema },
      handler: async ({ auth, params, body }) => tripView(await days.move(auth!, params.id, action, body.reason ?? null)),
    });

  return [
    defineRoute({
      method: 'get',
      path: '/school-trips',
      operationId: 'listSchoolTripsOfDay',
      tag: 'schools',
      summary: 'My school trips of a day (as a parent or as the driver), soonest pick-up first',
      description:
        'Today (Vietnam time) unless `date`. Each leg of each matched plan on a school day of its term; read each live at `school_trips/{id}`, and the car at `driver_locations/{driverId}` once it sets off.',
      auth: [],
      rateLimit: LIMIT,
      request: { query: z.object({ date: CalendarDateSchema.optional() }) },
      response: { description: 'The day’s trips.', schema: z.object({ items: z.array(TripSchema) }).meta({ id: 'SchoolTripList' }) },
      handler: async ({ auth, query }) => ({ items: (await days.day(auth!, query.date)).map(tripView) }),
    }),
    defineRoute({
      method: 'get',
      path: '/school-trips/:id',
      operationId: 'getSchoolTrip',
      tag: 'schools',
      summary: 'One school trip (its parent and its driver)',
      auth: [],
      rateLimit: LIMIT,
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The trip.', schema: TripSchema },
      handler: async ({ auth, params }) => tripView(await days.get(auth!, params.id)),
    }),
    tripMove(
      'start',
      'start',
      'startSchoolTrip',
      'Driver: set off for the pick-up (the parent follows the car live)',
      `SCHEDULED → EN_ROUTE on its day, from ${START_AHEAD_MS / 60_000} minutes before the pick-up (409 SCHOOL_TRIP_TOO_EARLY): the driver is taken as on a SCHOOL_TRIP job (online, located, free: else 409 SCHOOL_TRIP_DRIVER_BUSY) and their position shared with the parent (\`courier:location\`, \`driver_locations/{driverId}\`).`,
      ['SCHOOL_TRIP_DRIVER_BUSY', 'SCHOOL_TRIP_TOO_EARLY'],
    ),
    tripMove('pick-up', 'pickUp', 'pickUpSchoolTrip', 'Driver: the child is on board', 'EN_ROUTE → ON_BOARD (`school.trip.pickedUp` to the parent).'),
    tripMove(
      'drop-off',
      'dropOff',
      'dropOffSchoolTrip',
      'Driver: the child arrived',
      'ON_BOARD → ARRIVED (`school.trip.droppedOff`); the driver is free again.',
    ),
    tripMove(
      'cancel',
      'cancel',
      'cancelSchoolTrip',
      'Driver: cannot make this trip',
      'SCHEDULED or EN_ROUTE → CANCELLED (`school.trip.cancelled` to the parent); the driver is free again.',
    ),
  ];
}
