import type { AppConfig } from '../../platform/core/config';
import { AppError, ConflictError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { DEFAULT_TIME_ZONE } from '../../platform/kits/catalog/hours';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { localTime } from '../../platform/kits/inventory/units';
import { transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import { jobPool, type DriverLocation } from '../driver';
import { SCHOOL_TRIPS } from './schools.collections';
import { plans } from './schools.trips';
import {
  legsOn,
  tripDocument,
  tripIdOf,
  expiredTrip,
  MISSED_AFTER_MS,
  TRIP_EXPIRED_BY,
  tripDeadline,
  tripMachine,
  type Leg,
  type PlanRecord,
  type TripAction,
  type TripRecord,
  type TripStatus,
} from './schools.trips.model';

// The school days of matched plans: each day's legs set out as trips when first asked for (the parent's or the
// driver's day, a parent skipping a day ahead), one document per plan, day and leg. The driver sets off (claimed on
// the dispatch pool as a SCHOOL_TRIP job and shared with the parent at once: the parent follows the car live), picks
// the child up and drops them off (freed); the parent skips a day; the driver cancels before the child is on board.

const zone = DEFAULT_TIME_ZONE;
/** A trip may be started from this long before its pick-up. */
export const START_AHEAD_MS = 60 * 60_000;
const MAX_PLANS_PER_DAY = 20;
/** A day's trips are set out from today to this many days ahead (further days: when they come near). */
export const SET_OUT_DAYS = 14;
/** The reason of a trip withdrawn from a former driver (the parent was told of the plan's change, not of each trip). */
export const WITHDRAWN = 'The school run changed driver';

export const trips = () => typedCollection<TripRecord>(SCHOOL_TRIPS, tripDocument);
const notFound = () => new NotFoundError('No such school trip').withCode('NOT_FOUND');
type Viewer = { userId: string };
const dayOf = (at: number) => localTime(at, zone).date;

export function createSchoolTripDays(_config: Readonly<AppConfig>, now: () => number = Date.now) {
  const store = (id: string): TransitionStore<TripRecord, TripStatus, TripAction> => ({
    load: (tx) => readRecord(trips().doc(id), tx),
    save: (tx, next) => tx.set(trips().doc(id), next),
    ref: () => db().collection(SCHOOL_TRIPS).doc(id),
  });

  /**
   * A plan's trips of a day set out: the missing ones created while the plan is MATCHED and the day one of its school
   * days; one its former driver left (not begun, or withdrawn) given to its driver now.
   */
  function setOut(planId: string, date: string): Promise<void> {
    return inTransaction(async (tx) => {
      const plan = await readRecord(plans().doc(planId), tx);
      if (!plan || plan.status !== 'MATCHED' || !plan.driverId) return;
      const at = now();
      const legs = legsAhead(plan, date, at);
      const refs = legs.map((l) => trips().doc(tripIdOf(plan.id, date, l.leg)));
      const found = refs.length ? await tx.getAll(...refs) : [];
      legs.forEach((l, i) => {
        const existing = found[i].data();
        if (!existing) tx.create(refs[i], newTrip(plan, date, l.leg, l.pickupAt, at));
        else if (existing.driverId !== plan.driverId && (existing.status === 'SCHEDULED' || existing.reason === WITHDRAWN))
          tx.set(refs[i], { ...newTrip(plan, date, l.leg, l.pickupAt, at), createdAt: existing.createdAt });
      });
    });
  }

  async function load(v: Viewer, id: string) {
    const trip = await readRecord(trips().doc(id));
    if (!trip || !trip.participants.includes(v.userId)) throw notFound();
    return tripDeadline.settle(trip, now()).entity;
  }

  /** The timer's move as `transition` makes it before any other: a trip under way frees its driver too. */
  const expiry = () => ({
    ...tripDeadline.expiry(),
    alongside: async (tx: FirebaseFirestore.Transaction, expired: TripRecord, before: TripRecord) => {
      if (before.status !== 'SCHEDULED') jobPool.txRelease(tx, await jobPool.txRead(tx, before.driverId), before.id, expired.updatedAt);
    },
  });

  return {
    /**
     * The caller's trips of a day (today unless `date`), as the parent or the driver, soonest pick-up first: the days
     * from today to SET_OUT_DAYS ahead are set out first (one trip per leg of each matched plan).
     */
    async day(v: Viewer, date?: string): Promise<TripRecord[]> {
      const at = now();
      const on = date ?? dayOf(at);
      const ofDay = async () =>
        (
          await trips()
            .where('participants', 'array-contains', v.userId)
            .where('date', '==', on)
            .limit(2 * MAX_PLANS_PER_DAY)
            .get()
        ).docs.map((d) => d.data());
      if (on < dayOf(at) || on > dayOf(at + SET_OUT_DAYS * 86_400_000)) return settledDay(await ofDay(), at);
      const matched = (field: 'parentId' | 'driverId') => plans().where(field, '==', v.userId).where('status', '==', 'MATCHED').limit(MAX_PLANS_PER_DAY).get();
      const [asParent, asDriver, found] = await Promise.all([matched('parentId'), matched('driverId'), ofDay()]);
      // Only plans whose legs that day are not all set out for their driver now take a transaction.
      const ready = (p: PlanRecord) => legsAhead(p, on, at).every((l) => found.some((t) => t.id === tripIdOf(p.id, on, l.leg) && t.driverId === p.driverId));
      const pending = new Set([...asParent.docs, ...asDriver.docs].filter((d) => !ready(d.data())).map((d) => d.id));
      for (const id of pending) await setOut(id, on);
      return settledDay(pending.size > 0 ? await ofDay() : found, at);
    },

    get: load,

    /** A driver's move on their trip: set off (claimed and shared with the parent), child on board, dropped off (freed), cancel. */
    async move(v: Viewer, id: string, action: 'start' | 'pickUp' | 'dropOff' | 'cancel', reason: string | null): Promise<TripRecord> {
      const at = now();
      let loc: DriverLocation | undefined;
      const moved = await transition(
        tripMachine,
        {
          ...store(id),
          alongside: (tx, next, previous) => {
            if (action === 'start') {
              const claimed = jobPool.txClaim(tx, loc, {
                kind: 'SCHOOL_TRIP',
                jobId: id,
                customerId: previous.parentId,
                capability: 'SCHOOL_TRIP',
                at,
                shareAtOnce: true,
              });
              if (!claimed) throw new ConflictError('You cannot set off now: go online, and finish your ride or job').withCode('SCHOOL_TRIP_DRIVER_BUSY');
            } else if (next.status === 'ARRIVED' || (next.status === 'CANCELLED' && previous.status === 'EN_ROUTE')) jobPool.txRelease(tx, loc, id, at);
          },
        },
        {
          action,
          by: v.userId,
          reason,
          rolesOf: (t) => (t.driverId === v.userId ? ['DRIVER'] : t.parentId === v.userId ? ['PARENT'] : []),
          visible: (t) => t.participants.includes(v.userId),
          read: async (tx, t) => {
            loc = action === 'pickUp' ? undefined : await jobPool.txRead(tx, t.driverId);
            return action === 'start' ? readRecord(plans().doc(t.planId), tx) : undefined;
          },
          guard: (t, plan) => {
            if (action !== 'start') return;
            // Set off only on a school run still the driver's (a driver who left, or a cancelled plan, never does).
            if (plan?.status !== 'MATCHED' || plan.driverId !== t.driverId)
              throw new AppError(409, 'This school run is no longer yours', { status: plan?.status ?? null }).withCode('SCHOOL_TRIP_TRANSITION');
            if (t.date < dayOf(at)) throw new AppError(409, 'This trip’s day has passed', { status: t.status }).withCode('SCHOOL_TRIP_TRANSITION');
            if (at < t.pickupAt - START_AHEAD_MS)
              throw new ConflictError('Too early to set off', { notBefore: iso(t.pickupAt - START_AHEAD_MS) }).withCode('SCHOOL_TRIP_TOO_EARLY');
          },
          apply: (t, to) => ({
            ...t,
            status: to,
            ...(action === 'start' ? { startedAt: at } : action === 'pickUp' ? { pickedUpAt: at } : action === 'dropOff' ? { droppedOffAt: at } : {}),
            ...(action === 'cancel' ? { reason } : {}),
            updatedAt: at,
          }),
          now: at,
          missing: notFound,
          deadline: expiry(),
          // A retry of a move that happened (its answer lost) answers the trip as it is.
          tolerant: 'target',
        },
      );
      return moved.after;
    },

    /** The parent: the child does not go that day (both legs, or one), a school day of the plan from today on. */
    async skip(v: Viewer, planId: string, date: string, leg: Leg | undefined, reason: string | null): Promise<TripRecord[]> {
      const plan = await readRecord(plans().doc(planId));
      if (!plan || plan.parentId !== v.userId) throw new NotFoundError('No such school trip plan').withCode('NOT_FOUND');
      if (date < dayOf(now()) || legsOn(plan, date, zone).length === 0)
        throw new UnprocessableError('The plan runs no trip that day', { date }).withCode('SCHOOL_TRIP_NOT_A_SCHOOL_DAY');
      await setOut(planId, date);
      const legs = legsOn(plan, date, zone).filter((l) => leg === undefined || l.leg === leg);
      const at = now();
      const found = await Promise.all(legs.map((l) => readRecord(trips().doc(tripIdOf(planId, date, l.leg)))));
      // The legs not begun (or skipped already: asked again): a leg under way, done or expired is left as it is.
      const day = found
        .map((t) => t && tripDeadline.settle(t, at).entity)
        .filter((t): t is TripRecord => t !== undefined && (t.status === 'SCHEDULED' || t.status === 'SKIPPED'));
      if (day.length === 0)
        throw new ConflictError('Nothing left to skip that day (no driver yet, or the trips have begun)', { status: plan.status }).withCode(
          'SCHOOL_TRIP_TRANSITION',
        );
      const skipped: TripRecord[] = [];
      for (const t of day)
        skipped.push(
          (
            await transition(tripMachine, store(t.id), {
              action: 'skip',
              by: v.userId,
              reason,
              rolesOf: () => ['PARENT'],
              apply: (x, to) => ({ ...x, status: to, reason, updatedAt: at }),
              now: at,
              missing: notFound,
              deadline: expiry(),
              tolerant: 'target',
            })
          ).after,
        );
      return skipped;
    },

    /** A trip's timer (its task, at least once): expired when still not set off, or not closed, by its due time. */
    expire: (id: string, armedFor?: number) =>
      tripDeadline.run(id, {
        load: (tripId) => readRecord(trips().doc(tripId)),
        expire: (tripId) => {
          const at = now();
          return transition(tripMachine, store(tripId), {
            action: 'expire',
            by: TRIP_EXPIRED_BY,
            rolesOf: () => ['SYSTEM'],
            apply: (t, to) => expiredTrip(t, to, at),
            now: at,
            missing: notFound,
            deadline: expiry(),
            tolerant: 'refused',
          });
        },
        armedFor,
        now,
      }),

    /** A former driver's trips of the plan not yet begun, withdrawn (they left, or the plan was cancelled): from the plan's trigger, at least once. */
    async withdrawFrom(planId: string, driverId: string): Promise<number> {
      let withdrawn = 0;
      for (;;) {
        const waiting = await trips().where('planId', '==', planId).where('driverId', '==', driverId).where('status', '==', 'SCHEDULED').limit(100).get();
        const at = now();
        for (const d of waiting.docs)
          await transition(tripMachine, store(d.id), {
            action: 'withdraw',
            by: 'system:schools',
            reason: WITHDRAWN,
            rolesOf: () => ['SYSTEM'],
            apply: (x, to) => ({ ...x, status: to, reason: WITHDRAWN, updatedAt: at }),
            now: at,
            missing: notFound,
            deadline: expiry(),
            tolerant: 'refused',
          });
        withdrawn += waiting.size;
        if (waiting.size < 100) return withdrawn;
      }
    },
  };
}

/** The legs of a plan's day still to be run at `at`: one whose window has passed is never set out (nor given to a new driver). */
const legsAhead = (plan: PlanRecord, date: string, at: number) => legsOn(plan, date, zone).filter((l) => l.pickupAt + MISSED_AFTER_MS > at);

/** A day's trips as they stand at `at` (a timer passed reads EXPIRED), soonest pick-up first. */
const settledDay = (day: TripRecord[], at: number) => day.map((t) => tripDeadline.settle(t, at).entity).sort((a, b) => a.pickupAt - b.pickupAt);

function newTrip(plan: PlanRecord, date: string, leg: Leg, pickupAt: number, at: number): TripRecord {
  const [from, to] = leg === 'TO_SCHOOL' ? [plan.home, plan.school] : [plan.school, plan.home];
  return {
    id: tripIdOf(plan.id, date, leg),
    planId: plan.id,
    status: 'SCHEDULED',
    leg,
    date,
    pickupAt,
    from,
    to,
    childName: plan.childName,
    schoolName: plan.schoolName,
    parentId: plan.parentId,
    driverId: plan.driverId!,
    participants: [plan.parentId, plan.driverId!],
    startedAt: null,
    pickedUpAt: null,
    droppedOffAt: null,
    reason: null,
    createdAt: at,
    updatedAt: at,
  };
}
