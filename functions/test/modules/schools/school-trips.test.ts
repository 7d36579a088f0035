import { randomUUID } from 'node:crypto';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { SCHOOL_TRIPS } from '../../../src/modules/schools/schools.collections';
import { onTripWritten } from '../../../src/modules/schools/schools.triggers';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { onlineDriver, type Driver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { inboxOf } from '../../helpers/notifications';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';

// School trips through the API: a parent subscribes a child for a term (bad terms, a school without trips and a home
// too far refused), SCHOOL_TRIP drivers near home see the plan and race to take it (one wins), the day's trip is set
// out, the driver sets off (taken off the pool and shared with the parent live), picks up and drops off; the parent
// skips a day ahead; strangers see nothing; the trip's notice is told once when its trigger is delivered twice.
beforeAll(requireEmulators);
jest.setTimeout(120_000);

let owner: PartnerOwner, parent: Tokens;
const here = area();
const HOUR = 3_600_000;
const localDate = (at: number) => new Date(at + 7 * HOUR).toISOString().slice(0, 10);
const localClock = (at: number) => new Date(at + 7 * HOUR).toISOString().slice(11, 16);

beforeAll(async () => {
  ({ owner, user: parent } = await partnerCast('Trường Tiểu học Ánh Dương', 'Trường Khác'));
});

async function school(schoolTrips: boolean) {
  const made = await call('POST', '/schools', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Trường Tiểu học Ánh Dương',
      location: here.near(3_000),
      levels: ['PRIMARY'],
      curriculum: 'NATIONAL',
      schoolTrips,
    },
  });
  expect(made.status).toBe(201);
  return made.body.id as string;
}

