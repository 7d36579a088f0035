import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { jobPool } from '../driver';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { OFFER_RADIUS_M } from './schools.trips';
import { createSchoolTripDays, WITHDRAWN } from './schools.trips.days';
import { MISSED, planDocument, tripDeadline, tripDocument, type PlanRecord, type TripRecord } from './schools.trips.model';
import { SCHOOL_EVENTS } from './schools.events';
import { SCHOOL_TEXTS } from './schools.texts';

// School trips' notices and follow-ups, at least once (the hub drops a notice it has for the same entity and
// occurrence): a plan seeking a driver is offered to the free SCHOOL_TRIP drivers near home; matched, left and
// cancelled plans tell the other side (and a plan losing its driver withdraws that driver's trips not yet begun); each trip's
// step tells the parent (a skipped one, the driver).

/** Free SCHOOL_TRIP drivers a new plan is offered to. */
export const OFFERED_DRIVERS = 10;

export interface PlanTriggerWork {
  hub: Pick<Hub, 'dispatch'>;
  nearbyDrivers(plan: PlanRecord): Promise<string[]>;
  withdrawFrom(planId: string, driverId: string): Promise<number>;
}

const about = (p: PlanRecord) => ({ child: p.childName, school: p.schoolName });

export const onPlanWritten = typedTrigger(
  collectionRecords<PlanRecord>(planDocument),
  async ({ before, after }, config: Readonly<AppConfig>, work?: PlanTriggerWork) => {
    if (!after || before?.status === after.status) return 'nothing';
    const w: PlanTriggerWork = work ?? {
      hub: notificationHub(config),
      nearbyDrivers: async (p) =>
        (await jobPool.nearbyAvailable(p.home, OFFER_RADIUS_M, 'SCHOOL_TRIP', OFFERED_DRIVERS, Date.now(), { exclude: [p.parentId] })).map((d) => d.userId),
      withdrawFrom: (planId, driverId) => createSchoolTripDays(config).withdrawFrom(planId, driverId),
    };
    const notice = (event: string, userIds: string[], surface: 'CON' | 'DRV', text: 'offered' | 'matched' | 'driverLeft' | 'planCancelled') =>
      SCHOOL_EVENTS.notice({
        event,
        recipients: userIds.map((userId) => ({ userId, surface })),
        entityId: after.id,
        occurrence: String(after.updatedAt),
        text: SCHOOL_TEXTS.text(text, about(after)),
        params: { planId: after.id },
      });
    const notices: DispatchInput[] = [];
    if (after.status === 'SEEKING_DRIVER') {
      if (before?.driverId) {
        notices.push(notice('school.trip.driverLeft', [after.parentId], 'CON', 'driverLeft'));
        await w.withdrawFrom(after.id, before.driverId);
      }
      const drivers = (await w.nearbyDrivers(after)).filter((id) => id !== before?.driverId);
      if (drivers.length) notices.push(notice('school.trip.offered', drivers, 'DRV', 'offered'));
    } else if (after.status === 'MATCHED') notices.push(notice('school.trip.matched', [after.parentId], 'CON', 'matched'));
    else if (after.status === 'CANCELLED') {
      if (before?.driverId) {
        notices.push(notice('school.trip.planCancelled', [before.driverId], 'DRV', 'planCancelled'));
        await w.withdrawFrom(after.id, before.driverId);
      }
    }
    for (const n of notices) await w.hub.dispatch(n);
    return `${after.status.toLowerCase()}, told ${notices.reduce((sum, n) => sum + n.recipients.length, 0)}`;
  },
);

const TRIP_STEP = { EN_ROUTE: 'started', ON_BOARD: 'pickedUp', ARRIVED: 'droppedOff', SKIPPED: 'skipped', CANCELLED: 'cancelled', EXPIRED: 'expired' } as const;

/**
 * A trip's step as told: the parent hears the car set off, the child on board and arrived, a cancellation (not each
 * trip withdrawn with a driver who left: the plan's notice says it); the driver hears a skip; both hear a trip
 * expired (missed: never set off; or closed: never dropped off).
 */
export function tripNotice(t: TripRecord): DispatchInput | undefined {
  if (t.status === 'SCHEDULED' || t.reason === WITHDRAWN) return undefined;
  const step = TRIP_STEP[t.status];
  const parent = { userId: t.parentId, surface: 'CON' as const };
  const driver = { userId: t.driverId, surface: 'DRV' as const };
  const about = { child: t.childName, school: t.schoolName, leg: t.leg };
  return SCHOOL_EVENTS.notice({
    event: `school.trip.${step}`,
    recipients: step === 'skipped' ? [driver] : step === 'expired' ? [parent, driver] : [parent],
    entityId: t.id,
    text: step === 'expired' ? SCHOOL_TEXTS.text(t.reason === MISSED ? 'missed' : 'notClosed', about) : SCHOOL_TEXTS.text(step, about),
    params: { tripId: t.id, planId: t.planId },
  });
}

export interface TripTriggerWork {
  hub: Pick<Hub, 'dispatch'>;
  deadlines: DeadlineScheduler<{ tripId: string; armedFor?: string }>;
  now: number;
}

/** At least once, on every status change of a trip: its timer armed (a status that has one), then its step told. */
export const onTripWritten = typedTrigger(
  collectionRecords<TripRecord>(tripDocument),
  async ({ before, after }, config: Readonly<AppConfig>, work?: TripTriggerWork) => {
    if (!after || before?.status === after.status) return 'nothing';
    const w: TripTriggerWork = work ?? { hub: notificationHub(config), deadlines: tripDeadline.scheduler, now: Date.now() };
    const due = tripDeadline.dueAt(after);
    if (due !== null) await tripDeadline.arm(w.deadlines, after, w.now, String(due));
    const n = tripNotice(after);
    if (!n) return after.status === 'SCHEDULED' ? 'scheduled, timer armed' : 'nothing';
    await w.hub.dispatch(n);
    return `${after.status.toLowerCase()}, told`;
  },
);
