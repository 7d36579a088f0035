import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

// Rental listings and viewings through the API: the landlord's operations under /rentals/partner/listings (the
// spec's PATCH), another landlord refused, the public search's filters, viewing slots, a request answered with
// another time and agreed to, slots outside the viewing hours and slots taken.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ owner, rival, user } = await partnerCast('Nhà trọ Cô Ba', 'Nhà trọ Khác'));
});

const DAY = 86_400_000;
/** Vietnam's local date `days` from today. */
const dateIn = (days: number) => new Date(Date.now() + 7 * 3_600_000 + days * DAY).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00+07:00`;
const ALWAYS_DAYTIME = {
  timeZone: 'Asia/Ho_Chi_Minh',
  weekly: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => ({ day, open: '09:00', close: '17:00' })),
};

async function listing(who: PartnerOwner, extra: Record<string, unknown> = {}, where: { lat: number; lng: number } = area()) {
  const made = await call('POST', '/rentals/partner/listings', {
    token: who.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: who.partnerId,
      name: 'Căn hộ 2 phòng ngủ Quận 3',
      location: where,
      kind: 'APARTMENT',
      monthlyRentVnd: 12_000_000,
      depositVnd: 24_000_000,
      areaM2: 65,
      bedrooms: 2,
      bathrooms: 2,
      furnished: 'FULL',
      openingHours: ALWAYS_DAYTIME,
      ...extra,
    },
  });
  expect(made.status).toBe(201);
  return { id: made.body.id as string, where };
}
const ask = (who: Tokens, listingId: string, startsAt: string) =>
  call('POST', `/rentals/listings/${listingId}/viewings`, { token: who.accessToken, headers: { 'idempotency-key': randomUUID() }, body: { startsAt } });

describe('rental listings', () => {
  it('the landlord creates and changes a listing under /rentals/partner/listings; another landlord gets 404; everyone reads it under /rentals/listings', async () => {
    const { id } = await listing(owner);
    const staff = await staffOf(owner);
    const patched = await call('PATCH', `/rentals/partner/listings/${id}`, { token: staff.accessToken, body: { monthlyRentVnd: 11_500_000 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ monthlyRentVnd: 11_500_000, kind: 'APARTMENT' });
    expect((await call('PATCH', `/rentals/partner/listings/${id}`, { token: rival.accessToken, body: { monthlyRentVnd: 1_000_000 } })).status).toBe(404);
    expect((await call('PATCH', `/rentals/partner/listings/${id}`, { token: user.accessToken, body: { monthlyRentVnd: 1_000_000 } })).status).toBe(403);
    expect((await call('GET', `/rentals/listings/${id}`, { token: user.accessToken })).body.monthlyRentVnd).toBe(11_500_000);
    const mine = await call('GET', `/rentals/partner/listings/mine?partnerId=${owner.partnerId}`, { token: owner.accessToken });
    expect(mine.body.items.map((l: { id: string }) => l.id)).toContain(id);
    const tooMuch = await call('PATCH', `/rentals/partner/listings/${id}`, { token: owner.accessToken, body: { depositVnd: 500_000_000 } });
    expect(tooMuch.body.details[0].field).toBe('body.depositVnd');
  });

  it('nearby with rent, bedroom and area filters, and cheapest first with sort=rent', async () => {
    const here = area();
    const near = (m: number) => ({ lat: here.lat + m / 111_320, lng: here.lng });
    const cheap = await listing(owner, { monthlyRentVnd: 4_000_000, depositVnd: 4_000_000, bedrooms: 0, areaM2: 20, kind: 'ROOM' }, near(300));
    const big = await listing(owner, { monthlyRentVnd: 25_000_000, bedrooms: 3, areaM2: 120, kind: 'HOUSE' }, near(100));
    const q = (extra: string) => call('GET', `/rentals/listings/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=1000${extra}`, { token: user.accessToken });
    const ids = async (extra: string) => (await q(extra)).body.items.map((l: { id: string }) => l.id);
    expect(await ids('')).toEqual([big.id, cheap.id]);
    expect(await ids('&sort=rent')).toEqual([cheap.id, big.id]);
    expect(await ids('&maxRentVnd=5000000')).toEqual([cheap.id]);
    expect(await ids('&minBedrooms=2&minAreaM2=100')).toEqual([big.id]);
    expect(await ids('&kind=ROOM')).toEqual([cheap.id]);
  });
});

describe('viewings', () => {
  it('slots of a day; a request holds its slot for the landlord, who proposes another time; the tenant agrees and it is CONFIRMED', async () => {
    const { id } = await listing(owner);
    const day = dateIn(3);
    const slots = await call('GET', `/rentals/listings/${id}/viewing-slots?date=${day}`, { token: user.accessToken });
    expect(slots.body.slots).toHaveLength(16);
    expect(slots.body.slots[0]).toEqual({ startsAt: new Date(at(day, '09:00')).toISOString(), free: true });

    const asked = await ask(user, id, at(day, '10:00'));
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({
      vertical: 'RENTAL_VIEWING',
      status: 'PENDING_PARTNER',
      payment: { mode: 'AT_VENUE', dueVnd: 0 },
    });
    // A half hour takes its six 5-minute units.
    expect(asked.body.units).toEqual(['00', '05', '10', '15', '20', '25'].map((m) => `${day}T10:${m}`));
    const second = await registerVerified();
    expect((await ask(second, id, at(day, '10:00'))).body.code).toBe('BOOKING_UNAVAILABLE');
    const after = await call('GET', `/rentals/listings/${id}/viewing-slots?date=${day}`, { token: user.accessToken });
    expect(after.body.slots.find((s: { startsAt: string }) => s.startsAt === new Date(at(day, '10:00')).toISOString()).free).toBe(false);

    // Another landlord cannot answer; the same time is not a proposal; outside the hours is 422.
    const proposal = (who: Tokens, startsAt: string) =>
      call('POST', `/rentals/viewings/${asked.body.id}/propose`, { token: who.accessToken, body: { startsAt, note: 'Chiều tiện hơn' } });
    expect((await proposal(rival, at(day, '15:00'))).status).toBe(404);
    expect((await proposal(owner, at(day, '10:00'))).body.code).toBe('BOOKING_SAME_TIME');
    expect((await proposal(owner, at(day, '18:00'))).body.code).toBe('RENTAL_VIEWING_CLOSED');
    const proposed = await proposal(owner, at(day, '15:00'));
    expect(proposed.status).toBe(200);
    expect(proposed.body.rejected).toMatchObject({ status: 'REJECTED', rejection: { proposalId: proposed.body.proposed.id, reason: 'Chiều tiện hơn' } });
    expect(proposed.body.proposed).toMatchObject({ status: 'HELD', consumerId: user.user.id, details: { proposedBy: 'PARTNER' } });
    expect(proposed.body.proposed.units[0]).toBe(`${day}T15:00`);
    // The old slot is free again; the tenant agrees; a stranger cannot.
    const stranger = await registerVerified();
    expect((await call('POST', `/bookings/${proposed.body.proposed.id}/agree`, { token: stranger.accessToken })).status).toBe(404);
    const agreed = await call('POST', `/bookings/${proposed.body.proposed.id}/agree`, { token: user.accessToken });
    expect(agreed.body).toMatchObject({ status: 'CONFIRMED' });
    expect((await call('POST', `/bookings/${asked.body.id}/agree`, { token: user.accessToken })).body.code).toBe('BOOKING_TRANSITION');
    const final = await call('GET', `/rentals/listings/${id}/viewing-slots?date=${day}`, { token: user.accessToken });
    const free = (time: string) => final.body.slots.find((s: { startsAt: string }) => s.startsAt === new Date(at(day, time)).toISOString()).free;
    expect([free('10:00'), free('15:00')]).toEqual([true, false]);
  });

  it('refused with nothing held: off the half-hour grid, outside the hours, in the past, beyond 30 days, the landlord’s own listing', async () => {
    const { id } = await listing(owner);
    const day = dateIn(2);
    expect((await ask(user, id, at(day, '10:15'))).body.details[0].field).toBe('body.startsAt');
    expect((await ask(user, id, at(day, '08:30'))).body.code).toBe('RENTAL_VIEWING_CLOSED');
    expect((await ask(user, id, at(dateIn(-1), '10:00'))).body.details[0].field).toBe('body.startsAt');
    expect((await ask(user, id, at(dateIn(40), '10:00'))).body.details[0].field).toBe('body.startsAt');
    expect((await ask(owner, id, at(day, '10:00'))).body.code).toBe('BOOKING_OWN_RESOURCE');
    const slots = await call('GET', `/rentals/listings/${id}/viewing-slots?date=${day}`, { token: user.accessToken });
    expect(slots.body.slots.every((s: { free: boolean }) => s.free)).toBe(true);
  });
});
