import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

// Schools, programs and consultations through the API: a slot with two desks takes two families and refuses a third,
// programs and hours checked, the school's answer and meeting, then its follow-up of the family: opened once the
// family was met, moved through its stages (an illegal move 409), private to the school (the family, another school
// 404), listed by stage.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let owner: PartnerOwner, rival: PartnerOwner, parent: Tokens, staff: Tokens;
beforeAll(async () => {
  let user: Tokens;
  ({ owner, rival, user } = await partnerCast('Trường Tiểu học Ánh Dương', 'Trường Khác'));
  parent = user;
  staff = await staffOf(owner);
});

const DAY = 86_400_000;
const dateIn = (days: number) => new Date(Date.now() + 7 * 3_600_000 + days * DAY).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00+07:00`;
const EVERY_DAY = {
  timeZone: 'Asia/Ho_Chi_Minh',
  weekly: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => ({ day, open: '08:00', close: '11:00' })),
};

async function school(settings: Record<string, unknown> = {}) {
  const made = await call('POST', '/schools', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Trường Tiểu học Ánh Dương',
      location: area(),
      levels: ['PRIMARY'],
      curriculum: 'BILINGUAL',
      consultationMinutes: 60,
      consultationDesks: 2,
      openingHours: EVERY_DAY,
      ...settings,
    },
  });
  expect(made.status).toBe(201);
  expect(made.body).toMatchObject({
    consultationMinutes: settings.consultationMinutes ?? 60,
    consultationDesks: settings.consultationDesks ?? 2,
    schoolTrips: false,
  });
  const put = await call('PUT', `/schools/${made.body.id}/programs/lop1_songngu`, {
    token: owner.accessToken,
    body: { name: 'Lớp 1 song ngữ', level: 'PRIMARY', ageFrom: 6, ageTo: 7, language: 'bilingual', tuitionVndPerMonth: 6_500_000 },
  });
  expect(put.status).toBe(200);
  const reversed = await call('PUT', `/schools/${made.body.id}/programs/bad`, {
    token: owner.accessToken,
    body: { name: 'Lớp sai', level: 'PRIMARY', ageFrom: 9, ageTo: 6, language: 'vi', tuitionVndPerMonth: 1 },
  });
  expect([reversed.status, reversed.body.details?.[0]?.field]).toEqual([400, 'body.ageTo']);
  return made.body.id as string;
}
const ask = (who: Tokens, schoolId: string, startsAt: string, programKey?: string) =>
  call('POST', '/schools/consultations', {
    token: who.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { schoolId, startsAt, childName: 'Bé Na', childBirthYear: 2020, ...(programKey ? { programKey } : {}), note: 'Học phí có gồm bán trú?' },
  });

describe('school consultations', () => {
  it('a slot takes as many families as the school has desks; programs and hours are checked; nothing held when refused', async () => {
    const schoolId = await school();
    const day = dateIn(5);
    const slots = await call('GET', `/schools/${schoolId}/consultation-slots?date=${day}`, { token: parent.accessToken });
    expect(slots.body).toMatchObject({ minutes: 60, desks: 2 });
    expect(slots.body.slots).toHaveLength(3); // 08:00, 09:00, 10:00 within 08:00–11:00

    const first = await ask(parent, schoolId, at(day, '09:00'), 'lop1_songngu');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      vertical: 'SCHOOL',
      status: 'PENDING_PARTNER',
      priceVnd: 0,
      resource: { name: 'Lớp 1 song ngữ', parentName: 'Trường Tiểu học Ánh Dương' },
      details: { programKey: 'lop1_songngu', childName: 'Bé Na', childBirthYear: 2020 },
    });
    const other = await registerVerified();
    expect((await ask(other, schoolId, at(day, '09:00'))).status).toBe(201);
    const third = await registerVerified();
    expect((await ask(third, schoolId, at(day, '09:00'))).body.code).toBe('BOOKING_UNAVAILABLE');
    expect((await ask(third, schoolId, at(day, '08:30'))).body.details[0].field).toBe('body.startsAt'); // off the hour's grid
    expect((await ask(third, schoolId, at(day, '11:00'))).body.code).toBe('SCHOOL_CLOSED');
    expect((await ask(third, schoolId, at(day, '10:00'), 'lop9')).body.code).toBe('SCHOOL_PROGRAM_NOT_FOUND');
    expect((await ask(staff, schoolId, at(day, '10:00'))).body.code).toBe('BOOKING_OWN_RESOURCE');
    const after = await call('GET', `/schools/${schoolId}/consultation-slots?date=${day}`, { token: parent.accessToken });
    expect(after.body.slots.map((s: { free: boolean }) => s.free)).toEqual([true, false, true]);
    // The next day's units are not the booked day's (the slots read one day's span of the school's units).
    const nextDay = await call('GET', `/schools/${schoolId}/consultation-slots?date=${dateIn(6)}`, { token: parent.accessToken });
    expect(nextDay.body.slots.map((s: { free: boolean }) => s.free)).toEqual([true, true, true]);
    expect((await call('GET', `/bookings?vertical=SCHOOL`, { token: third.accessToken })).body.items).toEqual([]);

    // The school answers the first family with another time, which the family takes.
    const propose = (who: Tokens, startsAt: string) =>
      call('POST', `/schools/consultations/${first.body.id}/propose`, { token: who.accessToken, body: { startsAt, note: 'Buổi sáng đã kín' } });
    expect((await propose(rival, at(day, '10:00'))).status).toBe(404);
    const proposed = await propose(staff, at(day, '10:00'));
    expect(proposed.body).toMatchObject({
      rejected: { status: 'REJECTED', rejection: { proposalId: proposed.body.proposed.id } },
      proposed: { status: 'HELD' },
    });
    expect((await call('POST', `/bookings/${proposed.body.proposed.id}/agree`, { token: parent.accessToken })).body.status).toBe('CONFIRMED');
  });

  it('the school meets the family and follows it up; the follow-up is the school’s alone', async () => {
    const schoolId = await school({ consultationMinutes: 30, consultationDesks: 1, openingHours: { timeZone: 'Asia/Ho_Chi_Minh', open24h: true } });
    // The next half hour at least two minutes away: the school may start the meeting from an hour before.
    const startsAt = new Date(Math.ceil((Date.now() + 120_000) / 1_800_000) * 1_800_000).toISOString();
    const asked = await ask(parent, schoolId, startsAt, 'lop1_songngu');
    expect(asked.status).toBe(201);
    const id = asked.body.id as string;
    const followUp = (who: Tokens, body: Record<string, unknown> = {}) =>
      call('POST', `/schools/consultations/${id}/follow-up`, { token: who.accessToken, body });
    expect((await followUp(staff)).body.code).toBe('SCHOOL_FOLLOW_UP_NOT_READY');
    expect((await call('POST', `/bookings/${id}/accept`, { token: staff.accessToken })).body.status).toBe('CONFIRMED');
    expect((await call('POST', `/bookings/${id}/start`, { token: staff.accessToken })).body.status).toBe('IN_PROGRESS');

    // Only the school's people open it; the family and another school are told there is no such consultation.
    expect((await followUp(parent)).status).toBe(403); // a consumer lacks the partner roles
    expect((await followUp(rival)).body.code).toBe('BOOKING_NOT_FOUND');
    const nextContactAt = new Date(Date.now() + 3 * DAY).toISOString();
    const opened = await followUp(staff, { note: 'Phụ huynh muốn học thử', nextContactAt });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      id,
      status: 'FOLLOWING_UP',
      childName: 'Bé Na',
      programKey: 'lop1_songngu',
      nextContactAt,
      allowed: ['trial', 'apply', 'decline'],
    });
    expect((await followUp(owner, { note: 'lần hai' })).body).toMatchObject({ id, note: 'Phụ huynh muốn học thử' }); // once per consultation

    const move = (who: Tokens, action: string) =>
      call('POST', `/schools/consultations/${id}/follow-up/moves`, { token: who.accessToken, body: { action, note: action } });
    expect((await move(staff, 'enrol')).body.code).toBe('SCHOOL_FOLLOW_UP_TRANSITION');
    expect((await move(rival, 'trial')).status).toBe(404);
    // A move and a note written at once: each keeps the other's change (no stale copy written back).
    const [trial, noted] = await Promise.all([
      move(staff, 'trial'),
      call('PATCH', `/schools/consultations/${id}/follow-up`, { token: owner.accessToken, body: { note: 'Gọi lại thứ Hai' } }),
    ]);
    expect([trial.status, noted.status]).toEqual([200, 200]);
    expect((await call('GET', `/schools/consultations/${id}/follow-up`, { token: staff.accessToken })).body).toMatchObject({ status: 'TRIAL_CLASS' });
    expect((await move(owner, 'apply')).body.status).toBe('APPLIED');
    const enrolled = await move(staff, 'enrol');
    expect(enrolled.body).toMatchObject({ status: 'ENROLLED', allowed: [] });
    expect((await move(staff, 'decline')).body.code).toBe('SCHOOL_FOLLOW_UP_TRANSITION');

    const patched = await call('PATCH', `/schools/consultations/${id}/follow-up`, {
      token: staff.accessToken,
      body: { nextContactAt: null, note: 'Đã nhập học' },
    });
    expect(patched.body).toMatchObject({ status: 'ENROLLED', nextContactAt: null, note: 'Đã nhập học' });
    const read = await call('GET', `/schools/consultations/${id}/follow-up`, { token: owner.accessToken });
    expect(read.body.history.map((e: { action: string; to: string }) => `${e.action}:${e.to}`)).toEqual([
      'open:FOLLOWING_UP',
      'trial:TRIAL_CLASS',
      'apply:APPLIED',
      'enrol:ENROLLED',
    ]);
    for (const who of [parent, rival]) expect((await call('GET', `/schools/consultations/${id}/follow-up`, { token: who.accessToken })).status).toBe(404);
    expect((await call('GET', `/schools/consultations/${id}/follow-up`, { token: (await adminTokens()).accessToken })).status).toBe(200);

    const list = (who: Tokens, status = '') =>
      call('GET', `/schools/${schoolId}/follow-ups?limit=10${status && `&status=${status}`}`, { token: who.accessToken });
    expect((await list(staff, 'ENROLLED')).body.items.map((l: { id: string }) => l.id)).toEqual([id]);
    expect((await list(staff, 'DECLINED')).body.items).toEqual([]);
    expect((await list(parent)).status).toBe(404);
    expect((await list(rival)).status).toBe(404);
  });
});
