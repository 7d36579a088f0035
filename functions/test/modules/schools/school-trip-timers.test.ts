import { randomUUID } from 'node:crypto';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { SCHOOL_TRIP_PLANS, SCHOOL_TRIPS } from '../../../src/modules/schools/schools.collections';
import { onPlanWritten, onTripWritten } from '../../../src/modules/schools/schools.triggers';
import { createSchoolTripDays } from '../../../src/modules/schools/schools.trips.days';
import { CLOSED_AFTER_MS, MISSED, MISSED_AFTER_MS, NOT_CLOSED } from '../../../src/modules/schools/schools.trips.model';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { inboxOf } from '../../helpers/notifications';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';

// School trips' timers and the driver's refusals: a trip never set off expires as missed an hour after its pick-up,
// one under way and never closed four hours after it (its driver freed); a timer's task delivered early changes
// nothing, delivered twice once; a trip read or moved past its due time is expired then. Also: setting off too early,
// or while on another trip, refused; one leg of a day skipped; the plan's trigger delivered twice tells the parent once.
beforeAll(requireEmulators);
jest.setTimeout(120_000);

let owner: PartnerOwner, parent: Tokens;
const here = area();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const localDate = (at: number) => new Date(at + 7 * HOUR).toISOString().slice(0, 10);
const localClock = (at: number) => new Date(at + 7 * HOUR).toISOString().slice(11, 16);
const stored = async (id: string) => (await db().collection(SCHOOL_TRIPS).doc(id).get()).data()!;

beforeAll(async () => {
  ({ owner, user: parent } = await partnerCast('Trường Mầm non Hoa Sen', 'Trường Khác'));
});

/** A matched plan whose legs today are due now and ten minutes ago (or in half an hour, just after midnight). */
async function matchedPlan(): Promise<{ planId: string; driver: Driver; now: number }> {
  const made = await call('POST', '/schools', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Trường Mầm non Hoa Sen',
      location: here.near(2_000),
      levels: ['PRIMARY'],
      curriculum: 'NATIONAL',
      schoolTrips: true,
    },
  });
  expect(made.status).toBe(201);
  const now = Date.now();
  const second = localDate(now - 10 * MINUTE) === localDate(now) ? now - 10 * MINUTE : now + 30 * MINUTE;
  const driver = await onlineDriver(here.near(400), { type: 'CAR' }, 'Tài xế Dũng', ['SCHOOL_TRIP']);
  const plan = await call('POST', '/school-trip-plans', {
    token: parent.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      schoolId: made.body.id,
      childName: 'Bé Bo',
      home: { ...here.near(0), address: '5 Lê Lợi' },
      term: { from: localDate(now), to: localDate(now + 10 * 24 * HOUR) },
      weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      toSchoolPickup: localClock(now),
      fromSchoolPickup: localClock(second),
    },
  });
  expect(plan.status).toBe(201);
  const accepted = await call('POST', `/school-trip-plans/${plan.body.id}/accept`, { token: driver.accessToken, body: {} });
  expect(accepted.body.status).toBe('MATCHED');
  return { planId: plan.body.id, driver, now };
}

