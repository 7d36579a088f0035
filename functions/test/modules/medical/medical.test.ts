import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

// Clinics, doctors and appointments through the API: a doctor's slots, a request with symptoms, a doctor (the
// clinic's staff) seeing only their own appointments (another doctor 404), the clinic's owner seeing all, symptoms
// kept from administrators, another time proposed and agreed to, hours, grid and overlapping lengths refused.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let owner: PartnerOwner, rival: PartnerOwner, patient: Tokens, docA: Tokens, docB: Tokens;

/** A staff member of the clinic who is also a DOCTOR (the role an administrator grants), signed in again to carry it. */
async function doctorOf(clinicOwner: PartnerOwner): Promise<Tokens> {
  const staff = await staffOf(clinicOwner);
  const roles = [...new Set([...staff.user.roles, 'DOCTOR'])];
  const granted = await call('PATCH', `/users/admin/${staff.user.id}/roles`, { token: (await adminTokens()).accessToken, body: { roles } });
  expect(granted.status).toBe(200);
  const refreshed = await call<Tokens>('POST', '/auth/refresh', { body: { refreshToken: staff.refreshToken } });
  expect(refreshed.status).toBe(200);
  return refreshed.body;
}

beforeAll(async () => {
  let user: Tokens;
  ({ owner, rival, user } = await partnerCast('Phòng khám Hòa Hảo', 'Phòng khám Khác'));
  patient = user;
  [docA, docB] = [await doctorOf(owner), await doctorOf(owner)];
});

