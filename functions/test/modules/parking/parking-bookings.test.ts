import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';
import { balance, topUp } from '../../helpers/wallet';

// Parking spaces booked by the hour on the booking engine: the lot's bookable spaces per vehicle type, the hourly
// price, the last space raced, types the lot does not book, hours off the clock, and the lot's owner refused.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let owner: PartnerOwner, user: Tokens, other: Tokens;
beforeAll(async () => {
  ({ owner, user } = await partnerCast('Bãi xe Bến Thành', 'Bãi xe Khác'));
  other = await registerVerified();
  await Promise.all([topUp(user, 2_000_000), topUp(other, 2_000_000)]);
});

/** The next whole hour of Vietnam time, `hours` from now, as `…+07:00`. */
function hourIn(hours: number): string {
  const at = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + hours * 3_600_000 + 7 * 3_600_000);
  return `${at.toISOString().slice(0, 13)}:00:00+07:00`;
}
async function lotWith(bookable: Record<string, number>) {
  const made = await call('POST', '/parking/lots', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Bãi xe Bến Thành',
      location: area(),
      capacity: 50,
      freeSpaces: 20,
      pricesPerHour: { CAR: 25_000, MOTORBIKE: 5_000 },
      bookableSpaces: bookable,
    },
  });
  expect(made.status).toBe(201);
  return made.body.id as string;
}
const book = (who: Tokens, lotId: string, body: Record<string, unknown>) =>
  call('POST', '/parking/bookings', {
    token: who.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { lotId, vehicleType: 'CAR', plate: '51F-123.45', payment: { method: 'WALLET' }, ...body },
  });

describe('parking bookings', () => {
  it('a space for two hours: priced by the hour, paid by wallet, CONFIRMED; the hours show one space fewer; the last space is one booking', async () => {
    const lot = await lotWith({ CAR: 1 });
    const [from, to] = [hourIn(3), hourIn(5)];
    const q = `/parking/lots/${lot}/spaces?vehicleType=CAR&from=${encodeURIComponent(from)}&to=${encodeURIComponent(hourIn(6))}`;
    expect((await call('GET', q, { token: user.accessToken })).body).toMatchObject({ bookableSpaces: 1, pricePerHourVnd: 25_000 });
    const wallet = await balance(user);
    const [mine, theirs] = await Promise.all([book(user, lot, { from, to }), book(other, lot, { from, to })]);
    const won = [mine, theirs].filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    expect([mine, theirs].find((r) => r.status !== 201)!.body.code).toBe('BOOKING_UNAVAILABLE');
    expect(won[0].body.booking).toMatchObject({
      vertical: 'PARKING',
      status: 'CONFIRMED',
      unitKind: 'HOUR',
      priceVnd: 50_000,
      details: { plate: '51F-123.45', vehicleType: 'CAR' },
      policy: { freeUntilHours: 1, lateFeeBp: 10_000 },
    });
    if (mine.status === 201) expect(await balance(user)).toBe(wallet - 50_000);
    const hours = (await call('GET', q, { token: user.accessToken })).body.hours.map((h: { spacesLeft: number }) => h.spacesLeft);
    expect(hours).toEqual([0, 0, 1]);
    // Listed among the parking bookings of whoever won.
    const winner = mine.status === 201 ? user : other;
    const listed = await call('GET', '/bookings?vertical=PARKING', { token: winner.accessToken });
    expect(listed.body.items.map((b: { id: string }) => b.id)).toContain(won[0].body.booking.id);
  });

  it('refused with nothing booked: a type the lot does not book (422), hours off the clock or in the past (400), the lot’s own owner (403)', async () => {
    const lot = await lotWith({ CAR: 2 });
    expect((await book(user, lot, { vehicleType: 'MOTORBIKE', from: hourIn(2), to: hourIn(3) })).body.code).toBe('PARKING_NOT_BOOKABLE');
    const offClock = hourIn(2).replace(':00:00+07:00', ':30:00+07:00');
    expect((await book(user, lot, { from: offClock, to: hourIn(4) })).body.details[0].field).toBe('body.from');
    expect((await book(user, lot, { from: hourIn(-3), to: hourIn(1) })).body.details[0].field).toBe('body.from');
    expect((await book(user, lot, { from: hourIn(4), to: hourIn(2) })).body.details[0].field).toBe('body.to');
    expect((await book(owner, lot, { from: hourIn(2), to: hourIn(3) })).body.code).toBe('BOOKING_OWN_RESOURCE');
    const left = await call('GET', `/parking/lots/${lot}/spaces?vehicleType=CAR&from=${encodeURIComponent(hourIn(2))}&to=${encodeURIComponent(hourIn(4))}`, {
      token: user.accessToken,
    });
    expect(left.body.hours.map((h: { spacesLeft: number }) => h.spacesLeft)).toEqual([2, 2]);
    // A lot cannot offer more bookable spaces than it has, nor book a type it does not price.
    const bad = await call('POST', '/parking/lots', {
      token: owner.accessToken,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        partnerId: owner.partnerId,
        name: 'Bãi xe',
        location: area(),
        capacity: 5,
        freeSpaces: 5,
        pricesPerHour: { CAR: 1 },
        bookableSpaces: { BICYCLE: 1 },
      },
    });
    expect(bad.body.details[0].field).toBe('body.bookableSpaces.BICYCLE');
  });
});
