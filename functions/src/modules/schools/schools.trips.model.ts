import * as z from 'zod/mini';
import { WEEKDAYS, type Weekday } from '../../platform/kits/catalog/hours';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { atLocal, datesBetween, weekdayOf } from '../../platform/kits/inventory/units';
import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import { SCHOOL_TRIP_QUEUE } from './schools.collections';

// School trips: a parent subscribes a child to a term's pick-up and drop-off between home and school (a plan); a
// driver with the SCHOOL_TRIP capability takes the plan for the term (offered on the dispatch pool, first to accept);
// each school day's legs are trips the driver starts (then the parent follows the car live), picks up and drops off.

export const PLAN_STATUSES = ['SEEKING_DRIVER', 'MATCHED', 'CANCELLED'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export type PlanAction = 'accept' | 'leave' | 'cancel';
export type PlanActor = 'PARENT' | 'DRIVER' | 'ADMIN';

export const planMachine = defineMachine<PlanStatus, PlanAction, PlanActor>({
  entity: 'school trip plan',
  states: PLAN_STATUSES,
  moves: {
    accept: { from: 'SEEKING_DRIVER', to: 'MATCHED', by: 'DRIVER' },
    // The driver gives the rest of the term up: offered again.
    leave: { from: 'MATCHED', to: 'SEEKING_DRIVER', by: 'DRIVER' },
    cancel: { from: ['SEEKING_DRIVER', 'MATCHED'], to: 'CANCELLED', by: ['PARENT', 'ADMIN'] },
  },
  codes: { transition: 'SCHOOL_TRIP_TRANSITION', actor: 'SCHOOL_TRIP_NOT_ALLOWED' },
});

export const TRIP_STATUSES = ['SCHEDULED', 'EN_ROUTE', 'ON_BOARD', 'ARRIVED', 'SKIPPED', 'CANCELLED', 'EXPIRED'] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];
export type TripAction = 'start' | 'pickUp' | 'dropOff' | 'skip' | 'cancel' | 'withdraw' | 'expire';
export type TripActor = 'PARENT' | 'DRIVER' | 'SYSTEM';

export const tripMachine = defineMachine<TripStatus, TripAction, TripActor>({
  entity: 'school trip',
  states: TRIP_STATUSES,
  moves: {
    start: { from: 'SCHEDULED', to: 'EN_ROUTE', by: 'DRIVER' },
    pickUp: { from: 'EN_ROUTE', to: 'ON_BOARD', by: 'DRIVER' },
    dropOff: { from: 'ON_BOARD', to: 'ARRIVED', by: 'DRIVER' },
    // The child does not go that day (the parent).
    skip: { from: 'SCHEDULED', to: 'SKIPPED', by: 'PARENT' },
    // The driver cannot make it (before the child is on board).
    cancel: { from: ['SCHEDULED', 'EN_ROUTE'], to: 'CANCELLED', by: 'DRIVER' },
    // The plan lost its driver (left, or the plan cancelled): its trips not yet begun.
    withdraw: { from: 'SCHEDULED', to: 'CANCELLED', by: 'SYSTEM' },
    // Its timer (tripDeadline): never set off within the pick-up window, or never closed by the driver.
    expire: { from: ['SCHEDULED', 'EN_ROUTE', 'ON_BOARD'], to: 'EXPIRED', by: 'SYSTEM' },
  },
  codes: { transition: 'SCHOOL_TRIP_TRANSITION', actor: 'SCHOOL_TRIP_NOT_ALLOWED' },
});

/** The day names by `weekdayOf`'s number (0: Sunday). */
const BY_DAY_NUMBER: readonly Weekday[] = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
export const LEGS = ['TO_SCHOOL', 'FROM_SCHOOL'] as const;
export type Leg = (typeof LEGS)[number];

const place = () => z.object({ lat: z.number(), lng: z.number(), address: z.string() });

/** `school_trip_plans/{id}`: the plan its parent and its driver listen to. */
export const planDocument = lazySchema(() =>
  describe(
    z.object({
      status: describe(z.enum(PLAN_STATUSES), 'SEEKING_DRIVER → MATCHED (a driver took it) → CANCELLED; a driver leaving puts it back to SEEKING_DRIVER.'),
      parentId: z.string(),
      schoolId: z.string(),
      schoolName: z.string(),
      childName: z.string(),
      home: describe(place(), 'Where the child is picked up in the morning and dropped off in the afternoon.'),
      school: describe(place(), "The school's address."),
      distanceM: describe(z.number(), 'Home to school, straight line, metres.'),
      term: describe(z.object({ from: z.string(), to: z.string() }), 'First and last day (YYYY-MM-DD, Vietnam time).'),
      weekdays: z.array(z.enum(WEEKDAYS)),
      toSchoolPickup: describe(z.nullable(z.string()), 'Pick-up time at home (HH:MM), or null: no morning leg.'),
      fromSchoolPickup: describe(z.nullable(z.string()), 'Pick-up time at school (HH:MM), or null: no afternoon leg.'),
      driverId: describe(z.nullable(z.string()), 'The driver who took the term.'),
      driver: describe(z.nullable(z.object({ name: z.string() })), "The driver's card for the parent."),
      participants: describe(z.array(z.string()), 'The parent and, once matched, the driver: who may read this document (firestore.rules).'),
      geohash: describe(z.string(), "The home's geohash (drivers find plans near them)."),
      createdAt: timestamp('when the parent subscribed.'),
      updatedAt: timestamp('last change.'),
    }),
    "A child's school run for a term, read live by the parent and the driver.",
  ),
);
export type PlanRecord = Identified & RecordOf<typeof planDocument>;

