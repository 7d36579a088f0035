import { randomUUID } from 'node:crypto';
import { BOOKING_INVENTORY } from '../../../src/modules/bookings/bookings.collections';
import { bookingDeadline } from '../../../src/modules/bookings/bookings.deadline';
import { onBookingWritten, type BookingTriggerWork } from '../../../src/modules/bookings/bookings.triggers';
import { testConfig } from '../../helpers/config';
import { createBookingEngine, type BookedResource, type BookingCaller, type BookingVertical, type HoldRequest } from '../../../src/modules/bookings';
import { inventoryResourceOf } from '../../../src/modules/bookings/bookings.engine';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { iso } from '../../../src/platform/kits/time/time';
import { AppError } from '../../../src/platform/core/errors/app-error';
import { requireEmulators } from '../../helpers/emulators';

// The booking engine against the emulator, as a vertical calls it: the last room raced, holds that run out, the
// partner's answer, cancellation by the policy, strangers, and every booking move giving its capacity back.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

const clock = { shift: 0 };
const engine = createBookingEngine({ holdMinutes: 10, answerHours: 24, maxLiveHolds: 5 }, () => Date.now() + clock.shift);
afterEach(() => {
  clock.shift = 0;
});

const NIGHTS = ['2027-03-01', '2027-03-02'];
const startsAt = Date.UTC(2027, 2, 1, 7);
function request(resourceId: string, over: Partial<HoldRequest> = {}): HoldRequest {
  return {
    idempotencyKey: randomUUID(),
    vertical: 'HOTEL',
    consumerId: `guest-${randomUUID().slice(0, 8)}`,
    partnerId: `partner-${resourceId}`,
    resource: { id: resourceId, name: 'Deluxe double', parentId: 'hotel-1', parentName: 'Khách sạn Sông Hàn' },
    capacityOf: () => 1,
    units: NIGHTS,
    qty: 1,
    timeZone: 'Asia/Ho_Chi_Minh',
    startsAt,
    endsAt: startsAt + 2 * 86_400_000,
    priceVnd: 2_400_000,
    policy: { freeUntilHours: 48, lateFeeBp: 5_000 },
    details: { guests: 2 },
    ...over,
  };
}
const receiptOf = (b: { priceVnd: number }) => ({ paymentId: `pay-${randomUUID().slice(0, 8)}`, amountVnd: b.priceVnd });
const consumerOf = (r: { consumerId: string }): BookingCaller => ({ by: r.consumerId, role: 'CONSUMER' });
const partnerOf = (r: { partnerId: string }): BookingCaller => ({ by: `staff-${r.partnerId}`, role: 'PARTNER', partnerId: r.partnerId });
const takenBy = async (resourceId: string, unit = NIGHTS[0], vertical: BookingVertical = 'HOTEL') => {
  const doc = await db()
    .collection(BOOKING_INVENTORY)
    .doc(`${inventoryResourceOf({ vertical, resource: { id: resourceId } as BookedResource })}_${unit}`)
    .get();
  return (doc.get('entries') ?? {}) as Record<string, { state: string }>;
};

