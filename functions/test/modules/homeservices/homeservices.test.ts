import { randomUUID } from 'node:crypto';
import { BOOKINGS } from '../../../src/modules/bookings/bookings.collections';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { png } from '../../helpers/images';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';
import { topUp } from '../../helpers/wallet';

// Home services through the API: providers found only where they serve (their coverage radius), a visit booked at an
// address with a 30% deposit from the wallet, one team per hour (a second booking 409), the technician assigned (one of
// the provider's people; the customer reads the name, never the account), and completion only with the caller's own
// photos through the vertical's operation.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let owner: PartnerOwner, rival: PartnerOwner, customer: Tokens, tech: Tokens;
beforeAll(async () => {
  let user: Tokens;
  ({ owner, rival, user } = await partnerCast('Dọn Nhà Sạch', 'Dịch vụ Khác'));
  customer = user;
  tech = await staffOf(owner);
  await topUp(customer, 500_000);
});

const HOUR = 3_600_000;
async function provider() {
  const here = area();
  const made = await call('POST', '/home-services/providers', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Dọn Nhà Sạch',
      location: here.near(0),
      categories: ['CLEANING'],
      coverageRadiusM: 5_000,
      openingHours: { timeZone: 'Asia/Ho_Chi_Minh', open24h: true },
    },
  });
  expect(made.status).toBe(201);
  const put = await call('PUT', `/home-services/providers/${made.body.id}/services/don_nha`, {
    token: owner.accessToken,
    body: { name: 'Dọn nhà theo giờ', category: 'CLEANING', pricePerHourVnd: 100_000, minHours: 2, maxHours: 4 },
  });
  expect(put.status).toBe(200);
  return { id: made.body.id as string, here };
}
/** The next whole hour at least two minutes away (a provider may start a visit from two hours before). */
const nextHour = () => Math.ceil((Date.now() + 120_000) / HOUR) * HOUR;
const book = (who: Tokens, body: Record<string, unknown>, key = randomUUID()) =>
  call('POST', '/home-services/bookings', { token: who.accessToken, headers: { 'idempotency-key': key }, body });

