import { randomUUID } from 'node:crypto';
import { createPromotionsService } from '../../../src/modules/promotions/promotions.service';
import { db } from '../../../src/platform/core/firebase/firebase';
import { AppError } from '../../../src/platform/core/errors/app-error';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';
import { seedRide, setRideStatus } from '../../helpers/payables';
import { waitFor } from '../../helpers/wait';
import { PROMOTIONS, PROMOTION_REDEMPTIONS } from '../../../src/modules/promotions/promotions.model';
import { RIDES } from '../../../src/modules/rides/rides.collections';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';

beforeAll(requireEmulators);

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Shop Một', 'Shop Hai'));
});

const code = () => `T${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase();
const day = 86_400_000;
const voucher = (extra: Record<string, unknown> = {}) => ({
  code: code(),
  title: 'Giảm 20% chuyến đi',
  kind: 'PERCENT',
  value: 20,
  maxDiscount: 30_000,
  minSpend: 50_000,
  startsAt: new Date(Date.now() - day).toISOString(),
  endsAt: new Date(Date.now() + day).toISOString(),
  perUserLimit: 2,
  verticals: ['RIDE', 'ORDER'],
  ...extra,
});
const create = (who: Tokens, body: Record<string, unknown>) => call('POST', '/promotions/manage', { token: who.accessToken, body });
const validate = (who: Tokens, body: Record<string, unknown>) => call('POST', '/promotions/validate', { token: who.accessToken, body });
const redeem = (who: Tokens, body: Record<string, unknown>) =>
  call('POST', '/promotions/redeem', { token: who.accessToken, body, headers: { 'idempotency-key': randomUUID() } });

describe('promotions', () => {
  it('100 people redeeming the last 10 uses at once: exactly 10 get one', async () => {
    const made = await create(admin, voucher({ totalLimit: 10, perUserLimit: 1, minSpend: 0 }));
    expect(made.status).toBe(201);
    // Each racer's own ride (as the rides module would report it).
    const service = createPromotionsService({
      partnerRole: async () => undefined,
      payable: async (ref) => ({ ownerId: ref.id.slice('ride-'.length), partnerId: null, amount: 100_000, status: 'CONFIRMED', voided: false }),
    });
    const attempt = async (userId: string): Promise<string> => {
      for (let i = 0; ; i += 1) {
        try {
          await service.redeem(userId, { code: made.body.code, payable: { kind: 'RIDE', id: `ride-${userId}` } });
          return 'REDEEMED';
        } catch (err) {
          // An app retries 503 CONTENDED; anything else is the answer.
          if (!(err instanceof AppError) || err.code !== 'CONTENDED' || i === 20) return err instanceof AppError ? err.code : String(err);
        }
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => attempt(`racer-${randomUUID()}-${i}`)));
    const counts = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    expect(counts).toEqual({ REDEEMED: 10, PROMOTION_EXHAUSTED: 90 });
    const stored = await db().collection(PROMOTION_REDEMPTIONS).where('promotionId', '==', made.body.id).where('status', '==', 'REDEEMED').count().get();
    expect(stored.data().count).toBe(10);
    const figures = await call('GET', `/promotions/manage/${made.body.id}`, { token: admin.accessToken });
    expect(figures.body.stats).toEqual({ redeemed: 10, remaining: 0 });
    // Used up in all (one query of its shards tells), it is no longer offered, to someone who never used it either;
    // one with uses left still is.
    const open = await create(admin, voucher({ totalLimit: 10, perUserLimit: 1, minSpend: 0 }));
    const offered = (await call('GET', '/promotions', { token: user.accessToken })).body.items.map((p: { id: string }) => p.id);
    expect([offered.includes(made.body.id), offered.includes(open.body.id)]).toEqual([false, true]);
  });

  it('validates and redeems within the terms: cap, minimum, vertical, per-user uses, one use per reference, release', async () => {
    const me = await registerVerified();
    const v = (await create(admin, voucher())).body;
    expect(v).toMatchObject({ status: 'ACTIVE', partnerId: null, totalLimit: null, stats: { redeemed: 0, remaining: null } });
    const lower = v.code.toLowerCase().replace(/(.{4})/, '$1 ');
    expect((await validate(me, { code: lower, vertical: 'RIDE', amount: 100_000 })).body).toMatchObject({ discount: 20_000, finalAmount: 80_000 });
    expect((await validate(me, { code: v.code, vertical: 'ORDER', amount: 200_000 })).body.discount).toBe(30_000);
    expect((await validate(me, { code: v.code, vertical: 'RIDE', amount: 40_000 })).body).toMatchObject({
      code: 'PROMOTION_MIN_SPEND',
      details: { minSpend: 50_000 },
    });
    expect((await validate(me, { code: v.code, vertical: 'BOOKING', amount: 100_000 })).body.code).toBe('PROMOTION_NOT_APPLICABLE');
    expect((await validate(me, { code: 'NOPE123', vertical: 'RIDE', amount: 100_000 })).body.code).toBe('PROMOTION_NOT_FOUND');
    expect((await validate(me, { code: v.code, vertical: 'RIDE', amount: 1.5 })).status).toBe(400);

    const rideA = await seedRide(me.user.id, { quote: 100_000 });
    const rideB = await seedRide(me.user.id, { status: 'COMPLETED', quote: 55_000, fare: 60_000 });
    const rideC = await seedRide(me.user.id, { status: 'IN_PROGRESS', quote: 60_000 });
    const theirs = await seedRide(user.user.id, { quote: 500_000 });
    const ride = (id: string) => ({ kind: 'RIDE', id });
    // The amount, seller and reference are the server's: a client sending them is refused.
    for (const extra of [{ amount: 1_000_000 }, { partnerId: owner.partnerId }, { vertical: 'ORDER' }, { reference: 'any' }]) {
      const res = await redeem(me, { code: v.code, payable: ride(rideA), ...extra });
      expect(res.status).toBe(400);
    }
    expect((await redeem(me, { code: v.code, vertical: 'RIDE', amount: 100_000, reference: 'ride-A' })).status).toBe(400);
    // Someone else's ride, or none, is not mine to discount.
    expect((await redeem(me, { code: v.code, payable: ride(theirs) })).body.code).toBe('PROMOTION_PAYABLE_NOT_FOUND');
    expect((await redeem(me, { code: v.code, payable: ride('no-such-ride') })).body.code).toBe('PROMOTION_PAYABLE_NOT_FOUND');

    const first = await redeem(me, { code: v.code, payable: ride(rideA) });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      amount: 100_000,
      discount: 20_000,
      finalAmount: 80_000,
      status: 'REDEEMED',
      vertical: 'RIDE',
      reference: `RIDE:${rideA}`,
      payable: ride(rideA),
    });
    expect((await redeem(me, { code: v.code, payable: ride(rideA) })).body.id).toBe(first.body.id); // the same use
    // A completed ride is paid already: no voucher on it (issue 29). An ongoing one takes the server's amount.
    expect((await redeem(me, { code: v.code, payable: ride(rideB) })).body).toMatchObject({
      code: 'PROMOTION_PAYABLE_SETTLED',
      details: { status: 'COMPLETED' },
    });
    await setRideStatus(rideB, 'IN_PROGRESS');
    expect((await redeem(me, { code: v.code, payable: ride(rideB) })).body).toMatchObject({ amount: 60_000, discount: 12_000 });
    await setRideStatus(rideB, 'COMPLETED');
    expect((await redeem(me, { code: v.code, payable: ride(rideC) })).body.code).toBe('PROMOTION_USER_LIMIT');
    const listed = (await call('GET', '/promotions?vertical=RIDE', { token: me.accessToken })).body.items;
    expect(listed.find((p: { id: string }) => p.id === v.id)).toBeUndefined(); // no uses left for me

    // A use comes back only once its ride is called off: not while it is on, nor once completed.
    const release = (who: Tokens, id: string) => call('DELETE', `/promotions/redemptions/${id}`, { token: who.accessToken });
    const refused = await release(me, first.body.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PROMOTION_RELEASE_REFUSED', details: { status: 'CONFIRMED' } });
    await setRideStatus(rideA, 'IN_PROGRESS');
    expect((await release(me, first.body.id)).body.code).toBe('PROMOTION_RELEASE_REFUSED');
    const onB = (await call('GET', '/promotions/redemptions', { token: me.accessToken })).body.items.find(
      (r: { reference: string }) => r.reference === `RIDE:${rideB}`,
    );
    expect((await release(me, onB.id)).body).toMatchObject({ code: 'PROMOTION_RELEASE_REFUSED', details: { status: 'COMPLETED' } });
    expect((await call('GET', `/promotions/manage/${v.id}`, { token: admin.accessToken })).body.stats.redeemed).toBe(2);

    await setRideStatus(rideA, 'CANCELLED', { cancelledBy: 'rider' });
    expect((await redeem(me, { code: v.code, payable: ride(rideA) })).body.code).toBe('PROMOTION_PAYABLE_CLOSED');
    const released = await release(me, first.body.id);
    expect(released.body).toMatchObject({ status: 'RELEASED', releasedAt: expect.any(String) });
    expect((await release(me, first.body.id)).body.status).toBe('RELEASED');
    expect((await release(user, first.body.id)).status).toBe(404);
    expect((await call('GET', '/promotions', { token: me.accessToken })).body.items.find((p: { id: string }) => p.id === v.id)).toMatchObject({
      usesLeftForMe: 1,
    });
    // A called-off ride takes no new use.
    const gone = await seedRide(me.user.id, { status: 'NO_DRIVER' });
    expect((await redeem(me, { code: v.code, payable: ride(gone) })).body).toMatchObject({
      code: 'PROMOTION_PAYABLE_CLOSED',
      details: { status: 'NO_DRIVER' },
    });
    expect((await redeem(me, { code: v.code, payable: ride(rideC) })).status).toBe(201);
    const mine = (await call('GET', '/promotions/redemptions', { token: me.accessToken })).body.items.map(
      (r: { reference: string; status: string }) => `${r.reference}:${r.status}`,
    );
    expect(mine).toEqual([`RIDE:${rideC}:REDEEMED`, `RIDE:${rideB}:REDEEMED`, `RIDE:${rideA}:RELEASED`]);
  });

  it('one voucher per ride, before it is paid; a completed ride’s use comes back once its payment is fully refunded, not before (issue 29)', async () => {
    const me = await registerVerified();
    const v = (await create(admin, voucher({ minSpend: 0 }))).body;
    const other = (await create(admin, voucher({ minSpend: 0 }))).body;
    const big = (await create(admin, voucher({ minSpend: 80_000 }))).body;
    const rideId = await seedRide(me.user.id, { status: 'IN_PROGRESS', quote: 70_000, fare: 70_000 });
    // Min-spend against the server's amount (70,000), whatever the client believes.
    expect((await redeem(me, { code: big.code, payable: { kind: 'RIDE', id: rideId } })).body).toMatchObject({ code: 'PROMOTION_MIN_SPEND' });
    // Two vouchers at once on the same ride: one wins, the other is 409 PROMOTION_PAYABLE_TAKEN.
    const both = await Promise.all([v, other].map((p) => redeem(me, { code: p.code, payable: { kind: 'RIDE', id: rideId } })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('PROMOTION_PAYABLE_TAKEN');
    const used = both.find((r) => r.status === 201)!;
    expect(used.body).toMatchObject({ amount: 70_000, discount: 14_000 });
    expect((await redeem(me, { code: used.body.code === v.code ? other.code : v.code, payable: { kind: 'RIDE', id: rideId } })).body.code).toBe(
      'PROMOTION_PAYABLE_TAKEN',
    );
    await setRideStatus(rideId, 'COMPLETED');
    // The rides module settles the completed ride (its trigger charges the fare and records the payment on the ride).
    const paymentId = await waitFor(async () => ((await db().collection(RIDES).doc(rideId).get()).get('paymentId') as string | null) ?? undefined, {
      what: 'the ride settled',
    });
    expect((await call('DELETE', `/promotions/redemptions/${used.body.id}`, { token: me.accessToken })).body.code).toBe('PROMOTION_RELEASE_REFUSED');
    await db().collection(PAYMENTS).doc(paymentId).update({ status: 'REFUNDED', refundedAmount: 70_000 });
    expect((await call('DELETE', `/promotions/redemptions/${used.body.id}`, { token: me.accessToken })).body.status).toBe('RELEASED');
  });

  it('a partner’s voucher never applies to a ride (rides have no seller)', async () => {
    const me = await registerVerified();
    const theirs = await create(owner, voucher({ partnerId: owner.partnerId, minSpend: 0 }));
    const rideId = await seedRide(me.user.id);
    expect((await redeem(me, { code: theirs.body.code, payable: { kind: 'RIDE', id: rideId } })).body.code).toBe('PROMOTION_NOT_APPLICABLE');
  });

  it('partners manage their own vouchers for their own sales; dates and status are honoured; bad terms are 400', async () => {
    const mine = await create(owner, voucher({ partnerId: owner.partnerId, kind: 'FIXED', value: 15_000, maxDiscount: undefined, verticals: ['ORDER'] }));
    expect(mine.status).toBe(201);
    expect((await create(owner, voucher())).body.code).toBe('PROMOTION_NOT_MANAGER'); // a platform voucher
    expect((await create(rival, voucher({ partnerId: owner.partnerId }))).body.code).toBe('PROMOTION_NOT_MANAGER');
    expect((await create(user, voucher())).body.code).toBe('ROLE_REQUIRED');
    expect((await create(admin, voucher({ code: mine.body.code.toLowerCase() }))).body.code).toBe('PROMOTION_CODE_TAKEN');
    expect((await call('PATCH', `/promotions/manage/${mine.body.id}`, { token: rival.accessToken, body: { title: 'Của tôi' } })).status).toBe(403);
    expect((await call('GET', `/promotions/manage?partnerId=${owner.partnerId}`, { token: rival.accessToken })).status).toBe(403);
    expect((await call('GET', '/promotions/manage', { token: owner.accessToken })).status).toBe(403);
    expect(
      (await call('GET', `/promotions/manage?partnerId=${owner.partnerId}`, { token: owner.accessToken })).body.items.map((p: { id: string }) => p.id),
    ).toContain(mine.body.id);

    expect((await validate(user, { code: mine.body.code, vertical: 'ORDER', amount: 100_000 })).body.code).toBe('PROMOTION_NOT_APPLICABLE'); // another seller
    expect((await validate(user, { code: mine.body.code, vertical: 'ORDER', amount: 100_000, partnerId: owner.partnerId })).body.discount).toBe(15_000);
    expect((await validate(user, { code: mine.body.code, vertical: 'ORDER', amount: 10_000, partnerId: owner.partnerId })).body.code).toBe(
      'PROMOTION_MIN_SPEND',
    );

    const off = await call('PATCH', `/promotions/manage/${mine.body.id}`, { token: owner.accessToken, body: { status: 'INACTIVE' } });
    expect(off.body.status).toBe('INACTIVE');
    expect((await validate(user, { code: mine.body.code, vertical: 'ORDER', amount: 100_000, partnerId: owner.partnerId })).body.code).toBe(
      'PROMOTION_NOT_FOUND',
    );
    const later = (await create(admin, voucher({ startsAt: new Date(Date.now() + day).toISOString(), endsAt: new Date(Date.now() + 2 * day).toISOString() })))
      .body;
    expect((await validate(user, { code: later.code, vertical: 'RIDE', amount: 100_000 })).body.code).toBe('PROMOTION_NOT_STARTED');
    const ended = (await create(admin, voucher())).body;
    await db()
      .collection(PROMOTIONS)
      .doc(ended.id)
      .update({ endsAt: Date.now() - 1 });
    expect((await validate(user, { code: ended.code, vertical: 'RIDE', amount: 100_000 })).body.code).toBe('PROMOTION_EXPIRED');

    for (const bad of [{ value: 150 }, { endsAt: new Date(Date.now() - 2 * day).toISOString() }, { verticals: [] }, { code: 'a!' }, { kind: 'FREE' }]) {
      expect((await create(admin, voucher(bad))).status).toBe(400);
    }
  });
});
