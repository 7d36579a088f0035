import { randomUUID } from 'node:crypto';
import { BOOKINGS } from '../../../src/modules/bookings/bookings.collections';
import { HOTELS } from '../../../src/modules/hotels/hotels.collections';
import { onBookingWritten } from '../../../src/modules/bookings/bookings.triggers';
import { db } from '../../../src/platform/core/firebase/firebase';
import { IDEMPOTENCY_COLLECTION, recordId } from '../../../src/platform/kits/idempotency/idempotency';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { inboxOf } from '../../helpers/notifications';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';
import { balance, earnings, ledgerCheck, topUp } from '../../helpers/wallet';

// Hotels on the booking engine through the API: room types and rates, availability, the search's whole-stay price,
// booking paid by wallet, the last room raced, cancellation by the hotel's policy with its refund and the partner's
// payout, the partner's queue and moves, strangers refused, bad dates refused with nothing written.
beforeAll(requireEmulators);
jest.setTimeout(120_000);

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Khách sạn Sông Hàn', 'Khách sạn Khác'));
  await topUp(user, 20_000_000);
});

const DAY = 86_400_000;
/** A local date `days` from today in Vietnam (UTC+7). */
const dateIn = (days: number) => new Date(Date.now() + 7 * 3_600_000 + days * DAY).toISOString().slice(0, 10);
const key = () => ({ 'idempotency-key': randomUUID() });

async function hotelWith(rooms: number, extra: Record<string, unknown> = {}) {
  const at = area();
  const made = await call('POST', '/hotels', {
    token: owner.accessToken,
    headers: key(),
    body: {
      partnerId: owner.partnerId,
      name: 'Khách sạn Sông Hàn',
      location: at,
      city: 'DA_NANG',
      stars: 4,
      cancellation: { freeUntilHours: 48, lateFeeBp: 5_000 },
      ...extra,
    },
  });
  expect(made.status).toBe(201);
  const put = await call('PUT', `/hotels/${made.body.id}/rooms/deluxe_double`, {
    token: owner.accessToken,
    body: { name: 'Deluxe Double', rooms, maxGuests: 2, beds: [{ type: 'DOUBLE', count: 1 }], rates: { weekdayVnd: 1_000_000, weekendVnd: 1_400_000 } },
  });
  expect(put.status).toBe(200);
  return { id: made.body.id as string, at };
}
const book = (who: Tokens, hotelId: string, body: Record<string, unknown>, headers = key()) =>
  call('POST', '/hotels/bookings', {
    token: who.accessToken,
    headers,
    body: { hotelId, roomTypeId: 'deluxe_double', guests: 2, payment: { method: 'WALLET' }, ...body },
  });
/** The weekday and weekend nights' prices of a stay from `checkIn` for `nights`. */
const priceOf = (checkIn: string, nights: number) =>
  Array.from({ length: nights }, (_, i) => new Date(Date.parse(checkIn) + i * DAY).getUTCDay()).reduce(
    (sum, d) => sum + (d === 5 || d === 6 ? 1_400_000 : 1_000_000),
    0,
  );