describe('school trips', () => {
  it('a term subscribed, taken by the first SCHOOL_TRIP driver, its day run live; strangers and bad input refused', async () => {
    const [schoolId, noTrips] = [await school(true), await school(false)];
    const now = Date.now();
    const plan = (over: Record<string, unknown> = {}) => ({
      schoolId,
      childName: 'Bé Na',
      home: { ...here.near(0), address: '12 Nguyễn Huệ, Quận 1' },
      term: { from: localDate(now), to: localDate(now + 30 * 24 * HOUR) },
      weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      toSchoolPickup: localClock(now), // this morning's leg is due now: the driver may set off at once
      fromSchoolPickup: null,
      ...over,
    });
    const subscribe = (body: Record<string, unknown>, key = randomUUID()) =>
      call('POST', '/school-trip-plans', { token: parent.accessToken, headers: { 'idempotency-key': key }, body });
    expect((await subscribe(plan({ schoolId: noTrips }))).body.code).toBe('SCHOOL_TRIPS_NOT_OFFERED');
    expect((await subscribe(plan({ home: { ...here.near(40_000), address: 'Xa quá' } }))).body.code).toBe('SCHOOL_TRIP_TOO_FAR');
    const reversed = await subscribe(plan({ term: { from: localDate(now + 48 * HOUR), to: localDate(now) } }));
    expect([reversed.status, reversed.body.details[0].field]).toEqual([400, 'body.term.to']);
    expect((await subscribe(plan({ toSchoolPickup: null }))).status).toBe(400); // no leg at all
    expect((await subscribe(plan({ toSchoolPickup: '7:30' }))).status).toBe(400);

    // Free drivers near home: the SCHOOL_TRIP ones are offered the plan when it is made.
    const [d1, d2] = await Promise.all([
      onlineDriver(here.near(500), { type: 'CAR' }, 'Tài xế An', ['RIDE', 'SCHOOL_TRIP']),
      onlineDriver(here.near(800), { type: 'CAR' }, 'Tài xế Bình', ['RIDE', 'SCHOOL_TRIP']),
    ]);
    const plain = await onlineDriver(here.near(600), { type: 'CAR' }, 'Tài xế Cường', ['RIDE']);
    const key = randomUUID();
    const made = await subscribe(plan(), key);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: 'SEEKING_DRIVER', driverId: null, schoolName: 'Trường Tiểu học Ánh Dương' });
    expect((await subscribe(plan(), key)).body.id).toBe(made.body.id);
    const planId = made.body.id as string;
    for (const d of [d1, d2])
      await waitFor(async () => ((await inboxOf(d.user.id, { entityId: planId, event: 'school.trip.offered' })).length === 1 ? true : undefined), {
        what: 'a SCHOOL_TRIP driver offered the plan',
      });
    expect(await inboxOf(plain.user.id, { entityId: planId })).toEqual([]);

    const offers = await call('GET', '/school-trip-plans/offers', { token: d1.accessToken });
    const offered = offers.body.items.find((o: { planId: string }) => o.planId === planId);
    expect(offered).toMatchObject({ schoolName: 'Trường Tiểu học Ánh Dương', weekdays: expect.any(Array) });
    expect(offered.childName ?? offered.home ?? offered.parentId).toBeUndefined(); // the child and home only once taken
    expect((await call('GET', '/school-trip-plans/offers', { token: plain.accessToken })).body.code).toBe('SCHOOL_TRIP_NOT_CAPABLE');
    expect((await call('POST', `/school-trip-plans/${planId}/accept`, { token: plain.accessToken, body: {} })).body.code).toBe('SCHOOL_TRIP_NOT_CAPABLE');

    // Two drivers accept at once: one takes the term, the other is told it is taken.
    const race = await Promise.all([d1, d2].map((d) => call('POST', `/school-trip-plans/${planId}/accept`, { token: d.accessToken, body: {} })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner: Driver = race[0].status === 200 ? d1 : d2;
    const loser: Driver = winner === d1 ? d2 : d1;
    expect(race.find((r) => r.status === 409)!.body.code).toBe('SCHOOL_TRIP_TRANSITION');
    // The winner's accept retried after a lost answer: the plan as it is, not a refusal.
    expect((await call('POST', `/school-trip-plans/${planId}/accept`, { token: (race[0].status === 200 ? d1 : d2).accessToken, body: {} })).status).toBe(200);
    expect(race.find((r) => r.status === 200)!.body).toMatchObject({ status: 'MATCHED', driverId: winner.user.id, driver: { name: expect.any(String) } });
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: planId, event: 'school.trip.matched' })).length === 1 ? true : undefined), {
      what: 'the parent told of the match',
    });

    // The day: the same trip for the parent and the driver; nobody else sees it.
    const day = await call('GET', '/school-trips', { token: parent.accessToken });
    expect(day.body.items).toHaveLength(1);
    const trip = day.body.items[0];
    expect(trip).toMatchObject({ planId, status: 'SCHEDULED', leg: 'TO_SCHOOL', date: localDate(now), driverId: winner.user.id });
    expect((await call('GET', '/school-trips', { token: winner.accessToken })).body.items.map((t: { id: string }) => t.id)).toEqual([trip.id]);
    const stranger = await registerVerified();
    for (const who of [stranger, loser]) {
      expect((await call('GET', `/school-trips/${trip.id}`, { token: who.accessToken })).status).toBe(404);
      expect((await call('GET', `/school-trip-plans/${planId}`, { token: who.accessToken })).status).toBe(404);
    }
    expect((await call('POST', `/school-trips/${trip.id}/start`, { token: loser.accessToken, body: {} })).status).toBe(404);
    expect((await call('POST', `/school-trips/${trip.id}/pick-up`, { token: winner.accessToken, body: {} })).body.code).toBe('SCHOOL_TRIP_TRANSITION');

    // Setting off: the driver is on the trip as a job and shares the position with the parent.
    const started = await call('POST', `/school-trips/${trip.id}/start`, { token: winner.accessToken, body: {} });
    expect(started.body).toMatchObject({ status: 'EN_ROUTE', startedAt: expect.any(String) });
    const restarted = await call('POST', `/school-trips/${trip.id}/start`, { token: winner.accessToken, body: {} }); // a retry
    expect(restarted.body).toMatchObject({ status: 'EN_ROUTE', startedAt: started.body.startedAt });
    const located = async () => (await db().collection(DRIVER_LOCATIONS).doc(winner.user.id).get()).data()!;
    expect(await located()).toMatchObject({ currentJobId: trip.id, currentJobKind: 'SCHOOL_TRIP', sharedWithId: parent.user.id, dispatchKey: null });
    expect((await call('POST', `/school-trips/${trip.id}/pick-up`, { token: winner.accessToken, body: {} })).body.status).toBe('ON_BOARD');
    expect((await call('POST', `/school-trips/${trip.id}/drop-off`, { token: winner.accessToken, body: {} })).body).toMatchObject({
      status: 'ARRIVED',
      droppedOffAt: expect.any(String),
    });
    expect(await located()).toMatchObject({ currentJobId: null, sharedWithId: null });
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: trip.id, event: 'school.trip.droppedOff' })).length === 1 ? true : undefined), {
      what: 'the parent told the child arrived',
    });

    // The trip's trigger delivered twice more: still one notice.
    const stored = (await db().collection(SCHOOL_TRIPS).doc(trip.id).get()).data()!;
    const change = (): DocumentEvent => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: { id: trip.id, data: { ...stored, status: 'ON_BOARD' } },
      after: { id: trip.id, data: stored },
    });
    for (let i = 0; i < 2; i++) await onTripWritten(change(), testConfig());
    expect(await inboxOf(parent.user.id, { entityId: trip.id, event: 'school.trip.droppedOff' })).toHaveLength(1);

    // Tomorrow skipped ahead by the parent; the driver's day shows it; a day outside the term is refused.
    const tomorrow = localDate(now + 24 * HOUR);
    const skip = (date: string, who: Tokens = parent) =>
      call('POST', `/school-trip-plans/${planId}/days/${date}/skip`, { token: who.accessToken, body: { reason: 'Bé bị ốm' } });
    expect((await skip(tomorrow, stranger)).status).toBe(404);
    const skipped = await skip(tomorrow);
    expect(skipped.body.items).toMatchObject([{ status: 'SKIPPED', date: tomorrow, reason: 'Bé bị ốm' }]);
    expect((await skip(tomorrow)).body.items).toMatchObject([{ status: 'SKIPPED' }]); // asked again
    expect((await call('GET', `/school-trips?date=${tomorrow}`, { token: winner.accessToken })).body.items).toMatchObject([{ status: 'SKIPPED' }]);
    expect((await skip(localDate(now + 60 * 24 * HOUR))).body.code).toBe('SCHOOL_TRIP_NOT_A_SCHOOL_DAY');

    // The driver cannot make a trip three days on: cancelled with a reason, the parent told.
    const third = (await call('GET', `/school-trips?date=${localDate(now + 72 * HOUR)}`, { token: winner.accessToken })).body.items[0];
    const called = await call('POST', `/school-trips/${third.id}/cancel`, { token: winner.accessToken, body: { reason: 'Xe hỏng' } });
    expect(called.body).toMatchObject({ status: 'CANCELLED', reason: 'Xe hỏng' });
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: third.id, event: 'school.trip.cancelled' })).length === 1 ? true : undefined), {
      what: 'the parent told of the cancelled trip',
    });

    // The driver leaves the term: the day after tomorrow's trip (set out already) is cancelled, the parent told.
    const later = await call('GET', `/school-trips?date=${localDate(now + 48 * HOUR)}`, { token: winner.accessToken });
    expect(later.body.items).toMatchObject([{ status: 'SCHEDULED' }]);
    expect((await call('POST', `/school-trip-plans/${planId}/leave`, { token: parent.accessToken, body: {} })).status).toBe(403); // a driver's move
    expect((await call('POST', `/school-trip-plans/${planId}/leave`, { token: winner.accessToken, body: {} })).body).toMatchObject({
      status: 'SEEKING_DRIVER',
      driverId: null,
    });
    await waitFor(
      async () =>
        (await call('GET', `/school-trips/${later.body.items[0].id}`, { token: parent.accessToken })).body.status === 'CANCELLED' ? true : undefined,
      { what: 'the trips not under way cancelled' },
    );
    await waitFor(async () => ((await inboxOf(parent.user.id, { entityId: planId, event: 'school.trip.driverLeft' })).length === 1 ? true : undefined), {
      what: 'the parent told the driver left',
    });
    // The other driver takes the term: the withdrawn day is theirs now, and no longer readable by the former driver.
    expect((await call('POST', `/school-trip-plans/${planId}/accept`, { token: loser.accessToken, body: {} })).body.status).toBe('MATCHED');
    const retaken = await call('GET', `/school-trips?date=${localDate(now + 48 * HOUR)}`, { token: loser.accessToken });
    expect(retaken.body.items).toMatchObject([{ id: later.body.items[0].id, status: 'SCHEDULED', driverId: loser.user.id }]);
    expect((await call('GET', `/school-trips/${later.body.items[0].id}`, { token: winner.accessToken })).status).toBe(404);

    const cancelled = await call('POST', `/school-trip-plans/${planId}/cancel`, { token: parent.accessToken, body: { reason: 'Chuyển trường' } });
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitFor(async () => ((await inboxOf(loser.user.id, { entityId: planId, event: 'school.trip.planCancelled' })).length === 1 ? true : undefined), {
      what: 'the driver told the plan was cancelled',
    });
    await waitFor(
      async () =>
        (await call('GET', `/school-trips/${later.body.items[0].id}`, { token: parent.accessToken })).body.status === 'CANCELLED' ? true : undefined,
      { what: 'its trips withdrawn' },
    );
    expect((await call('POST', `/school-trip-plans/${planId}/accept`, { token: winner.accessToken, body: {} })).body.code).toBe('SCHOOL_TRIP_TRANSITION');
  });
});
