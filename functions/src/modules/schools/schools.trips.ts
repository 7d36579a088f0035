import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../platform/core/errors/app-error';
import { db, firestoreApi, inTransaction } from '../../platform/core/firebase/firebase';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { ClockTimeSchema, DEFAULT_TIME_ZONE, WEEKDAYS } from '../../platform/kits/catalog/hours';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { distanceMeters, geohashOf, LatLngSchema } from '../../platform/kits/geo/geo';
import { nearbyPage } from '../../platform/kits/geo/nearby-page';
import { IdempotencyKeyReusedError } from '../../platform/kits/idempotency/idempotency';
import { stableId } from '../../platform/kits/ids/stable-id';
import { localTime } from '../../platform/kits/inventory/units';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { bookingViewerOf } from '../bookings';
import { driverProfiles, jobPool } from '../driver';
import { accounts } from '../users';
import { schoolRecords } from './schools.catalog';
import { SCHOOL_TRIP_PLANS } from './schools.collections';
import { planDocument, planMachine, type PlanAction, type PlanActor, type PlanRecord, type PlanStatus } from './schools.trips.model';

// A child's school run for a term: the parent subscribes (SEEKING_DRIVER: offered to free SCHOOL_TRIP drivers near
// home by the plan's trigger, and listed to any SCHOOL_TRIP driver near it), the first such driver to accept takes
// the term (MATCHED), may leave it (offered again), and the parent (or an administrator) cancels it.

export const SCHOOL_TRIP_MAX_KM = 30;
/** A driver sees plans whose home is this close to their last position. */
export const OFFER_RADIUS_M = 10_000;
const MAX_TERM_DAYS = 200;

export const PlanBodySchema = z
  .object({
    schoolId: DocumentIdSchema,
    childName: z.string().trim().min(1).max(80),
    home: LatLngSchema.extend({ address: z.string().trim().min(5).max(300) }),
    term: z.object({ from: CalendarDateSchema, to: CalendarDateSchema }).describe('First and last school day of the term (Vietnam time)'),
    weekdays: z
      .array(z.enum(WEEKDAYS))
      .min(1)
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'weekdays repeat'),
    toSchoolPickup: ClockTimeSchema.nullable().describe('Pick-up time at home for the morning leg (null: none)'),
    fromSchoolPickup: ClockTimeSchema.nullable().describe('Pick-up time at school for the afternoon leg (null: none)'),
  })
  .refine((b) => b.toSchoolPickup !== null || b.fromSchoolPickup !== null, {
    path: ['toSchoolPickup'],
    message: 'a plan has a morning leg, an afternoon leg or both',
  })
  .meta({ id: 'SchoolTripPlanBody' });

export const plans = () => typedCollection<PlanRecord>(SCHOOL_TRIP_PLANS, planDocument);
const notFound = () => new NotFoundError('No such school trip plan').withCode('NOT_FOUND');
type Viewer = { userId: string; roles: readonly string[]; permissions?: string[] };
/** An administrator with bookings.manage (the booking verticals' permission). */
const isAdmin = (v: Viewer) => bookingViewerOf(v).admin;
const today = (at: number) => localTime(at, DEFAULT_TIME_ZONE).date;
const fingerprint = (
  p: Pick<PlanRecord, 'schoolId' | 'childName' | 'term' | 'weekdays' | 'toSchoolPickup' | 'fromSchoolPickup'> & { home: { lat: number; lng: number } },
) => JSON.stringify([p.schoolId, p.childName, p.home.lat, p.home.lng, p.term.from, p.term.to, [...p.weekdays].sort(), p.toSchoolPickup, p.fromSchoolPickup]);