const DAY = 86_400_000;
const dateIn = (days: number) => new Date(Date.now() + 7 * 3_600_000 + days * DAY).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00+07:00`;
const EVERY_DAY = {
  timeZone: 'Asia/Ho_Chi_Minh',
  weekly: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => ({ day, open: '08:00', close: '12:00' })),
};

async function clinic() {
  const made = await call('POST', '/medical/clinics', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { partnerId: owner.partnerId, name: 'Phòng khám Hòa Hảo', location: area(), specialties: ['GENERAL', 'PEDIATRICS'], openingHours: EVERY_DAY },
  });
  expect(made.status).toBe(201);
  const put = (key: string, body: Record<string, unknown>) =>
    call('PUT', `/medical/clinics/${made.body.id}/doctors/${key}`, { token: owner.accessToken, body });
  expect((await put('bs_an', { name: 'BS. Nguyễn Văn An', specialty: 'GENERAL', feeVnd: 200_000, appointmentMinutes: 30, userId: docA.user.id })).status).toBe(
    200,
  );
  expect(
    (await put('bs_binh', { name: 'BS. Trần Thị Bình', specialty: 'PEDIATRICS', feeVnd: 250_000, appointmentMinutes: 20, userId: docB.user.id })).status,
  ).toBe(200);
  return made.body.id as string;
}
const ask = (who: Tokens, clinicId: string, doctorKey: string, startsAt: string) =>
  call('POST', '/medical/appointments', {
    token: who.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { clinicId, doctorKey, startsAt, symptoms: 'Sốt nhẹ, ho hai ngày' },
  });

describe('medical appointments', () => {
  it('a doctor sees only their own appointments; another doctor of the clinic and another clinic get 404; the owner sees all', async () => {
    const clinicId = await clinic();
    const day = dateIn(4);
    const slots = await call('GET', `/medical/clinics/${clinicId}/doctors/bs_binh/slots?date=${day}`, { token: patient.accessToken });
    expect([slots.body.minutes, slots.body.slots.length]).toEqual([20, 12]);

    const a = await ask(patient, clinicId, 'bs_an', at(day, '09:00'));
    expect(a.status).toBe(201);
    // The day's slots read the doctor's booked units in one query: the one asked for is taken, its neighbours free.
    const taken = await call('GET', `/medical/clinics/${clinicId}/doctors/bs_an/slots?date=${day}`, { token: patient.accessToken });
    const freeAt = (time: string) => taken.body.slots.find((x: { startsAt: string }) => x.startsAt === new Date(at(day, time)).toISOString())?.free;
    expect([freeAt('08:30'), freeAt('09:00'), freeAt('09:30')]).toEqual([true, false, true]);
    expect(a.body).toMatchObject({
      vertical: 'MEDICAL',
      status: 'PENDING_PARTNER',
      priceVnd: 200_000,
      payment: { mode: 'AT_VENUE', dueVnd: 0 },
      details: { symptoms: 'Sốt nhẹ, ho hai ngày' },
    });
    const b = await ask(patient, clinicId, 'bs_binh', at(day, '09:00'));
    expect(b.status).toBe(201);

    expect((await call('GET', `/bookings/${a.body.id}`, { token: docB.accessToken })).body.code).toBe('BOOKING_NOT_FOUND');
    expect((await call('POST', `/bookings/${a.body.id}/accept`, { token: docB.accessToken })).status).toBe(404);
    expect((await call('GET', `/bookings/${a.body.id}`, { token: rival.accessToken })).status).toBe(404);
    const queueOf = async (who: Tokens) =>
      (await call('GET', `/bookings/partner?partnerId=${owner.partnerId}&vertical=MEDICAL&limit=100`, { token: who.accessToken })).body.items.map(
        (x: { id: string }) => x.id,
      );
    expect(await queueOf(docA)).toEqual([a.body.id]);
    expect(await queueOf(docB)).toEqual([b.body.id]);
    expect((await queueOf(owner)).sort()).toEqual([a.body.id, b.body.id].sort());

    // Health data stays with the patient and the clinic: an administrator's view has no symptoms.
    const asAdmin = await call('GET', `/admin/bookings?partnerId=${owner.partnerId}&vertical=MEDICAL&limit=100`, { token: (await adminTokens()).accessToken });
    expect(asAdmin.body.items.find((x: { id: string }) => x.id === a.body.id).details.symptoms).toBeUndefined();
    const accepted = await call('POST', `/bookings/${a.body.id}/accept`, { token: docA.accessToken });
    expect(accepted.body.status).toBe('CONFIRMED');
    // The other doctor declines theirs with a reason (required), which the patient reads.
    expect((await call('POST', `/bookings/${b.body.id}/reject`, { token: docB.accessToken, body: {} })).status).toBe(400);
    const rejected = await call('POST', `/bookings/${b.body.id}/reject`, { token: docB.accessToken, body: { reason: 'Bác sĩ đi công tác' } });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejection: { reason: 'Bác sĩ đi công tác' } });
    expect((await call('GET', `/bookings/${b.body.id}`, { token: patient.accessToken })).body.rejection.by).toBe('STAFF');
    expect((await call('GET', `/bookings?vertical=MEDICAL`, { token: patient.accessToken })).body.items.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([a.body.id, b.body.id]),
    );
  });

  it('the doctor proposes another time; the patient agrees; hours, grid and taken slots are refused with nothing held', async () => {
    const clinicId = await clinic();
    const day = dateIn(6);
    const asked = await ask(patient, clinicId, 'bs_an', at(day, '10:00'));
    expect((await ask(patient, clinicId, 'bs_an', at(day, '10:00'))).body.code).toBe('BOOKING_UNAVAILABLE');
    expect((await ask(patient, clinicId, 'bs_an', at(day, '10:10'))).body.details[0].field).toBe('body.startsAt');
    expect((await ask(patient, clinicId, 'bs_an', at(day, '13:00'))).body.code).toBe('MEDICAL_CLINIC_CLOSED');
    expect((await ask(patient, clinicId, 'bs_khac', at(day, '10:00'))).body.code).toBe('MEDICAL_DOCTOR_NOT_FOUND');
    expect((await ask(docA, clinicId, 'bs_an', at(day, '11:00'))).body.code).toBe('BOOKING_OWN_RESOURCE');

    const propose = (who: Tokens, startsAt: string) =>
      call('POST', `/medical/appointments/${asked.body.id}/propose`, { token: who.accessToken, body: { startsAt } });
    expect((await propose(docB, at(day, '11:00'))).status).toBe(404);
    const proposed = await propose(docA, at(day, '11:00'));
    expect(proposed.body.proposed).toMatchObject({ status: 'HELD' });
    expect(proposed.body.proposed.units).toHaveLength(6);
    const agreed = await call('POST', `/bookings/${proposed.body.proposed.id}/agree`, { token: patient.accessToken });
    expect(agreed.body.status).toBe('CONFIRMED');
    // A doctor's own appointments follow the proposal.
    expect((await call('GET', `/bookings/${proposed.body.proposed.id}`, { token: docA.accessToken })).status).toBe(200);
    expect((await call('GET', `/bookings/${proposed.body.proposed.id}`, { token: docB.accessToken })).status).toBe(404);
  });

  it('a doctor who changes the length of their appointments never overlaps those booked before', async () => {
    const clinicId = await clinic();
    const day = dateIn(8);
    expect((await ask(patient, clinicId, 'bs_an', at(day, '09:00'))).status).toBe(201); // 30 minutes: 09:00–09:30
    const put = await call('PUT', `/medical/clinics/${clinicId}/doctors/bs_an`, {
      token: owner.accessToken,
      body: { name: 'BS. Nguyễn Văn An', specialty: 'GENERAL', feeVnd: 200_000, appointmentMinutes: 20, userId: docA.user.id },
    });
    expect(put.status).toBe(200);
    const slots = await call('GET', `/medical/clinics/${clinicId}/doctors/bs_an/slots?date=${day}`, { token: patient.accessToken });
    const free = (time: string) => slots.body.slots.find((x: { startsAt: string }) => x.startsAt === new Date(at(day, time)).toISOString()).free;
    expect([free('09:00'), free('09:20'), free('09:40')]).toEqual([false, false, true]);
    const other = await registerVerified();
    expect((await ask(other, clinicId, 'bs_an', at(day, '09:20'))).body.code).toBe('BOOKING_UNAVAILABLE');
  });
});