describe('booking engine', () => {
  it('thirty guests booking the last room at once: exactly one booking, 29 × 409 BOOKING_UNAVAILABLE; the same key again is the same booking', async () => {
    const resourceId = `room-${randomUUID()}`;
    const requests = Array.from({ length: 30 }, () => request(resourceId));
    // A client retries 503 CONTENDED (the resource's queue was longer than its cap on a busy machine), as told.
    const holdRetrying = async (r: (typeof requests)[number]) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await engine.hold(r);
        } catch (err) {
          if ((err as { code?: string }).code !== 'CONTENDED' || attempt === 10) throw err;
        }
      }
    };
    const outcomes = await Promise.allSettled(requests.map(holdRetrying));
    const held = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.booking] : []));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as { statusCode: number; code: string }] : []));
    expect(held).toHaveLength(1);
    expect(refused.map((e) => [e.statusCode, e.code])).toEqual(refused.map(() => [409, 'BOOKING_UNAVAILABLE']));
    expect(held[0]).toMatchObject({ status: 'HELD', holdUntil: expect.any(Number) });
    const winner = requests.find((r) => r.consumerId === held[0].consumerId)!;
    const again = await engine.hold(winner);
    expect([again.replayed, again.booking.id]).toEqual([true, held[0].id]);
    expect(Object.keys(await takenBy(resourceId))).toEqual([held[0].id]);
  });

  it('paid without a partner’s answer: CONFIRMED, the take kept past the hold; a late cancel by the guest pays the policy’s fee and frees the room', async () => {
    const resourceId = `room-${randomUUID()}`;
    const r = request(resourceId);
    const { booking } = await engine.hold(r);
    const confirmed = await engine.paid(booking.id, receiptOf(booking));
    expect(confirmed).toMatchObject({ outcome: 'secured', booking: { status: 'CONFIRMED', holdUntil: null } });
    expect((await takenBy(resourceId))[booking.id]).toMatchObject({ state: 'CONFIRMED' });
    expect(await engine.paid(booking.id, receiptOf(booking))).toMatchObject({ outcome: 'already', booking: { status: 'CONFIRMED' } });
    clock.shift = startsAt - 24 * 3_600_000 - Date.now();
    await expect(engine.hold(request(resourceId))).rejects.toMatchObject({ code: 'BOOKING_UNAVAILABLE' });
    const cancelled = await engine.cancel(booking.id, consumerOf(r), 'Plans changed');
    expect(cancelled).toMatchObject({
      status: 'CANCELLED',
      cancellation: { by: r.consumerId, reason: 'Plans changed', feeVnd: 1_200_000, refundVnd: 1_200_000 },
    });
    expect(await takenBy(resourceId)).toEqual({});
    await expect(engine.cancel(booking.id, consumerOf(r))).rejects.toMatchObject({ statusCode: 409, code: 'BOOKING_TRANSITION' });
    expect((await engine.hold(request(resourceId))).booking.status).toBe('HELD');
  });

  it('a booking the partner answers: PENDING_PARTNER once paid; another partner or guest sees nothing (404); rejected with a reason, the room freed', async () => {
    const resourceId = `room-${randomUUID()}`;
    const r = request(resourceId, { vertical: 'RENTAL_VIEWING', units: ['slot-1'] });
    const { booking } = await engine.hold(r);
    const { booking: pending } = await engine.paid(booking.id);
    expect(pending).toMatchObject({ status: 'PENDING_PARTNER', answerBy: expect.any(Number) });
    // Held until the answer is due (not taken for good): an unanswered booking frees its slot when the answer is overdue.
    expect((await takenBy(resourceId, 'slot-1', 'RENTAL_VIEWING'))[booking.id]).toEqual({ qty: 1, state: 'HELD', until: pending.answerBy });
    const stranger: BookingCaller = { by: 'someone', role: 'PARTNER', partnerId: 'partner-other' };
    await expect(engine.answer(booking.id, stranger, { accepted: true })).rejects.toMatchObject({ statusCode: 404, code: 'BOOKING_NOT_FOUND' });
    await expect(engine.get(booking.id, { by: 'another-guest', role: 'CONSUMER' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(engine.answer(booking.id, consumerOf(r), { accepted: true })).rejects.toMatchObject({ statusCode: 409, code: 'BOOKING_NOT_ALLOWED' });
    const rejected = await engine.answer(booking.id, partnerOf(r), { accepted: false, reason: 'The flat was let this morning' });
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection: { reason: 'The flat was let this morning' } });
    expect(await takenBy(resourceId, 'slot-1', 'RENTAL_VIEWING')).toEqual({});
    await expect(engine.answer(booking.id, partnerOf(r), { accepted: true })).rejects.toMatchObject({ code: 'BOOKING_TRANSITION' });
    // A payment notice for it now is too late (the payment is to be refunded); nothing changes.
    expect(await engine.paid(booking.id)).toMatchObject({ outcome: 'too-late', booking: { status: 'REJECTED' } });
  });

  it('a hold that ran out reads EXPIRED at once and its room is free; its task stores the expiry (a repeat changes nothing); paid now is too late; the key replays it EXPIRED', async () => {
    const resourceId = `room-${randomUUID()}`;
    const r = request(resourceId);
    const { booking } = await engine.hold(r);
    clock.shift = 10 * 60_000 + 1;
    expect((await engine.get(booking.id, consumerOf(r))).status).toBe('EXPIRED');
    expect((await engine.hold(request(resourceId))).booking.status).toBe('HELD');
    expect(await engine.expire(booking.id)).toBe('expired');
    expect(Object.keys(await takenBy(resourceId))).not.toContain(booking.id);
    expect(await engine.expire(booking.id)).toBe('settled');
    expect(await engine.paid(booking.id, receiptOf(booking))).toMatchObject({ outcome: 'too-late', booking: { status: 'EXPIRED' } });
    expect((await engine.hold({ ...r })).booking.status).toBe('EXPIRED');
    expect((await engine.get(booking.id, partnerOf(r))).status).toBe('EXPIRED');
  });

  it('the deadline task expires an unanswered booking when due, and leaves an answered one alone', async () => {
    const resourceId = `room-${randomUUID()}`;
    const first = request(resourceId, { vertical: 'MEDICAL', capacityOf: () => 2 });
    const second = request(resourceId, { vertical: 'MEDICAL', capacityOf: () => 2 });
    const a = (await engine.hold(first)).booking;
    const b = (await engine.hold(second)).booking;
    await engine.paid(a.id);
    await engine.paid(b.id);
    await engine.answer(b.id, partnerOf(second), { accepted: true });
    // The hold's task, armed for the hold's end, finds a deadline moved later (the answer's) and leaves it to its own task.
    clock.shift = 10 * 60_000 + 1;
    expect(await engine.expire(a.id, a.holdUntil!)).toBe('settled');
    clock.shift = 24 * 3_600_000 + 1;
    expect(await engine.expire(a.id, a.holdUntil!)).toBe('settled');
    expect(await engine.expire(a.id)).toBe('expired');
    expect(await engine.expire(a.id)).toBe('settled');
    expect(await engine.expire(b.id)).toBe('settled');
    expect((await engine.get(a.id, consumerOf(first))).status).toBe('EXPIRED');
    expect((await engine.get(b.id, consumerOf(second))).status).toBe('CONFIRMED');
    expect(Object.keys(await takenBy(resourceId, NIGHTS[0], 'MEDICAL'))).toEqual([b.id]);
  });

  it('the stay itself: check-in not before 12 hours ahead, no-show not before a day after the start, no guest’s cancel once started; completed or no-show, the room is freed; only the partner moves it', async () => {
    const resourceId = `room-${randomUUID()}`;
    const r = request(resourceId, { capacityOf: () => 2 });
    const guest = request(resourceId, { capacityOf: () => 2 });
    const { booking } = await engine.hold(r);
    const other = (await engine.hold(guest)).booking;
    await engine.paid(booking.id, receiptOf(booking));
    await engine.paid(other.id, receiptOf(other));
    clock.shift = startsAt - 13 * 3_600_000 - Date.now();
    await expect(engine.begin(booking.id, partnerOf(r))).rejects.toMatchObject({ statusCode: 409, code: 'BOOKING_TOO_EARLY' });
    clock.shift = startsAt - 11 * 3_600_000 - Date.now();
    await expect(engine.begin(booking.id, consumerOf(r))).rejects.toMatchObject({ code: 'BOOKING_NOT_ALLOWED' });
    expect((await engine.begin(booking.id, partnerOf(r))).status).toBe('CHECKED_IN');
    // A check-in ahead of the start is not a stay had: no completion (and its payout) before the start.
    await expect(engine.complete(booking.id, partnerOf(r))).rejects.toMatchObject({ code: 'BOOKING_TOO_EARLY' });
    await expect(engine.cancel(booking.id, consumerOf(r))).rejects.toMatchObject({ code: 'BOOKING_TRANSITION' });
    clock.shift = startsAt + 3_600_000 - Date.now();
    await expect(engine.cancel(other.id, consumerOf(guest))).rejects.toMatchObject({ statusCode: 409, code: 'BOOKING_STARTED' });
    await expect(engine.noShow(other.id, partnerOf(guest))).rejects.toMatchObject({ code: 'BOOKING_TOO_EARLY' });
    clock.shift = startsAt + 24 * 3_600_000 - Date.now();
    expect((await engine.noShow(other.id, partnerOf(guest))).status).toBe('NO_SHOW');
    expect(Object.keys(await takenBy(resourceId))).toEqual([booking.id]);
    expect((await engine.complete(booking.id, partnerOf(r))).status).toBe('COMPLETED');
    expect(await takenBy(resourceId)).toEqual({});
    // The moves' lines; the deployed settlement trigger may add its own notes (this test's partner has no owner to pay).
    const moves = (await db().collection('bookings').doc(booking.id).collection('events').get()).docs.filter((d) => d.get('action') !== 'settlementFailed');
    expect(moves.map((d) => d.get('action')).sort()).toEqual(['checkIn', 'complete', 'confirm']);
  });

  it('what is due follows the vertical: a hotel prepays the price (no other amount secures it), a clinic takes nothing ahead, so its late cancel costs nothing', async () => {
    const room = (await engine.hold(request(`room-${randomUUID()}`))).booking;
    expect(room.payment).toEqual({ mode: 'PREPAY', dueVnd: 2_400_000, paidVnd: 0, paymentId: null });
    await expect(engine.paid(room.id)).rejects.toThrow(/payment of 2400000/);
    await expect(engine.paid(room.id, { paymentId: 'p1', amountVnd: 1 })).rejects.toThrow(/payment of 2400000/);
    expect((await engine.paid(room.id, { paymentId: 'p1', amountVnd: 2_400_000 })).booking.payment).toMatchObject({ paidVnd: 2_400_000, paymentId: 'p1' });
    const visit = request(`doctor-${randomUUID()}`, { vertical: 'MEDICAL', units: ['slot-9'] });
    const appointment = (await engine.hold(visit)).booking;
    expect(appointment).toMatchObject({ unitKind: 'SLOT', needsPartnerAnswer: true, payment: { mode: 'AT_VENUE', dueVnd: 0 } });
    await engine.paid(appointment.id);
    await engine.answer(appointment.id, partnerOf(visit), { accepted: true });
    clock.shift = startsAt - 3_600_000 - Date.now();
    expect((await engine.cancel(appointment.id, consumerOf(visit))).cancellation).toMatchObject({ feeVnd: 0, refundVnd: 0 });
  });

  it('the trigger asks for the deadline’s task under one id per due time (a hold’s end, then the answer’s; a redelivery asks for the same task, which the queue drops); a change of nothing due arms nothing; the parties are told of each step; a confirmation arms both reminders', async () => {
    const resourceId = `room-${randomUUID()}`;
    const r = request(resourceId, { vertical: 'MEDICAL' });
    const armed: Array<[string, number, string | undefined]> = [];
    const told: string[] = [];
    const reminders: Array<[string, number]> = [];
    const work = {
      hub: { dispatch: async (n: { event: string }) => void told.push(n.event) },
      deadlines: { schedule: async (id: string, delaySec: number, phase?: string) => void armed.push([id, delaySec, phase]) },
      remind: async (b: { id: string }, hours: number) => reminders.push([b.id, hours]) > 0,
      members: async () => ['clinic-staff'],
      settle: async () => undefined,
      now: Date.now(),
    } as unknown as BookingTriggerWork;
    const config = testConfig();
    const { booking: held } = await engine.hold(r);
    for (let i = 0; i < 2; i++) await onBookingWritten(changeOf(undefined, held), config, work);
    const { booking: pending } = await engine.paid(held.id);
    await onBookingWritten(changeOf(held, pending), config, work);
    await onBookingWritten(changeOf(pending, pending), config, work);
    const accepted = await engine.answer(held.id, partnerOf(r), { accepted: true });
    expect(await onBookingWritten(changeOf(pending, accepted), config, work)).toBe('told 1,reminder 24h,reminder 1h');
    expect(told).toEqual(['booking.medical.created', 'booking.medical.created', 'booking.medical.confirmed']);
    expect(reminders).toEqual([
      [held.id, 24],
      [held.id, 1],
    ]);
    expect(armed.map(([id, , phase]) => [id, phase])).toEqual([
      [held.id, String(held.holdUntil)],
      [held.id, String(held.holdUntil)],
      [held.id, String(pending.answerBy)],
    ]);
    expect(new Set(armed.map(([id, , phase]) => bookingDeadline.spec.taskId(id, phase))).size).toBe(2);
    expect(armed[0][1]).toBeGreaterThanOrEqual(599);
  });
});