export function createSchoolTripPlans(_config: Readonly<AppConfig>, now: () => number = Date.now) {
  const store = (id: string): TransitionStore<PlanRecord, PlanStatus, PlanAction> => ({
    load: (tx) => readRecord(plans().doc(id), tx),
    save: (tx, next) => tx.set(plans().doc(id), next),
    ref: () => db().collection(SCHOOL_TRIP_PLANS).doc(id),
  });
  async function load(v: Viewer, id: string): Promise<PlanRecord> {
    const plan = await readRecord(plans().doc(id));
    if (!plan || !(plan.parentId === v.userId || plan.driverId === v.userId || isAdmin(v))) throw notFound();
    return plan;
  }
  const actorOf = (v: Viewer, p: PlanRecord): PlanActor => (p.parentId === v.userId ? 'PARENT' : p.driverId === v.userId ? 'DRIVER' : 'ADMIN');

  return {
    /** A parent's new plan for a term (SEEKING_DRIVER); the same key answers the same plan. */
    async subscribe(v: Viewer, body: z.output<typeof PlanBodySchema>, idempotencyKey: string): Promise<PlanRecord> {
      const [school] = await schoolRecords().activeByIds([body.schoolId]);
      if (!school) throw new NotFoundError('No such school');
      if (!school.details.schoolTrips) throw new UnprocessableError('This school offers no school trips').withCode('SCHOOL_TRIPS_NOT_OFFERED');
      const at = now();
      const range = [
        body.term.from < today(at) && { field: 'body.term.from', message: 'the term starts today or later' },
        body.term.to < body.term.from && { field: 'body.term.to', message: 'the term ends on or after its first day' },
        (Date.parse(body.term.to) - Date.parse(body.term.from)) / 86_400_000 >= MAX_TERM_DAYS && {
          field: 'body.term.to',
          message: `a term is at most ${MAX_TERM_DAYS} days`,
        },
      ].filter((x): x is { field: string; message: string } => Boolean(x));
      if (range.length) throw new ValidationError('Invalid term', range);
      const distanceM = Math.round(distanceMeters(body.home, school));
      if (distanceM > SCHOOL_TRIP_MAX_KM * 1000)
        throw new UnprocessableError('Home is too far from the school', { distanceM, maxM: SCHOOL_TRIP_MAX_KM * 1000 }).withCode('SCHOOL_TRIP_TOO_FAR');
      const id = stableId({ scope: 'schools.trip-plan', caller: v.userId, key: idempotencyKey });
      return inTransaction(async (tx) => {
        const existing = await readRecord(plans().doc(id), tx);
        if (existing) {
          // The same key with another plan (past the idempotency kit's window) is refused, never answered with the old one.
          if (fingerprint(existing) !== fingerprint({ ...body, home: body.home })) throw new IdempotencyKeyReusedError();
          return existing;
        }
        const plan: PlanRecord = {
          id,
          status: 'SEEKING_DRIVER',
          parentId: v.userId,
          schoolId: school.id,
          schoolName: school.name,
          childName: body.childName,
          home: { lat: body.home.lat, lng: body.home.lng, address: body.home.address },
          school: { lat: school.lat, lng: school.lng, address: school.address ?? school.name },
          distanceM,
          term: body.term,
          weekdays: body.weekdays,
          toSchoolPickup: body.toSchoolPickup,
          fromSchoolPickup: body.fromSchoolPickup,
          driverId: null,
          driver: null,
          participants: [v.userId],
          geohash: geohashOf(body.home),
          createdAt: at,
          updatedAt: at,
        };
        tx.create(plans().doc(id), plan);
        return plan;
      });
    },

    get: load,

    /** The caller's plans: as the parent, or (`as=DRIVER`) the terms they drive; newest first. */
    async mine(v: Viewer, q: { as: 'PARENT' | 'DRIVER'; limit: number; cursor?: string }) {
      const query = plans().where(q.as === 'PARENT' ? 'parentId' : 'driverId', '==', v.userId);
      return paginate(query, [{ field: 'createdAt', direction: 'desc' }], { ...q, query: `schools:plans:${q.as}`, caller: v.userId }, (d) => d.data());
    },

    /** Plans seeking a driver near the caller's last position (a SCHOOL_TRIP driver), nearest first. */
    async offers(v: Viewer, limit: number) {
      if (!(await inTransaction(async (tx) => driverProfiles.txCapabilities(tx, v.userId))).includes('SCHOOL_TRIP'))
        throw new ForbiddenError('School trips need the SCHOOL_TRIP capability').withCode('SCHOOL_TRIP_NOT_CAPABLE');
      const position = await jobPool.lastPosition(v.userId);
      if (!position) return [];
      const { FieldPath } = firestoreApi();
      const found = await nearbyPage({
        center: position,
        radiusM: OFFER_RADIUS_M,
        limit,
        budget: 200,
        read: async (start, end, max, afterId, endId) => {
          const ordered = plans().where('status', '==', 'SEEKING_DRIVER').orderBy('geohash').orderBy(FieldPath.documentId());
          const started = afterId !== undefined ? ordered.startAfter(start, afterId) : ordered.startAt(start);
          return (await (endId !== undefined ? started.endAt(end, endId) : started.endAt(end)).limit(max).get()).docs.map((d) => d.data());
        },
        pointOf: (p) => p.home,
        keep: (p) => p.parentId !== v.userId && p.term.to >= today(now()),
      });
      return found.items.map(({ item, distanceM }) => ({ plan: item, distanceM: Math.round(distanceM) }));
    },

    /** A SCHOOL_TRIP driver takes the term (the first to accept; the others 409: any such driver may see offered plans). */
    async accept(v: Viewer, id: string): Promise<PlanRecord> {
      // A retry of the driver's own accept (its answer lost) answers the plan as it is.
      const current = await readRecord(plans().doc(id));
      if (current?.status === 'MATCHED' && current.driverId === v.userId) return current;
      const at = now();
      const moved = await transition(planMachine, store(id), {
        action: 'accept',
        by: v.userId,
        rolesOf: () => ['DRIVER'],
        read: async (tx) => ({ capabilities: await driverProfiles.txCapabilities(tx, v.userId), account: await accounts.get(v.userId, tx) }),
        guard: (p, { capabilities }) => {
          if (!capabilities.includes('SCHOOL_TRIP') || p.parentId === v.userId)
            throw new ForbiddenError('School trips need the SCHOOL_TRIP capability').withCode('SCHOOL_TRIP_NOT_CAPABLE');
          if (p.term.to < today(at)) throw new ConflictError('The term has ended').withCode('SCHOOL_TRIP_TERM_OVER');
        },
        apply: (p, to, { account }) => ({
          ...p,
          status: to,
          driverId: v.userId,
          driver: { name: account?.name ?? 'Tài xế' },
          participants: [p.parentId, v.userId],
          updatedAt: at,
        }),
        now: at,
        missing: notFound,
      });
      return moved.after;
    },

    /** The driver gives the rest of the term up (offered again), or the parent (an administrator) cancels the plan. */
    async move(v: Viewer, id: string, action: 'leave' | 'cancel', reason: string | null): Promise<PlanRecord> {
      await load(v, id);
      const at = now();
      // Who the caller is, from the plan as the transaction reads it (a driver who left is no longer its driver).
      const moved = await transition(planMachine, store(id), {
        action,
        by: v.userId,
        reason,
        visible: (p) => p.parentId === v.userId || p.driverId === v.userId || isAdmin(v),
        rolesOf: (p) => [actorOf(v, p)],
        apply: (p, to) =>
          action === 'leave'
            ? { ...p, status: to, driverId: null, driver: null, participants: [p.parentId], updatedAt: at }
            : { ...p, status: to, updatedAt: at },
        now: at,
        missing: notFound,
      });
      return moved.after;
    },
  };
}

export type SchoolTripPlans = ReturnType<typeof createSchoolTripPlans>;