describe('school trip timers', () => {
  it('a trip under way and never closed expires four hours after its pick-up, its driver freed; one never set off, an hour after', async () => {
    const { planId, driver, now } = await matchedPlan();
    const today = (await call('GET', '/school-trips', { token: driver.accessToken })).body.items as Array<{ id: string; leg: string; pickupAt: string }>;
    expect(today.map((t) => t.leg).sort()).toEqual(['FROM_SCHOOL', 'TO_SCHOOL']);
    const [am, pm] = ['TO_SCHOOL', 'FROM_SCHOOL'].map((leg) => today.find((t) => t.leg === leg)!);

    // Tomorrow's morning is too early to set off; today's first leg sets off; the second cannot while it runs.
    const tomorrow = (await call('GET', `/school-trips?date=${localDate(now + 24 * HOUR)}`, { token: driver.accessToken })).body.items;
    const early = await call('POST', `/school-trips/${tomorrow[0].id}/start`, { token: driver.accessToken, body: {} });
    expect([early.status, early.body.code, typeof early.body.details?.notBefore]).toEqual([409, 'SCHOOL_TRIP_TOO_EARLY', 'string']);
    expect((await call('POST', `/school-trips/${am.id}/start`, { token: driver.accessToken, body: {} })).body.status).toBe('EN_ROUTE');
    const busy = await call('POST', `/school-trips/${pm.id}/start`, { token: driver.accessToken, body: {} });
    expect([busy.status, busy.body.code]).toEqual([409, 'SCHOOL_TRIP_DRIVER_BUSY']);
    expect((await stored(pm.id)).status).toBe('SCHEDULED');

    // The first leg, under way four hours after its pick-up: the driver's next move finds it EXPIRED (refused), the
    // driver freed in the same transaction.
    const pickup = Date.parse(am.pickupAt);
    const late = createSchoolTripDays(testConfig(), () => pickup + CLOSED_AFTER_MS + MINUTE);
    expect(await createSchoolTripDays(testConfig(), () => pickup + HOUR).get({ userId: parent.user.id }, am.id)).toMatchObject({ status: 'EN_ROUTE' });
    await expect(late.move({ userId: driver.user.id }, am.id, 'pickUp', null)).rejects.toMatchObject({ code: 'SCHOOL_TRIP_TRANSITION' });
    expect(await stored(am.id)).toMatchObject({ status: 'EXPIRED', reason: NOT_CLOSED, droppedOffAt: null });
    const location = (await db().collection(DRIVER_LOCATIONS).doc(driver.user.id).get()).data()!;
    expect(location).toMatchObject({ currentJobId: null, sharedWithId: null });
    expect(await late.expire(am.id)).toBe('settled'); // its task comes after: nothing left to do
    for (const who of [parent.user.id, driver.user.id])
      await waitFor(async () => ((await inboxOf(who, { entityId: am.id, event: 'school.trip.expired' })).length === 1 ? true : undefined), {
        what: 'parent and driver told the trip was closed',
      });

    // The second leg, never set off: read past its window it shows EXPIRED (stored unchanged until moved or its task runs).
    const pmPickup = Date.parse(pm.pickupAt);
    const afterWindow = createSchoolTripDays(testConfig(), () => pmPickup + MISSED_AFTER_MS + MINUTE);
    expect(await afterWindow.get({ userId: parent.user.id }, pm.id)).toMatchObject({ status: 'EXPIRED', reason: MISSED });
    expect((await stored(pm.id)).status).toBe('SCHEDULED');
    // Its task delivered early changes nothing (the queue retries later); one armed for an earlier due time settles.
    await expect(createSchoolTripDays(testConfig(), () => pmPickup).expire(pm.id)).rejects.toThrow(/not due yet/);
    expect(await afterWindow.expire(pm.id, pmPickup)).toBe('settled');
    expect((await stored(pm.id)).status).toBe('SCHEDULED');
    // Due, delivered twice: expired once (one event), the parent told.
    expect(await afterWindow.expire(pm.id, pmPickup + MISSED_AFTER_MS)).toBe('expired');
    expect(await afterWindow.expire(pm.id, pmPickup + MISSED_AFTER_MS)).toBe('settled');
    expect(await stored(pm.id)).toMatchObject({ status: 'EXPIRED', reason: MISSED });
    const events = await db().collection(SCHOOL_TRIPS).doc(pm.id).collection('events').where('action', '==', 'expire').get();
    expect(events.size).toBe(1);
    await expect(afterWindow.move({ userId: driver.user.id }, pm.id, 'cancel', 'Kẹt xe')).rejects.toMatchObject({ code: 'SCHOOL_TRIP_TRANSITION' });
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: pm.id, event: 'school.trip.expired' })).length === 1 ? true : undefined), {
      what: 'the parent told the trip was missed',
    });
    expect((await call('GET', `/school-trip-plans/${planId}`, { token: parent.accessToken })).body.status).toBe('MATCHED');
  });

  it('one leg of a day skipped, the other kept; a trip armed on each status with a timer; the plan trigger twice tells once', async () => {
    const { planId, driver, now } = await matchedPlan();
    const day = localDate(now + 48 * HOUR);
    const skipped = await call('POST', `/school-trip-plans/${planId}/days/${day}/skip`, {
      token: parent.accessToken,
      body: { leg: 'FROM_SCHOOL', reason: 'Về với bà' },
    });
    expect(skipped.body.items).toMatchObject([{ leg: 'FROM_SCHOOL', status: 'SKIPPED', reason: 'Về với bà' }]);
    const both = (await call('GET', `/school-trips?date=${day}`, { token: driver.accessToken })).body.items as Array<{ leg: string; status: string }>;
    expect(Object.fromEntries(both.map((t) => [t.leg, t.status]))).toEqual({ TO_SCHOOL: 'SCHEDULED', FROM_SCHOOL: 'SKIPPED' });
    expect((await call('POST', `/school-trip-plans/${planId}/days/${day}/skip`, { token: parent.accessToken, body: { leg: 'AFTERNOON' } })).status).toBe(400);

    // The trigger arms the status's timer at its due time (phase: the status) and tells its step.
    const trip = both.find((t) => t.leg === 'TO_SCHOOL') as unknown as { id: string; pickupAt: string };
    const data = await stored(trip.id);
    const pickupAt = Date.parse(trip.pickupAt);
    const scheduled: Array<[string, number, string | undefined]> = [];
    const told: string[] = [];
    const work = (at: number) => ({
      hub: { dispatch: async (n: { event: string }) => (told.push(n.event), []) },
      deadlines: { schedule: async (id: string, delaySec: number, phase?: string) => void scheduled.push([id, delaySec, phase]) },
      now: at,
    });
    const change = (before: Record<string, unknown> | null, after: Record<string, unknown>): DocumentEvent => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: before ? { id: trip.id, data: before } : undefined,
      after: { id: trip.id, data: after },
    });
    const enRoute = { ...data, status: 'EN_ROUTE', startedAt: data.pickupAt };
    const onBoard = { ...enRoute, status: 'ON_BOARD', pickedUpAt: data.pickupAt };
    await onTripWritten(change(null, data), testConfig(), work(pickupAt - HOUR));
    await onTripWritten(change(data, enRoute), testConfig(), work(pickupAt));
    await onTripWritten(change(enRoute, onBoard), testConfig(), work(pickupAt + 10 * MINUTE));
    await onTripWritten(change(onBoard, { ...onBoard, status: 'ARRIVED' }), testConfig(), work(pickupAt + 30 * MINUTE));
    // One task per due time: set off and then on board keep the one the trip had under way.
    expect(scheduled).toEqual([
      [trip.id, (HOUR + MISSED_AFTER_MS) / 1000, String(pickupAt + MISSED_AFTER_MS)],
      [trip.id, CLOSED_AFTER_MS / 1000, String(pickupAt + CLOSED_AFTER_MS)],
      [trip.id, CLOSED_AFTER_MS / 1000 - 600, String(pickupAt + CLOSED_AFTER_MS)],
    ]);
    expect(told).toEqual(['school.trip.started', 'school.trip.pickedUp', 'school.trip.droppedOff']);
    // A day whose pick-ups are past their window when first asked for is never set out (nobody can run it now).
    const later = localDate(now + 72 * HOUR);
    const times = (await call('GET', `/school-trip-plans/${planId}`, { token: parent.accessToken })).body as {
      toSchoolPickup: string;
      fromSchoolPickup: string;
    };
    const lastPickup = Math.max(...[times.toSchoolPickup, times.fromSchoolPickup].map((t) => Date.parse(`${later}T${t}:00+07:00`)));
    const pastWindow = createSchoolTripDays(testConfig(), () => lastPickup + MISSED_AFTER_MS + MINUTE);
    expect(await pastWindow.day({ userId: driver.user.id }, later)).toEqual([]);
    expect((await call('GET', `/school-trips?date=${later}`, { token: driver.accessToken })).body.items).toHaveLength(2);

    // The plan's trigger delivered twice more for its match: the parent told once.
    const plan = (await db().collection(SCHOOL_TRIP_PLANS).doc(planId).get()).data()!;
    const planChange = (): DocumentEvent => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: { id: planId, data: { ...plan, status: 'SEEKING_DRIVER', driverId: null } },
      after: { id: planId, data: plan },
    });
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: planId, event: 'school.trip.matched' })).length === 1 ? true : undefined), {
      what: 'the parent told of the match',
    });
    for (let i = 0; i < 2; i++) await onPlanWritten(planChange(), testConfig());
    expect(await inboxOf(parent.user.id, { entityId: planId, event: 'school.trip.matched' })).toHaveLength(1);
    expect(driver.user.id).toBe(plan.driverId);
  });
});