/** A write of `bookings/{id}` as the trigger receives it. */
function changeOf(before: { id: string } | undefined, after: { id: string } | undefined): DocumentEvent {
  return {
    id: `evt-${randomUUID()}`,
    time: iso(Date.now()),
    params: {},
    before: before && { id: before.id, data: before },
    after: after && { id: after.id, data: after },
  };
}

describe('administrators and overstays', () => {
  it('an administrator cancels a checked-in booking (annul): CANCELLED, all paid to be refunded, the capacity back', async () => {
    const r = request(`room-${randomUUID()}`);
    const { booking } = await engine.hold(r);
    await engine.paid(booking.id, receiptOf(booking));
    clock.shift = startsAt - 3_600_000 - Date.now();
    await engine.begin(booking.id, partnerOf(r));
    const admin: BookingCaller = { by: 'admin-1', role: 'ADMIN' };
    await expect(engine.cancel(booking.id, admin)).rejects.toMatchObject({ code: 'BOOKING_TRANSITION' });
    await expect(engine.adminCancel(booking.id, partnerOf(r), 'x')).rejects.toMatchObject({ code: 'BOOKING_NOT_ALLOWED' });
    const annulled = await engine.adminCancel(booking.id, admin, 'Khách chưa từng đến');
    expect(annulled).toMatchObject({ status: 'CANCELLED', cancellation: { by: 'admin-1', feeVnd: 0, refundVnd: booking.priceVnd } });
    expect(await takenBy(r.resource.id)).toEqual({});
  });

  it('an overstay costs each hour begun past the end and its 15 minutes’ grace, at the booking’s hourly price; hotels have none', async () => {
    const { overstayOf } = await import('../../../src/modules/bookings/bookings.engine');
    const parked = { vertical: 'PARKING' as const, unitKind: 'HOUR' as const, endsAt: 1_000_000_000_000, priceVnd: 60_000, units: ['a', 'b', 'c'] };
    expect(overstayOf(parked, parked.endsAt + 15 * 60_000)).toBeNull();
    expect(overstayOf(parked, parked.endsAt + 15 * 60_000 + 1)).toEqual({ reason: 'OVERSTAY', units: 1, feeVnd: 20_000 });
    expect(overstayOf(parked, parked.endsAt + 80 * 60_000)).toEqual({ reason: 'OVERSTAY', units: 2, feeVnd: 40_000 });
    expect(overstayOf({ ...parked, vertical: 'HOTEL', unitKind: 'NIGHT' }, parked.endsAt + 5 * 3_600_000)).toBeNull();
    // Completed days late: billed for at most the hours booked.
    expect(overstayOf(parked, parked.endsAt + 3 * 86_400_000)).toEqual({ reason: 'OVERSTAY', units: 3, feeVnd: 60_000 });
  });

  it('requests waiting for a partner count toward the live holds: a sixth free request is 409 BOOKING_TOO_MANY_HOLDS', async () => {
    const consumerId = `guest-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 5; i++) {
      const { booking } = await engine.hold(request(`listing-${randomUUID()}`, { consumerId, vertical: 'RENTAL_VIEWING', priceVnd: 0 }));
      expect((await engine.paid(booking.id)).booking.status).toBe('PENDING_PARTNER');
    }
    await expect(engine.hold(request(`listing-${randomUUID()}`, { consumerId, vertical: 'RENTAL_VIEWING', priceVnd: 0 }))).rejects.toMatchObject({
      code: 'BOOKING_TOO_MANY_HOLDS',
    });
  });

  it('paid in the hold’s transaction: CONFIRMED at once with its payment written beside it and never counted as a hold; refused, HELD and counted; a failure writes nothing', async () => {
    const consumerId = `guest-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 5; i++) await engine.hold(request(`room-${randomUUID()}`, { consumerId }));
    const markers = db().collection('test_markers');
    const paying = (outcome: 'pay' | 'refuse' | 'fail') => async (tx: FirebaseFirestore.Transaction, b: { id: string; payment: { dueVnd: number } }) => {
      if (outcome === 'refuse') throw new AppError(409, 'No money').withCode('WALLET_INSUFFICIENT_FUNDS');
      if (outcome === 'fail') throw new Error('the ledger is down');
      return { receipt: { paymentId: `pay-${b.id}`, amountVnd: b.payment.dueVnd }, write: () => tx.set(markers.doc(b.id), { paid: true }) };
    };
    // Five unpaid holds already: a booking paid at once is not one more.
    const r = request(`room-${randomUUID()}`, { consumerId });
    const paid = await engine.hold(r, { pay: paying('pay') });
    expect(paid.booking).toMatchObject({ status: 'CONFIRMED', holdUntil: null, payment: { paidVnd: r.priceVnd, paymentId: `pay-${paid.booking.id}` } });
    expect((await takenBy(r.resource.id))[paid.booking.id]).toMatchObject({ state: 'CONFIRMED' });
    expect((await markers.doc(paid.booking.id).get()).exists).toBe(true);
    const history = await db().collection('bookings').doc(paid.booking.id).collection('events').get();
    expect(history.docs.map((d) => [d.get('action'), d.get('from'), d.get('to')])).toEqual([['confirm', 'HELD', 'CONFIRMED']]);
    // Refused, it would be a sixth unpaid hold: 409, nothing written.
    const refusedHold = request(`room-${randomUUID()}`, { consumerId });
    await expect(engine.hold(refusedHold, { pay: paying('refuse') })).rejects.toMatchObject({ code: 'BOOKING_TOO_MANY_HOLDS' });
    expect(await takenBy(refusedHold.resource.id)).toEqual({});
    // Another guest's refused payment: HELD, the refusal answered with it.
    const other = request(`room-${randomUUID()}`);
    const held = await engine.hold(other, { pay: paying('refuse') });
    expect([held.booking.status, held.payRefused?.code]).toEqual(['HELD', 'WALLET_INSUFFICIENT_FUNDS']);
    // A failure (not a refusal), or the caller's own check refusing: nothing held, nothing paid, no booking.
    const own = async () => Promise.reject(new AppError(403, 'Yours').withCode('BOOKING_OWN_RESOURCE'));
    for (const [o, error] of [
      [{ pay: paying('fail') }, { message: 'the ledger is down' }],
      [{ pay: paying('pay'), check: own }, { code: 'BOOKING_OWN_RESOURCE' }],
    ] as const) {
      const r2 = request(`room-${randomUUID()}`);
      await expect(engine.hold(r2, o)).rejects.toMatchObject(error);
      expect(await takenBy(r2.resource.id)).toEqual({});
      expect((await db().collection('bookings').where('consumerId', '==', r2.consumerId).get()).size).toBe(0);
    }
  });

  it('paid in the hold’s transaction where the partner answers: PENDING_PARTNER, its units held until the answer is due, still counted; nothing due, nothing paid; a replay pays nothing again', async () => {
    const writes: string[] = [];
    const pay = async (_tx: FirebaseFirestore.Transaction, b: { id: string; payment: { dueVnd: number } }) => ({
      receipt: { paymentId: `pay-${b.id}`, amountVnd: b.payment.dueVnd },
      write: () => void writes.push(b.id),
    });
    const consumerId = `guest-${randomUUID().slice(0, 8)}`;
    const r = request(`visit-${randomUUID()}`, { consumerId, vertical: 'HOME_SERVICE', priceVnd: 1_000_000 });
    const made = await engine.hold(r, { pay });
    expect(made).toMatchObject({ paidAtOnce: true, booking: { status: 'PENDING_PARTNER', holdUntil: null, payment: { dueVnd: 300_000, paidVnd: 300_000 } } });
    const entry = (await takenBy(r.resource.id, NIGHTS[0], 'HOME_SERVICE'))[made.booking.id] as unknown as { state: string; until: number };
    expect(entry).toMatchObject({ state: 'HELD', until: made.booking.answerBy });
    const replay = await engine.hold(r, { pay });
    expect([replay.replayed, replay.paidAtOnce, writes]).toEqual([true, undefined, [made.booking.id]]);
    // Four more waiting for their answers: the sixth is one too many, paid or not.
    for (let i = 0; i < 4; i++) await engine.hold(request(`visit-${randomUUID()}`, { consumerId, vertical: 'HOME_SERVICE', priceVnd: 1_000_000 }), { pay });
    await expect(engine.hold(request(`visit-${randomUUID()}`, { consumerId, vertical: 'HOME_SERVICE', priceVnd: 1_000_000 }), { pay })).rejects.toMatchObject({
      code: 'BOOKING_TOO_MANY_HOLDS',
    });
    // Nothing due (a clinic): the payment is never asked for.
    const free = await engine.hold(request(`doctor-${randomUUID()}`, { vertical: 'MEDICAL' }), { pay });
    expect([free.booking.status, free.paidAtOnce, writes.includes(free.booking.id)]).toEqual(['HELD', undefined, false]);
  });
});

