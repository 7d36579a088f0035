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

  /** A plan's trips of a day, the missing ones created while the plan is MATCHED and the day one of its school days. */
  function setOut(planId: string, date: string): Promise<TripRecord[]> {
    return inTransaction(async (tx) => {
      const plan = await readRecord(plans().doc(planId), tx);
      if (!plan) return [];
      const legs = legsOn(plan, date, zone);
      const refs = legs.map((l) => trips().doc(tripIdOf(plan.id, date, l.leg)));
      const found = refs.length ? await tx.getAll(...refs) : [];
      const at = now();
      return legs.flatMap((l, i) => {
        const existing = found[i].data();
        if (existing) return [existing];
        if (plan.status !== 'MATCHED' || !plan.driverId) return [];
        const trip = newTrip(plan, date, l.leg, l.pickupAt, at);
        tx.create(refs[i], trip);
        return [trip];
      });
    });
  }

  async function load(v: Viewer, id: string) {
    const trip = await readRecord(trips().doc(id));
    if (!trip || !trip.participants.includes(v.userId)) throw notFound();
    return trip;
  }

  return {
    /** The caller's trips of a day (today unless `date`), as the parent or the driver, soonest pick-up first. */
    async day(v: Viewer, date?: string): Promise<TripRecord[]> {
      const on = date ?? dayOf(now());
      const [asParent, asDriver] = await Promise.all(
        (['parentId', 'driverId'] as const).map((field) =>
          plans().where(field, '==', v.userId).where('status', '==', 'MATCHED').limit(MAX_PLANS_PER_DAY).get(),
        ),
      );
      const ids = [...new Set([...asParent.docs, ...asDriver.docs].map((d) => d.id))];
      const all = (await Promise.all(ids.map((id) => setOut(id, on)))).flat();
      return all.filter((t) => t.participants.includes(v.userId)).sort((a, b) => a.pickupAt - b.pickupAt);
    },

    get: load,

    /** A driver's move on their trip: set off (claimed and shared with the parent), child on board, dropped off (freed), cancel. */
    async move(v: Viewer, id: string, action: Exclude<TripAction, 'skip'>, reason: string | null): Promise<TripRecord> {
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
          },
          guard: (t) => {
            if (action !== 'start') return;
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
      const day = (await setOut(planId, date)).filter((t) => leg === undefined || t.leg === leg);
      if (day.length === 0) throw new ConflictError('The plan has no driver for that day', { status: plan.status }).withCode('SCHOOL_TRIP_TRANSITION');
      const at = now();
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
              tolerant: 'target',
            })
          ).after,
        );
      return skipped;
    },

    /** The plan's trips not yet under way, cancelled (its driver left, or it was cancelled): from the plan's trigger, at least once. */
    async cancelScheduled(plan: PlanRecord, reason: string): Promise<number> {
      const waiting = await trips().where('planId', '==', plan.id).where('status', '==', 'SCHEDULED').limit(100).get();
      const at = now();
      for (const d of waiting.docs)
        await transition(tripMachine, store(d.id), {
          action: 'cancel',
          by: 'system:schools',
          reason,
          rolesOf: () => ['SYSTEM'],
          apply: (x, to) => ({ ...x, status: to, reason, updatedAt: at }),
          now: at,
          missing: notFound,
          tolerant: 'refused',
        });
      return waiting.size;
    },
  };
}

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