/** `school_trips/{id}`: one leg of one day, read live by the parent and the driver. */
export const tripDocument = lazySchema(() =>
  describe(
    z.object({
      planId: z.string(),
      status: describe(
        z.enum(TRIP_STATUSES),
        'SCHEDULED → EN_ROUTE (the driver set off: follow `driver_locations/{driverId}`) → ON_BOARD → ARRIVED; SKIPPED; CANCELLED; EXPIRED (its timer: `reason` says which).',
      ),
      leg: z.enum(LEGS),
      date: describe(z.string(), 'The school day (YYYY-MM-DD).'),
      pickupAt: timestamp('when the child is picked up (the plan’s time that day).'),
      from: place(),
      to: place(),
      childName: z.string(),
      schoolName: z.string(),
      parentId: z.string(),
      driverId: z.string(),
      participants: describe(z.array(z.string()), 'The parent and the driver (firestore.rules).'),
      startedAt: nullableTimestamp('when the driver set off.'),
      pickedUpAt: nullableTimestamp('when the child got in.'),
      droppedOffAt: nullableTimestamp('when the child arrived.'),
      reason: describe(z.nullable(z.string()), `Why it was skipped or cancelled; EXPIRED: "${MISSED}" or "${NOT_CLOSED}".`),
      createdAt: timestamp('when the day’s trip was set out.'),
      updatedAt: timestamp('last change.'),
    }),
    'One leg of a school day, read live by the parent and the driver.',
  ),
);
export type TripRecord = Identified & RecordOf<typeof tripDocument>;

/** A trip not set off this long after its pick-up time expires (missed: the family has made other arrangements). */
export const MISSED_AFTER_MS = 60 * 60_000;
/** A trip under way but not closed this long after its pick-up time expires (the driver freed for other work). */
export const CLOSED_AFTER_MS = 4 * 60 * 60_000;
export const TRIP_EXPIRED_BY = 'system:school-trips';
/** An EXPIRED trip's `reason` when the driver never set off. */
export const MISSED = 'The driver did not set off in time';
/** An EXPIRED trip's `reason` when the driver set off but never dropped the child off. */
export const NOT_CLOSED = 'The driver did not close the trip';

const tripDueAt = (t: TripRecord) =>
  t.status === 'SCHEDULED' ? t.pickupAt + MISSED_AFTER_MS : t.status === 'EN_ROUTE' || t.status === 'ON_BOARD' ? t.pickupAt + CLOSED_AFTER_MS : null;

/** The trip expired by its timer: `reason` MISSED (never set off) or NOT_CLOSED (set off, never dropped off). */
export const expiredTrip = (t: TripRecord, to: TripStatus, at: number): TripRecord => ({
  ...t,
  status: to,
  reason: t.status === 'SCHEDULED' ? MISSED : NOT_CLOSED,
  updatedAt: at,
});

/**
 * A trip's timer: one task per due time (the phase: a trip set off and then on board keeps the one task), carrying
 * the due time it was armed for (a task armed before the trip set off settles quietly); expired lazily on read too.
 */
export const tripDeadline = defineDeadline<TripRecord, TripStatus, TripAction, 'tripId', { tripId: string; armedFor?: string }>({
  entity: 'school trip',
  queue: SCHOOL_TRIP_QUEUE,
  idField: 'tripId',
  payloadOf: (t) => ({ tripId: t.id, armedFor: String(tripDueAt(t)) }),
  taskId: (id, phase) => `school-trip-${id}-${phase ?? 'due'}`,
  dueAt: tripDueAt,
  expiry: { machine: tripMachine, action: 'expire', by: TRIP_EXPIRED_BY, apply: expiredTrip },
});

/** A trip's id: one per plan, day and leg, so setting a day out twice writes nothing new. */
export const tripIdOf = (planId: string, date: string, leg: Leg) => `${planId}_${date.replaceAll('-', '')}_${leg === 'TO_SCHOOL' ? 'AM' : 'PM'}`;

/** The legs a plan runs on a local day (none outside its term or weekdays), with their pick-up times. */
export function legsOn(
  plan: Pick<PlanRecord, 'term' | 'weekdays' | 'toSchoolPickup' | 'fromSchoolPickup'>,
  date: string,
  timeZone: string,
): Array<{ leg: Leg; pickupAt: number }> {
  if (date < plan.term.from || date > plan.term.to || !plan.weekdays.includes(BY_DAY_NUMBER[weekdayOf(date)])) return [];
  const legs: Array<{ leg: Leg; pickupAt: number }> = [];
  if (plan.toSchoolPickup) legs.push({ leg: 'TO_SCHOOL', pickupAt: atLocal(date, plan.toSchoolPickup, timeZone) });
  if (plan.fromSchoolPickup) legs.push({ leg: 'FROM_SCHOOL', pickupAt: atLocal(date, plan.fromSchoolPickup, timeZone) });
  return legs;
}

/** The school days of a plan's term (its weekdays), for the term's count. */
export const schoolDaysOf = (plan: Pick<PlanRecord, 'term' | 'weekdays'>) =>
  datesBetween(plan.term.from, plan.term.to).filter((d) => plan.weekdays.includes(BY_DAY_NUMBER[weekdayOf(d)]));