describe('booking keys', () => {
  it('a key sent again with another resource, other units or another quantity is 422 IDEMPOTENCY_KEY_REUSED, nothing held', async () => {
    const r = request(`room-${randomUUID()}`, { capacityOf: () => 3 });
    await engine.hold(r);
    for (const other of [{ resource: { ...r.resource, id: `room-${randomUUID()}` } }, { units: [NIGHTS[0]] }, { qty: 2 }])
      await expect(engine.hold({ ...r, ...other })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(Object.keys(await takenBy(r.resource.id))).toHaveLength(1);
  });
});

describe('booking reminders', () => {
  it('a reminder farther off than one task may wait hops (20 days at most); a passed one is not armed; each hop’s task id names its time', async () => {
    const { armReminder, REMINDER_HOP_SEC, bookingReminder } = await import('../../../src/modules/bookings/bookings.deadline');
    const asked: Array<[string, number, string | undefined]> = [];
    const scheduler = { schedule: async (id: string, inSec: number, phase?: string) => void asked.push([id, inSec, phase]) };
    const now = Date.UTC(2027, 0, 1);
    const far = { id: 'b-far', startsAt: now + 40 * 86_400_000 } as Parameters<typeof armReminder>[0];
    const near = { id: 'b-near', startsAt: now + 2 * 86_400_000 } as Parameters<typeof armReminder>[0];
    expect(await armReminder(far, 24, now, scheduler)).toBe(true);
    expect(await armReminder(near, 24, now, scheduler)).toBe(true);
    expect(await armReminder(near, 72, now, scheduler)).toBe(false);
    // 39 days to the reminder: the hop lands 20 days before it (19 days from now), then the reminder itself.
    const dueSec = (far.startsAt - 24 * 3_600_000) / 1000;
    expect(asked.map(([id, inSec]) => [id, inSec])).toEqual([
      ['b-far', dueSec - REMINDER_HOP_SEC - now / 1000],
      ['b-near', 86_400],
    ]);
    expect(bookingReminder.spec.taskId('b-far', asked[0][2])).toBe(`booking-b-far-remind-24h-${far.startsAt}-${dueSec - REMINDER_HOP_SEC}`);
    // A redelivery a minute later asks for the same task.
    await armReminder(far, 24, now + 60_000, scheduler);
    expect(asked[2][2]).toBe(asked[0][2]);
  });

  it('the reminder task reminds only a booking still CONFIRMED for the start it was armed for', async () => {
    const { remindOnce } = await import('../../../src/modules/bookings/bookings.tasks');
    const r = request(`room-${randomUUID()}`);
    const { booking } = await engine.hold(r);
    const payload = { bookingId: booking.id, hours: '24', startsAt: String(booking.startsAt) };
    expect(await remindOnce(payload, testConfig())).toBe('no reminder');
    await engine.paid(booking.id, receiptOf(booking));
    expect(await remindOnce({ ...payload, startsAt: String(booking.startsAt + 1) }, testConfig())).toBe('no reminder');
    expect(await remindOnce(payload, testConfig(), booking.startsAt - 24 * 3_600_000)).toBe('reminded');
    expect(await remindOnce(payload, testConfig(), booking.startsAt + 1)).toBe('too late');
    await engine.cancel(booking.id, consumerOf(r));
    expect(await remindOnce(payload, testConfig(), booking.startsAt - 24 * 3_600_000)).toBe('no reminder');
  });
});