describe('home services', () => {
  it('providers are found where they serve; a visit is refused outside the coverage, for other hours, or without a team left', async () => {
    const { id, here } = await provider();
    const nearby = (d: number) =>
      call('GET', `/home-services/providers/nearby?lat=${here.near(d).lat}&lng=${here.near(d).lng}&radiusM=20000`, { token: customer.accessToken });
    expect((await nearby(3_000)).body.items.map((p: { id: string }) => p.id)).toContain(id);
    expect((await nearby(8_000)).body.items.map((p: { id: string }) => p.id)).not.toContain(id); // within the search, outside its coverage

    const startsAt = new Date(nextHour() + 24 * HOUR).toISOString();
    const visit = (over: Record<string, unknown> = {}) => ({
      providerId: id,
      serviceKey: 'don_nha',
      startsAt,
      hours: 3,
      address: { ...here.near(2_000), text: '12 Nguyễn Huệ, Phường Bến Nghé, Quận 1' },
      payment: { method: 'WALLET' },
      ...over,
    });
    expect((await book(customer, visit({ address: { ...here.near(6_000), text: 'Xa quá, Quận 9' } }))).body).toMatchObject({
      code: 'HOME_SERVICE_OUT_OF_AREA',
      details: { coverageRadiusM: 5_000 },
    });
    expect((await book(customer, visit({ hours: 1 }))).body.code).toBe('HOME_SERVICE_HOURS');
    expect((await book(customer, visit({ serviceKey: 'sua_may' }))).body.code).toBe('HOME_SERVICE_NOT_FOUND');
    expect((await book(customer, visit({ startsAt: new Date(nextHour() + 30 * 60_000).toISOString() }))).status).toBe(400); // not on the hour

    const key = randomUUID();
    const balanceBefore = (await call('GET', '/wallet', { token: customer.accessToken })).body.balance;
    const booked = await book(customer, visit(), key);
    expect(booked.status).toBe(201);
    // The same request again after a lost answer: the same booking, the deposit taken once.
    const again = await book(customer, visit(), key);
    expect([again.body.booking.id, again.body.payment?.paymentId ?? booked.body.payment.paymentId]).toEqual([
      booked.body.booking.id,
      booked.body.payment.paymentId,
    ]);
    expect((await call('GET', '/wallet', { token: customer.accessToken })).body.balance).toBe(balanceBefore - 90_000);
    expect(booked.body.booking).toMatchObject({
      vertical: 'HOME_SERVICE',
      status: 'PENDING_PARTNER',
      priceVnd: 300_000,
      assigneeId: null,
      payment: { mode: 'DEPOSIT', dueVnd: 90_000, paidVnd: 90_000 },
    });
    expect(booked.body.payment).toMatchObject({ status: 'SUCCEEDED', amountVnd: 90_000 });
    const other = await registerVerified();
    expect((await book(other, visit())).body.code).toBe('BOOKING_UNAVAILABLE'); // one team
    const start = Date.parse(startsAt);
    const day = new Date(start + 7 * HOUR).toISOString().slice(0, 10); // the local day of the start
    const availability = await call('GET', `/home-services/providers/${id}/availability?date=${day}`, { token: other.accessToken });
    const left = new Map(availability.body.hours.map((h: { startsAt: string; teamsLeft: number }) => [Date.parse(h.startsAt), h.teamsLeft]));
    expect(left.get(start)).toBe(0);
    // The visit's other hours are taken too where they fall on that day; the hours around it are free.
    for (const at of [start + HOUR, start + 2 * HOUR]) expect(left.get(at) ?? 0).toBe(0);
    for (const at of [start - HOUR, start + 3 * HOUR]) expect(left.get(at) ?? 1).toBe(1);
  });

  it('the provider assigns a technician and completes the visit with its own photos', async () => {
    const { id, here } = await provider();
    const booked = await book(customer, {
      providerId: id,
      serviceKey: 'don_nha',
      startsAt: new Date(nextHour()).toISOString(),
      hours: 2,
      address: { ...here.near(1_000), text: '5 Lê Lợi, Quận 1' },
      payment: { method: 'WALLET' },
    });
    expect(booked.status).toBe(201);
    const bookingId = booked.body.booking.id as string;
    const assign = (who: Tokens, userId: string) =>
      call('POST', `/home-services/bookings/${bookingId}/assign`, { token: who.accessToken, body: { userId, name: 'Anh Tuấn' } });
    expect((await assign(owner, customer.user.id)).body.code).toBe('BOOKING_ASSIGNEE_NOT_MEMBER');
    expect((await assign(rival, rival.user.id)).status).toBe(404);
    expect((await assign(owner, tech.user.id)).body).toMatchObject({ assigneeId: tech.user.id, details: { assigneeName: 'Anh Tuấn' } });
    // The same partner's booking of a vertical without staff to send (a hotel stay): refused, nothing written.
    const stay = { ...(await db().collection(BOOKINGS).doc(bookingId).get()).data()!, vertical: 'HOTEL', assigneeId: null };
    const stayId = `${bookingId}-stay`;
    await db().collection(BOOKINGS).doc(stayId).set(stay);
    const notAssignable = await call('POST', `/home-services/bookings/${stayId}/assign`, {
      token: owner.accessToken,
      body: { userId: tech.user.id, name: 'Anh Tuấn' },
    });
    expect([notAssignable.status, notAssignable.body.code]).toEqual([409, 'BOOKING_NOT_ASSIGNABLE']);
    expect((await db().collection(BOOKINGS).doc(stayId).get()).data()!.assigneeId).toBeNull();
    const asCustomer = await call('GET', `/bookings/${bookingId}`, { token: customer.accessToken });
    expect(asCustomer.body).toMatchObject({ assigneeId: null, details: { assigneeName: 'Anh Tuấn' } });

    expect((await call('POST', `/bookings/${bookingId}/accept`, { token: tech.accessToken })).body.status).toBe('CONFIRMED');
    expect((await call('POST', `/bookings/${bookingId}/start`, { token: tech.accessToken })).body.status).toBe('IN_PROGRESS');
    // The visit's start has come (its time moved back, as the clock would).
    await db()
      .collection(BOOKINGS)
      .doc(bookingId)
      .update({ startsAt: Date.now() - 60_000 });

    const upload = async (who: Tokens) => {
      const form = new FormData();
      form.append('file', new Blob([png()], { type: 'image/png' }), 'done.png');
      return (await call('POST', '/upload/image', { token: who.accessToken, form })).body.id as string;
    };
    const [mine, others] = [await upload(tech), await upload(customer)];
    expect((await call('POST', `/bookings/${bookingId}/complete`, { token: tech.accessToken })).body.code).toBe('BOOKING_COMPLETE_WITH_DETAILS');
    const complete = (who: Tokens, photos: string[]) =>
      call('POST', `/home-services/bookings/${bookingId}/complete`, { token: who.accessToken, body: { photos } });
    expect((await complete(tech, [mine, others])).body).toMatchObject({ code: 'HOME_SERVICE_PHOTO_INVALID', details: { mediaId: others } });
    expect((await complete(tech, [mine, mine])).status).toBe(400);
    expect((await call('GET', `/bookings/${bookingId}`, { token: customer.accessToken })).body.status).toBe('IN_PROGRESS');
    const done = await complete(tech, [mine]);
    expect(done.body).toMatchObject({ status: 'COMPLETED', details: { completionPhotos: [{ id: mine }] } });
    expect((await call('GET', `/bookings/${bookingId}`, { token: customer.accessToken })).body.details.completionPhotos).toHaveLength(1);
    expect((await complete(tech, [mine])).body.code).toBe('BOOKING_TRANSITION');
  });

  it('a refused wallet payment leaves the visit HELD until paid with /pay; the provider calls a no-show an hour after the start', async () => {
    const { id, here } = await provider();
    const broke = await registerVerified();
    const body = {
      providerId: id,
      serviceKey: 'don_nha',
      startsAt: new Date(nextHour() + 48 * HOUR).toISOString(),
      hours: 2,
      address: { ...here.near(500), text: '7 Hai Bà Trưng, Quận 1' },
      payment: { method: 'WALLET' },
    };
    expect((await book(broke, body)).body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    const held = (await call('GET', '/bookings?vertical=HOME_SERVICE&status=HELD', { token: broke.accessToken })).body.items;
    expect(held).toMatchObject([{ status: 'HELD', payment: { dueVnd: 60_000, paidVnd: 0 } }]);
    await topUp(broke, 100_000);
    const pay = (who: Tokens) =>
      call('POST', `/bookings/${held[0].id}/pay`, { token: who.accessToken, headers: { 'idempotency-key': randomUUID() }, body: { method: 'WALLET' } });
    expect((await pay(customer)).status).toBe(404);
    const paid = await pay(broke);
    expect(paid.body).toMatchObject({ booking: { status: 'PENDING_PARTNER', payment: { paidVnd: 60_000 } }, payment: { status: 'SUCCEEDED' } });
    expect((await pay(broke)).body.code).toBe('BOOKING_TRANSITION');

    expect((await call('POST', `/bookings/${held[0].id}/accept`, { token: owner.accessToken })).body.status).toBe('CONFIRMED');
    const noShow = () => call('POST', `/bookings/${held[0].id}/no-show`, { token: owner.accessToken });
    expect((await noShow()).body.code).toBe('BOOKING_TOO_EARLY');
    // The start and the hour's wait have passed (its time moved back, as the clock would).
    await db()
      .collection(BOOKINGS)
      .doc(held[0].id)
      .update({ startsAt: Date.now() - 61 * 60_000 });
    expect((await noShow()).body.status).toBe('NO_SHOW');
  });
});