describe('hotel stays', () => {
  it('availability and offers price each night (weekday and weekend rates); a booking paid by wallet is CONFIRMED and takes the rooms', async () => {
    const hotel = await hotelWith(2);
    const [checkIn, checkOut] = [dateIn(10), dateIn(13)];
    const before = await call('GET', `/hotels/${hotel.id}/rooms/deluxe_double/availability?from=${checkIn}&to=${dateIn(12)}`, { token: user.accessToken });
    expect(before.status).toBe(200);
    expect(before.body.nights.map((n: { roomsLeft: number }) => n.roomsLeft)).toEqual([2, 2, 2]);
    const offers = await call('GET', `/hotels/${hotel.id}/offers?checkIn=${checkIn}&checkOut=${checkOut}&guests=2`, { token: user.accessToken });
    expect(offers.body.offers).toEqual([expect.objectContaining({ roomTypeId: 'deluxe_double', roomsLeft: 2, totalVnd: priceOf(checkIn, 3) })]);

    const wallet = await balance(user);
    const booked = await book(user, hotel.id, { checkIn, checkOut });
    expect(booked.status).toBe(201);
    expect(booked.body.booking).toMatchObject({
      vertical: 'HOTEL',
      status: 'CONFIRMED',
      units: [checkIn, dateIn(11), dateIn(12)],
      priceVnd: priceOf(checkIn, 3),
      payment: { mode: 'PREPAY', dueVnd: priceOf(checkIn, 3), paidVnd: priceOf(checkIn, 3) },
      resource: { parentId: hotel.id, parentName: 'Khách sạn Sông Hàn', name: 'Deluxe Double' },
    });
    expect(booked.body.payment).toMatchObject({ status: 'SUCCEEDED', amountVnd: priceOf(checkIn, 3) });
    expect(await balance(user)).toBe(wallet - priceOf(checkIn, 3));
    const after = await call('GET', `/hotels/${hotel.id}/rooms/deluxe_double/availability?from=${checkIn}&to=${dateIn(13)}`, { token: user.accessToken });
    expect(after.body.nights.map((n: { roomsLeft: number }) => n.roomsLeft)).toEqual([1, 1, 1, 2]);
    // Held and paid in one transaction, its history says both: confirmed by the system, the payment its own.
    const history = await call('GET', `/bookings/${booked.body.booking.id}/events`, { token: user.accessToken });
    expect(history.body).toMatchObject([{ action: 'confirm', from: 'HELD', to: 'CONFIRMED', by: 'system:bookings' }]);
    expect(booked.body.booking.payment.paymentId).toBe(booked.body.payment.paymentId);

    // Listed once among the guest's bookings.
    const mine = await call('GET', '/bookings?vertical=HOTEL', { token: user.accessToken });
    expect(mine.body.items.filter((b: { id: string }) => b.id === booked.body.booking.id)).toHaveLength(1);
    // Both parties hear of it (the trigger, through the hub).
    await waitFor(async () => ((await inboxOf(user.user.id, { entityId: booked.body.booking.id })).length > 0 ? true : undefined), {
      what: 'the guest’s notice',
    });
    await waitFor(async () => ((await inboxOf(owner.user.id, { entityId: booked.body.booking.id })).length > 0 ? true : undefined), {
      what: 'the hotel’s notice',
    });
  });

  it('the same Idempotency-Key answers the same booking; another body under it is 422; a retry charges once', async () => {
    const hotel = await hotelWith(3);
    const headers = key();
    const body = { checkIn: dateIn(20), checkOut: dateIn(21) };
    const wallet = await balance(user);
    const [first, again] = [await book(user, hotel.id, body, headers), await book(user, hotel.id, body, headers)];
    expect(first.status).toBe(201);
    expect(again.body.booking.id).toBe(first.body.booking.id);
    // Paid from the wallet at once, its answer was stored with the booking in its commit (the same write time).
    const [entry, booking] = await Promise.all([
      db()
        .collection(IDEMPOTENCY_COLLECTION)
        .doc(recordId(user.user.id, 'post /hotels/bookings', headers['idempotency-key']))
        .get(),
      db().collection(BOOKINGS).doc(first.body.booking.id).get(),
    ]);
    expect([entry.get('state'), entry.updateTime!.isEqual(booking.createTime!)]).toEqual(['DONE', true]);
    expect([again.headers.get('idempotent-replayed'), again.body]).toEqual(['true', first.body]);
    expect(first.body.payment).toMatchObject({ status: 'SUCCEEDED', paymentUrl: null });
    expect((await book(user, hotel.id, { ...body, checkOut: dateIn(22) }, headers)).status).toBe(422);
    expect(await balance(user)).toBe(wallet - priceOf(body.checkIn, 1));
  });

  it('the same key sent three times at once: one booking, one charge, the others a 409 in progress or the replay', async () => {
    const hotel = await hotelWith(3);
    const headers = key();
    const body = { checkIn: dateIn(24), checkOut: dateIn(26) };
    const wallet = await balance(user);
    const tries = await Promise.all([1, 2, 3].map(() => book(user, hotel.id, body, headers)));
    const made = tries.filter((t) => t.status === 201 && t.headers.get('idempotent-replayed') !== 'true');
    expect(made).toHaveLength(1);
    for (const t of tries.filter((x) => x !== made[0]))
      expect(t.status === 409 ? t.body.code : t.body.booking.id).toBe(t.status === 409 ? 'IDEMPOTENCY_IN_PROGRESS' : made[0].body.booking.id);
    const stays = await db().collection(BOOKINGS).where('consumerId', '==', user.user.id).where('details.checkIn', '==', body.checkIn).get();
    expect(stays.size).toBe(1);
    expect(await balance(user)).toBe(wallet - priceOf(body.checkIn, 2));
  });

  it('a key used before with another body: 422, and the handler that started beside the claim books and charges nothing', async () => {
    const hotel = await hotelWith(3);
    const headers = key();
    await db()
      .collection(IDEMPOTENCY_COLLECTION)
      .doc(recordId(user.user.id, 'post /hotels/bookings', headers['idempotency-key']))
      .set({ requestHash: 'another body', state: 'DONE', token: 't', leaseUntil: 0, answer: { status: 201, body: '{}' }, expiresAt: Date.now() + 60_000 });
    const wallet = await balance(user);
    const body = { checkIn: dateIn(27), checkOut: dateIn(28) };
    const refused = await book(user, hotel.id, body, headers);
    expect([refused.status, refused.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // Its handler went on reading the hotel and the room after the answer; it must stop at the claim, not hold.
    await new Promise((r) => setTimeout(r, 1_000));
    const stays = await db().collection(BOOKINGS).where('consumerId', '==', user.user.id).where('details.checkIn', '==', body.checkIn).get();
    expect([stays.size, await balance(user)]).toEqual([0, wallet]);
  });

  it('thirty guests racing for the last room: one booking, 29 × 409 BOOKING_UNAVAILABLE, one payment', async () => {
    const hotel = await hotelWith(1);
    const guests = await Promise.all(Array.from({ length: 30 }, () => registerVerified()));
    await Promise.all(guests.map((g) => topUp(g, 5_000_000)));
    const tries = await Promise.all(guests.map((g) => book(g, hotel.id, { checkIn: dateIn(30), checkOut: dateIn(31) })));
    const statuses = tries.map((t) => t.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(tries.filter((t) => t.status === 409).map((t) => t.body.code)).toEqual(Array(29).fill('BOOKING_UNAVAILABLE'));
    const balances = await Promise.all(guests.map((g) => balance(g)));
    expect(balances.filter((b) => b < 5_000_000)).toHaveLength(1);
  });

  it('cancelled late by its guest: half the price kept by the policy, the rest refunded; the hotel’s owner is paid the fee less the commission; the ledger balances', async () => {
    const hotel = await hotelWith(2, { cancellation: { freeUntilHours: 72, lateFeeBp: 5_000 } });
    const booked = await book(user, hotel.id, { checkIn: dateIn(1), checkOut: dateIn(2) });
    const price = booked.body.booking.priceVnd as number;
    const [wallet, earned] = [await balance(user), await earnings(owner)];
    const cancelled = await call('POST', `/bookings/${booked.body.booking.id}/cancel`, { token: user.accessToken, body: { reason: 'Đổi lịch' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancellation: { feeVnd: price / 2, refundVnd: price / 2, reason: 'Đổi lịch' } });
    await waitFor(async () => ((await balance(user)) === wallet + price / 2 ? true : undefined), { what: 'the refund' });
    await waitFor(async () => ((await earnings(owner)) === earned + (price / 2) * 0.9 ? true : undefined), { what: 'the payout of the fee' });
    await waitFor(
      async () => {
        const seen = await call('GET', `/bookings/${booked.body.booking.id}`, { token: user.accessToken });
        return seen.body.settlement.payout === 'DONE' ? seen.body : undefined;
      },
      { what: 'the settlement marks' },
    ).then((seen) => expect(seen.settlement).toEqual({ refund: 'DONE', extra: 'NONE', payout: 'DONE' }));
    expect((await ledgerCheck(user.user.id)).ok).toBe(true);
    expect((await ledgerCheck(owner.user.id)).ok).toBe(true);
    // The rooms are back at once; cancelling again is 409.
    const nights = await call('GET', `/hotels/${hotel.id}/rooms/deluxe_double/availability?from=${dateIn(1)}&to=${dateIn(1)}`, { token: user.accessToken });
    expect(nights.body.nights[0].roomsLeft).toBe(2);
    expect((await call('POST', `/bookings/${booked.body.booking.id}/cancel`, { token: user.accessToken, body: {} })).body.code).toBe('BOOKING_TRANSITION');
  });

  it('a cancellation’s settlement delivered three times at once refunds and pays out once', async () => {
    const hotel = await hotelWith(2, { cancellation: { freeUntilHours: 72, lateFeeBp: 5_000 } });
    const booked = await book(user, hotel.id, { checkIn: dateIn(1), checkOut: dateIn(2) });
    const id = booked.body.booking.id as string;
    const price = booked.body.booking.priceVnd as number;
    const [wallet, earned] = [await balance(user), await earnings(owner)];
    const confirmed = (await db().collection(BOOKINGS).doc(id).get()).data()!;
    const cancelled = await call('POST', `/bookings/${id}/cancel`, { token: user.accessToken, body: {} });
    expect(cancelled.status).toBe(200);
    const stored = (await db().collection(BOOKINGS).doc(id).get()).data()!;
    // The change as the trigger first sees it (no settlement mark yet), delivered twice more beside the real delivery.
    const event = (): DocumentEvent => ({
      id: `evt-${id}`,
      time: new Date().toISOString(),
      params: { bookingId: id },
      before: { id, data: confirmed },
      after: { id, data: { ...stored, settlement: {} } },
    });
    await Promise.all([onBookingWritten(event(), testConfig()), onBookingWritten(event(), testConfig())]);
    const settled = await waitFor(
      async () => {
        const seen = await call('GET', `/bookings/${id}`, { token: user.accessToken });
        return seen.body.settlement.payout === 'DONE' ? seen.body : undefined;
      },
      { what: 'the settlement' },
    );
    expect(settled.settlement).toEqual({ refund: 'DONE', extra: 'NONE', payout: 'DONE' });
    // Past the real delivery too: nothing more moves.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect([await balance(user), await earnings(owner)]).toEqual([wallet + price / 2, earned + (price / 2) * 0.9]);
    expect((await ledgerCheck(user.user.id)).ok).toBe(true);
    expect((await ledgerCheck(owner.user.id)).ok).toBe(true);
  });

  it('the partner’s queue and moves: its staff see and check in; another partner and another guest get 404; a consumer cannot check in; too early is 409', async () => {
    const hotel = await hotelWith(2);
    const booked = await book(user, hotel.id, { checkIn: dateIn(5), checkOut: dateIn(6) });
    const id = booked.body.booking.id as string;
    const staff = await staffOf(owner);
    const queue = await call('GET', `/bookings/partner?partnerId=${owner.partnerId}&status=CONFIRMED&limit=100`, { token: staff.accessToken });
    expect(queue.status).toBe(200);
    expect(queue.body.items.map((b: { id: string }) => b.id)).toContain(id);
    expect((await call('GET', `/bookings/partner?partnerId=${owner.partnerId}`, { token: rival.accessToken })).status).toBe(404);
    expect((await call('GET', `/bookings/${id}`, { token: rival.accessToken })).body.code).toBe('BOOKING_NOT_FOUND');
    const stranger = await registerVerified();
    expect((await call('GET', `/bookings/${id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await call('POST', `/bookings/${id}/cancel`, { token: stranger.accessToken, body: {} })).status).toBe(404);
    expect((await call('POST', `/bookings/${id}/check-in`, { token: rival.accessToken, body: {} })).status).toBe(404);
    expect((await call('POST', `/bookings/${id}/check-in`, { token: user.accessToken, body: {} })).status).toBe(403);
    const early = await call('POST', `/bookings/${id}/check-in`, { token: staff.accessToken, body: {} });
    expect(early.body).toMatchObject({ code: 'BOOKING_TOO_EARLY', details: { notBefore: expect.any(String) } });
    expect((await call('POST', `/bookings/${id}/start`, { token: staff.accessToken, body: {} })).body.code).toBe('BOOKING_TRANSITION');
    expect((await call('POST', `/bookings/${id}/accept`, { token: staff.accessToken, body: {} })).body.code).toBe('BOOKING_TRANSITION');
    expect((await call('GET', `/bookings/${id}`, { token: staff.accessToken })).body.status).toBe('CONFIRMED');
    const history = await call('GET', `/bookings/${id}/events`, { token: user.accessToken });
    expect(history.body.map((e: { action: string }) => e.action)).toEqual(['confirm']);
    // A partner's cancellation is free to the guest, who sees who cancelled as STAFF (never the staff member's id).
    const second = await book(user, hotel.id, { checkIn: dateIn(7), checkOut: dateIn(8) });
    const byStaff = await call('POST', `/bookings/${second.body.booking.id}/cancel`, { token: staff.accessToken, body: { reason: 'Mất điện' } });
    expect(byStaff.body.cancellation).toMatchObject({ by: staff.user.id, feeVnd: 0, refundVnd: second.body.booking.priceVnd });
    expect((await call('GET', `/bookings/${second.body.booking.id}`, { token: user.accessToken })).body.cancellation.by).toBe('STAFF');
    const seenHistory = await call('GET', `/bookings/${second.body.booking.id}/events`, { token: user.accessToken });
    expect(seenHistory.body.map((e: { by: string }) => e.by)).toEqual(['system:bookings', 'STAFF']);
    // The hotel's own people do not book it (their payment would come out as the partner's earnings).
    expect((await book(owner, hotel.id, { checkIn: dateIn(5), checkOut: dateIn(6) })).body.code).toBe('BOOKING_OWN_RESOURCE');
    // An administrator steps in: cancelled, everything paid refunded, whatever the hotel's policy.
    const third = await book(user, hotel.id, { checkIn: dateIn(9), checkOut: dateIn(10) });
    const stepped = await call('POST', `/admin/bookings/${third.body.booking.id}/cancel`, { token: admin.accessToken, body: { reason: 'Khiếu nại' } });
    expect(stepped.body).toMatchObject({ status: 'CANCELLED', cancellation: { feeVnd: 0, refundVnd: third.body.booking.priceVnd, reason: 'Khiếu nại' } });
    expect((await call('POST', `/admin/bookings/${third.body.booking.id}/cancel`, { token: user.accessToken, body: { reason: 'x' } })).status).toBe(403);
    // Administrators with bookings.manage list every booking.
    const all = await call('GET', `/admin/bookings?partnerId=${owner.partnerId}&vertical=HOTEL&limit=100`, { token: admin.accessToken });
    expect(all.body.items.map((b: { id: string }) => b.id)).toContain(id);
  });

  it('search by city and near a point answers each hotel’s cheapest fitting room with the whole stay; sold-out hotels and too many guests are left out', async () => {
    const hotel = await hotelWith(1);
    const [checkIn, checkOut] = [dateIn(40), dateIn(42)];
    const near = await call(
      'GET',
      `/hotels/stays/search?lat=${hotel.at.lat}&lng=${hotel.at.lng}&radiusM=500&checkIn=${checkIn}&checkOut=${checkOut}&guests=2`,
      {
        token: user.accessToken,
      },
    );
    expect(near.status).toBe(200);
    const found = near.body.items.find((i: { hotel: { id: string } }) => i.hotel.id === hotel.id);
    expect(found.cheapest).toMatchObject({ roomTypeId: 'deluxe_double', totalVnd: priceOf(checkIn, 2), nightly: [expect.any(Object), expect.any(Object)] });
    const three = await call(
      'GET',
      `/hotels/stays/search?lat=${hotel.at.lat}&lng=${hotel.at.lng}&radiusM=500&checkIn=${checkIn}&checkOut=${checkOut}&guests=3`,
      {
        token: user.accessToken,
      },
    );
    expect(three.body.items.some((i: { hotel: { id: string } }) => i.hotel.id === hotel.id)).toBe(false);
    await book(user, hotel.id, { checkIn, checkOut });
    const soldOut = await call('GET', `/hotels/stays/search?lat=${hotel.at.lat}&lng=${hotel.at.lng}&radiusM=500&checkIn=${checkIn}&checkOut=${checkOut}`, {
      token: user.accessToken,
    });
    expect(soldOut.body.items.some((i: { hotel: { id: string } }) => i.hotel.id === hotel.id)).toBe(false);
    const city = await call('GET', `/hotels/stays/search?city=HA_NOI&checkIn=${checkIn}&checkOut=${checkOut}`, { token: user.accessToken });
    expect(city.status).toBe(200);
    expect(city.body.items.some((i: { hotel: { id: string } }) => i.hotel.id === hotel.id)).toBe(false);
  });

  it('bad input is a 400 or 422 with nothing booked: dates in the past or reversed, too long a stay, too many guests, no city or point, an unknown room type', async () => {
    const hotel = await hotelWith(1);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ checkIn: dateIn(-2), checkOut: dateIn(1) }, 400, 'body.checkIn'],
      [{ checkIn: dateIn(5), checkOut: dateIn(3) }, 400, 'body.checkOut'],
      [{ checkIn: dateIn(5), checkOut: dateIn(40) }, 400, 'body.checkIn'],
      [{ checkIn: '2027-02-30', checkOut: dateIn(40) }, 400, 'body.checkIn'],
    ];
    for (const [body, status, field] of cases) {
      const res = await book(user, hotel.id, body);
      expect([res.status, res.body.details?.[0]?.field]).toEqual([status, field]);
    }
    expect((await book(user, hotel.id, { checkIn: dateIn(5), checkOut: dateIn(6), guests: 3 })).body.code).toBe('HOTEL_TOO_MANY_GUESTS');
    expect((await book(user, hotel.id, { checkIn: dateIn(5), checkOut: dateIn(6), roomTypeId: 'suite' })).body.code).toBe('HOTEL_ROOM_NOT_FOUND');
    // The hotel and the room type are read together: an unknown or hidden hotel is 404 whatever the room type (a new
    // guest: this one has used up its booking limit).
    const guest = await registerVerified();
    const unknown = await book(guest, `no-such-${randomUUID()}`, { checkIn: dateIn(5), checkOut: dateIn(6) });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'No such hotel']);
    const hidden = await hotelWith(1);
    await db().collection(HOTELS).doc(hidden.id).update({ status: 'HIDDEN' });
    for (const roomTypeId of ['deluxe_double', 'suite']) {
      const res = await book(guest, hidden.id, { checkIn: dateIn(5), checkOut: dateIn(6), roomTypeId });
      expect([res.status, res.body.message]).toEqual([404, 'No such hotel']);
    }
    expect((await call('GET', `/hotels/stays/search?checkIn=${dateIn(5)}&checkOut=${dateIn(6)}`, { token: user.accessToken })).status).toBe(400);
    const left = await call('GET', `/hotels/${hotel.id}/rooms/deluxe_double/availability?from=${dateIn(5)}&to=${dateIn(5)}`, { token: user.accessToken });
    expect(left.body.nights[0].roomsLeft).toBe(1);
  });
});
